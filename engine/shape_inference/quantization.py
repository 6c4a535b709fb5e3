"""Shape functions of the fake-quantization and quantize-and-dequantize ops (TensorFlow's
array_ops.cc)."""

from engine.shape_inference.dims import ShapeError, _dims, with_rank, merge, merge_dim




def _at_least_one(info):
    dims = _dims(info)
    if dims is not None and len(dims) < 1:
        raise ShapeError(f"Shape must be at least rank 1 but is rank {len(dims)}")
    return dims


def fake_quant_vars(attrs, inputs):
    """FakeQuantWithMinMaxVars: min and max scalars; the inputs' shape."""
    with_rank(inputs[1], 0, fill_unknown=True)
    with_rank(inputs[2], 0, fill_unknown=True)
    return _dims(inputs[0])


def fake_quant_vars_gradient(attrs, inputs):
    """FakeQuantWithMinMaxVarsGradient: (the merged input shape, [], [])."""
    with_rank(inputs[2], 0, fill_unknown=True)
    with_rank(inputs[3], 0, fill_unknown=True)
    return merge(_dims(inputs[0]), _dims(inputs[1])), [], []


def _depth(inputs_dims, bounds):
    depth = None if inputs_dims is None else inputs_dims[-1]
    for info in bounds:
        depth = merge_dim(depth, with_rank(info, 1, fill_unknown=True)[0])
    return depth


def fake_quant_vars_per_channel(attrs, inputs):
    """FakeQuantWithMinMaxVarsPerChannel: min and max [d], d the inputs' last dimension."""
    dims = _at_least_one(inputs[0])
    _depth(dims, inputs[1:3])
    return dims


def fake_quant_vars_per_channel_gradient(attrs, inputs):
    """FakeQuantWithMinMaxVarsPerChannelGradient: inputs of rank 1 to 4, min and max [d]."""
    dims = _at_least_one(inputs[1])
    if dims is not None and len(dims) > 4:
        raise ShapeError(f"Shape must be at most rank 4 but is rank {len(dims)}")
    dims = merge(dims, _dims(inputs[0]))
    depth = _depth(dims, inputs[2:4])
    return dims, [depth], [depth]


def _quantize_range(attrs, input_info, min_info, max_info):
    """min and max scalars (axis -1) or [depth] vectors, depth input's dimension `axis`."""
    axis = int(attrs["axis"])
    minmax = merge(_dims(max_info),
                   with_rank(min_info, 0 if axis == -1 else 1, fill_unknown=True))
    if axis < -1:
        raise ShapeError(f"axis should be at least -1, got {axis}")
    if axis != -1:
        dims = _dims(input_info)
        if dims is not None and len(dims) < axis + 1:
            raise ShapeError(f"Shape must be at least rank {axis + 1} but is rank {len(dims)}")
        minmax = [merge_dim(minmax[0], None if dims is None else dims[axis])]
    return minmax


def quantize_and_dequantize(attrs, inputs):
    """QuantizeAndDequantizeV2/V4: the input's shape."""
    _quantize_range(attrs, inputs[0], inputs[1], inputs[2])
    return _dims(inputs[0])


def quantize_and_dequantize_v4_grad(attrs, inputs):
    """QuantizeAndDequantizeV4Grad: (gradients merged with input, minmax, minmax)."""
    minmax = _quantize_range(attrs, inputs[0], inputs[2], inputs[3])
    dims = merge(_dims(inputs[0]), _dims(inputs[1]))
    return dims, minmax, minmax


def _quantize_op(attrs, inputs):
    """QuantizeV2 and Dequantize: the input's shape, min and max scalars or [depth]."""
    axis = int(attrs.get("axis", -1))
    if axis < -1:
        raise ShapeError(f"axis should be at least -1, got {axis}")
    rank = 0 if axis == -1 else 1
    with_rank(inputs[1], rank, fill_unknown=True)
    minmax = with_rank(inputs[2], rank, fill_unknown=True)
    if axis != -1:
        dims = _dims(inputs[0])
        if dims is not None and len(dims) < axis + 1:
            raise ShapeError(f"Shape must be at least rank {axis + 1} but is rank {len(dims)}")
        minmax = [merge_dim(minmax[0], None if dims is None else dims[axis])]
    return _dims(inputs[0]), minmax


def _dequantize(attrs, inputs):
    """Dequantize: with an axis, TensorFlow's function wants the input's rank known."""
    axis = int(attrs.get("axis", -1))
    if axis != -1 and _dims(inputs[0]) is None:
        raise ShapeError(f"Axis must be less than input dimension(-1), got {axis}")
    return _quantize_op(attrs, inputs)[0]


def _quantized_concat(attrs, inputs):
    """QuantizedConcat: Concat's shape of the values; min and max scalars."""
    from engine.shape_inference.array import _concat
    n = int(attrs["N"])
    for info in inputs[1 + n:]:
        with_rank(info, 0, fill_unknown=True)
    return _concat(inputs[1:1 + n], inputs[0]), [], []


SHAPE_FUNCTIONS = {
    "QuantizedConcat": _quantized_concat,
    "QuantizeV2": lambda attrs, inputs: (_quantize_op(attrs, inputs)[0],
                                         *[_quantize_op(attrs, inputs)[1]] * 2),
    "Dequantize": lambda attrs, inputs: _dequantize(attrs, inputs),
    "QuantizeAndDequantizeV2": quantize_and_dequantize,
    "QuantizeAndDequantizeV4": quantize_and_dequantize,
    "QuantizeAndDequantizeV4Grad": quantize_and_dequantize_v4_grad,
    "FakeQuantWithMinMaxArgs": lambda attrs, inputs: _dims(inputs[0]),
    # TensorFlow's UnchangedShape: the gradients' shape, the inputs' not merged in.
    "FakeQuantWithMinMaxArgsGradient": lambda attrs, inputs: _dims(inputs[0]),
    "FakeQuantWithMinMaxVars": fake_quant_vars,
    "FakeQuantWithMinMaxVarsGradient": fake_quant_vars_gradient,
    "FakeQuantWithMinMaxVarsPerChannel": fake_quant_vars_per_channel,
    "FakeQuantWithMinMaxVarsPerChannelGradient": fake_quant_vars_per_channel_gradient,
}
