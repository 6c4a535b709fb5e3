"""A counter Variable incremented by assign: prints 0 1 2 3 (seed 000's first program)."""

import engine as tf


def build():
    """Builds the counter graph in the default graph; returns its pieces by role."""
    state = tf.Variable(0, name="counter")
    one = tf.constant(1)
    new_value = tf.add(state, one)
    update = tf.assign(state, new_value)
    init = tf.initialize_all_variables()
    return {"state": state, "update": update, "init": init}


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(g["init"])
        print(sess.run(g["state"]))
        for _ in range(3):
            sess.run(g["update"])
            print(sess.run(g["state"]))


if __name__ == "__main__":
    main()
