"""tf.cast, on its own: array_ops and math_ops both build on it."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor


def cast(x, dtype, name=None):
    """TF's cast: returns `x` itself when it already has `dtype`; a SparseTensor or
    IndexedSlices keeps its indices and casts its values."""
    base_type = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and base_type == x.dtype.base_dtype:
        return x
    with name_scope(name, "Cast", [x]) as name:
        if isinstance(x, SparseTensor):
            return SparseTensor(x.indices, cast(x.values, base_type, name=name), x.dense_shape)
        if isinstance(x, IndexedSlices):
            return IndexedSlices(cast(x.values, base_type, name=name), x.indices, x.dense_shape)
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype != base_type:
            x = apply_op("Cast", x=x, DstT=base_type, Truncate=False, name=name)
        return x
