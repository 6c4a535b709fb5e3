"""What tf.identity of a Variable and of an assign_add sees, run after run (seed 002)."""

import engine as tf


def build():
    a = tf.Variable(0)
    a_i = tf.identity(a)
    b = tf.assign_add(a, 1)
    b_i = tf.identity(b)
    init = tf.global_variables_initializer()
    return {"a": a, "a_i": a_i, "b": b, "b_i": b_i, "init": init}


def main():
    g = build()
    a, a_i, b, b_i = g["a"], g["a_i"], g["b"], g["b_i"]
    sess = tf.Session()
    sess.run(g["init"])

    print("a:", sess.run(a))
    print("a_i:", sess.run(a_i))

    print("b:", sess.run(b))
    print("a:", sess.run(a))
    print("a_i:", sess.run(a_i))

    print("b_i:", sess.run(b_i))
    print("a:", sess.run(a))
    print("a_i:", sess.run(a_i))

    # assign_add on the Assign's own output: it runs b first, then adds 1 to the same variable.
    print("b:", sess.run(tf.assign_add(b, 1)))
    print("a:", sess.run(a))
    print("a_i:", sess.run(a_i))
    sess.close()


if __name__ == "__main__":
    main()
