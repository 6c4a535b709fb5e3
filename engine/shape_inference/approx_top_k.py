"""ApproxTopK's shape function as TensorFlow's (core/ops/nn_ops.cc): the reduction dimension
becomes k. Its checks keep TensorFlow's quirks: an unknown rank counts as -1 (no reduction
dimension fits) and an unknown reduced dimension as -1 (smaller than any k)."""

from engine.framework.text_formats import float_text
from engine.shape_inference.dims import ShapeError, _dims


def approx_top_k(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is not None and len(dims) < 1:
        raise ShapeError(f"Shape must be at least rank 1 but is rank {len(dims)}")
    rank = -1 if dims is None else len(dims)
    k = attrs["k"]
    reduction_dim = attrs.get("reduction_dimension", -1)
    if not -rank <= reduction_dim < rank:
        raise ShapeError(f"Invalid reduction dimension: {reduction_dim}. Must be within the "
                         f"range of [{-rank}, {rank - 1}]")
    reduction_dim %= rank
    reduced = dims[reduction_dim]
    if reduced is None or reduced < k:
        raise ShapeError(f"input must have last dimension >= k = {k} but was "
                         f"{-1 if reduced is None else reduced}")
    recall = attrs.get("recall_target", 0.95)
    if not 0 < recall <= 1:
        raise ShapeError(f"Invalid recall target: {float_text(recall)}. Valid value range in "
                         f": [0, 1.0].")
    out = list(dims)
    out[reduction_dim] = k
    return (out, list(out))


SHAPE_FUNCTIONS = {"ApproxTopK": approx_top_k}
