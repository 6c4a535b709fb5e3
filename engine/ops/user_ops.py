"""tf.user_ops: TensorFlow's example user op, my_fact (op Fact)."""

from engine.ops.op_def_library import apply_op


def my_fact():
    """tf.user_ops.my_fact: the string "0! == 1" (TensorFlow's core/user_ops/fact.cc)."""
    return apply_op("Fact")
