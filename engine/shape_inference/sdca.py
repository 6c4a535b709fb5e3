"""Shape functions of the SDCA helpers as TensorFlow's (core/ops/sdca_ops.cc): SdcaFprint's
[n, 2] of a vector; SdcaShrinkL1 has no outputs."""

from engine.shape_inference.dims import ShapeError, _dims


def sdca_fprint(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(dims)}")
    return [None if dims is None else dims[0], 2]


def sdca_optimizer(attrs, inputs):
    """[?, 4] for the example state (whatever its input's), then each sparse and dense
    weight vector's shape."""
    n_sparse, n_values = attrs["num_sparse_features"], attrs["num_sparse_features_with_values"]
    n_dense = attrs["num_dense_features"]
    weights_at = 2 * n_sparse + n_values + n_dense + 2
    sparse = inputs[weights_at + n_sparse:weights_at + 2 * n_sparse]
    dense = inputs[weights_at + 2 * n_sparse:weights_at + 2 * n_sparse + n_dense]
    return tuple([[None, 4]] + [_dims(info) for info in sparse + dense])


SHAPE_FUNCTIONS = {"SdcaFprint": sdca_fprint, "SdcaShrinkL1": lambda attrs, inputs: (),
                   "SdcaOptimizer": sdca_optimizer, "SdcaOptimizerV2": sdca_optimizer}
