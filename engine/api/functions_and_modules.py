"""tf.function, tf.Module, tf.GradientTape and the TF2 building blocks TF1-era programs use in
a graph: tf.recompute_grad, tf.grad_pass_through, tf.variable_creator_scope,
tf.vectorized_map, tf.wrap_function, tf.TensorSpec, tf.nest; tf.enable_v2_behavior says why
not."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.framework.api_namespace import NotSupportedError as _NotSupported
from engine.ops import nest as _nest
from engine.ops import function_call_grad as _function_call_grad  # noqa: F401 (registers)
from engine.ops.def_function import TensorSpec, function  # noqa: F401
from engine.ops.gradient_tape import GradientTape  # noqa: F401
from engine.ops.gradient_wrappers import (grad_pass_through, recompute_grad,  # noqa: F401
                                          vectorized_map, wrap_function)
from engine.ops.module import Module  # noqa: F401
from engine.ops.variable_creator import variable_creator_scope  # noqa: F401


def enable_v2_behavior():
    raise _NotSupported("tf.enable_v2_behavior is not supported: the engine runs TensorFlow "
                        "1.x graphs in a tf.Session (v2 behaviour means eager execution); "
                        "tf.function, tf.Module and tf.GradientTape work in graph mode")


nest = _Namespace("tf.nest", **{name: getattr(_nest, name) for name in (
    "assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as")})
