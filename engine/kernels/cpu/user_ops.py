"""The CPU kernel of Fact (tf.user_ops.my_fact), TensorFlow's example user op: the string
"0! == 1" (core/user_ops/fact.cc)."""

import numpy as np

from engine.kernels import register


@register("Fact")
def fact(ctx):
    return np.array(b"0! == 1", object)
