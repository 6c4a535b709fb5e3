"""Shape functions of the SDCA helpers as TensorFlow's (core/ops/sdca_ops.cc): SdcaFprint's
[n, 2] of a vector; SdcaShrinkL1 has no outputs."""

from engine.shape_inference.dims import ShapeError, _dims


def sdca_fprint(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(dims)}")
    return [None if dims is None else dims[0], 2]


SHAPE_FUNCTIONS = {"SdcaFprint": sdca_fprint, "SdcaShrinkL1": lambda attrs, inputs: ()}
