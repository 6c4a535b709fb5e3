"""tf.math.sobol_sample as TensorFlow 2.21's math_ops builds it: one SobolSample node."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops.op_def_library import apply_op


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    with name_scope(name, "sobol", [dim, num_results, skip]):
        return apply_op("SobolSample", dim=dim, num_results=num_results, skip=skip,
                        dtype=dtype)
