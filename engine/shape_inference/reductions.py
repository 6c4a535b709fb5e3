"""Shape functions of the reductions (Sum, Mean, ..., keep_dims) and ArgMax/ArgMin."""

from engine.framework import op_families
from engine.shape_inference.dims import ShapeError, _dims, _unknown
from engine.shape_inference.partial_values import _ints


def reduction(attrs, inputs):
    dims, axes = _dims(inputs[0]), _ints(inputs[1])
    keep = attrs.get("keep_dims", False)
    if dims is None:
        return None
    if axes is None:
        return _unknown(len(dims)) if keep else None
    rank = len(dims)
    for axis in axes:
        if not -rank <= axis < max(rank, 1):
            raise ShapeError(f"Invalid reduction dimension {axis} for input with {rank} "
                             f"dimensions.")
    axes = {a % rank for a in axes} if rank else set()
    return [1 if i in axes else d for i, d in enumerate(dims) if keep or i not in axes]


def arg_reduction(attrs, inputs):
    dims, axis = _dims(inputs[0]), _ints(inputs[1])
    if dims is None:
        return None
    if axis is None:
        return _unknown(len(dims) - 1)
    rank = len(dims)
    if not -rank <= axis[0] < rank:
        raise ShapeError(f"Dimension ({axis[0]}) must be in the range [{-rank}, {rank}), where "
                         f"{rank} is the number of dimensions in the input.")
    axis = axis[0] % rank
    return dims[:axis] + dims[axis + 1:]


REDUCTIONS = op_families.REDUCTIONS
