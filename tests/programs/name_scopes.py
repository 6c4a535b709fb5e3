"""How TensorFlow names operations and tensors: uniquified names, nested and absolute scopes."""

import engine as tf


def build():
    ops = {}
    ops["c_0"] = tf.constant(0, name="c")
    ops["c_1"] = tf.constant(2, name="c")
    with tf.name_scope("outer"):
        ops["c_2"] = tf.constant(2, name="c")
        with tf.name_scope("inner"):
            ops["c_3"] = tf.constant(3, name="c")
        ops["c_4"] = tf.constant(4, name="c")
        with tf.name_scope("inner"):
            ops["c_5"] = tf.constant(5, name="c")
        # A trailing "/" re-enters a scope by its absolute name instead of nesting a new one.
        with tf.name_scope("outer/inner/"):
            ops["c_6"] = tf.constant(6, name="c")
    with tf.name_scope("outer"):
        ops["c_7"] = tf.constant(7, name="c")
    # Ops named like an existing scope, and the scope named like an existing op.
    ops["add"] = tf.add(ops["c_0"], ops["c_1"])
    ops["add_1"] = tf.add(ops["c_0"], ops["c_1"])
    ops["add_named"] = tf.add(ops["c_0"], ops["c_1"], name="add")
    ops["outer_op"] = tf.constant(8, name="outer")
    with tf.name_scope("add"):
        ops["scoped"] = tf.constant(9, name="c")
    ops["answer"] = tf.constant(42.0, name="answer")
    ops["split"] = tf.split(tf.constant([1, 2, 3, 4]), 2, name="split")
    return ops


def main():
    ops = build()
    for key, value in ops.items():
        if isinstance(value, list):
            print(key, [t.name for t in value], value[0].op.name)
        else:
            print(key, value.name, value.op.name)
    print("all ops:")
    for op in tf.get_default_graph().get_operations():
        print("  ", op.name, op.type)


if __name__ == "__main__":
    main()
