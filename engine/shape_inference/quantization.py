"""Shape functions of the fake-quantization ops (TensorFlow's array_ops.cc)."""

from engine.shape_inference.dims import ShapeError, _dims, merge, merge_dim


def _with_rank(info, rank):
    dims = _dims(info)
    if dims is not None and len(dims) != rank:
        raise ShapeError(f"Shape must be rank {rank} but is rank {len(dims)}")
    return dims if dims is not None else [None] * rank


def _at_least_one(info):
    dims = _dims(info)
    if dims is not None and len(dims) < 1:
        raise ShapeError(f"Shape must be at least rank 1 but is rank {len(dims)}")
    return dims


def fake_quant_vars(attrs, inputs):
    """FakeQuantWithMinMaxVars: min and max scalars; the inputs' shape."""
    _with_rank(inputs[1], 0)
    _with_rank(inputs[2], 0)
    return _dims(inputs[0])


def fake_quant_vars_gradient(attrs, inputs):
    """FakeQuantWithMinMaxVarsGradient: (the merged input shape, [], [])."""
    _with_rank(inputs[2], 0)
    _with_rank(inputs[3], 0)
    return merge(_dims(inputs[0]), _dims(inputs[1])), [], []


def _depth(inputs_dims, bounds):
    depth = None if inputs_dims is None else inputs_dims[-1]
    for info in bounds:
        depth = merge_dim(depth, _with_rank(info, 1)[0])
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


SHAPE_FUNCTIONS = {
    "FakeQuantWithMinMaxArgs": lambda attrs, inputs: _dims(inputs[0]),
    # TensorFlow's UnchangedShape: the gradients' shape, the inputs' not merged in.
    "FakeQuantWithMinMaxArgsGradient": lambda attrs, inputs: _dims(inputs[0]),
    "FakeQuantWithMinMaxVars": fake_quant_vars,
    "FakeQuantWithMinMaxVarsGradient": fake_quant_vars_gradient,
    "FakeQuantWithMinMaxVarsPerChannel": fake_quant_vars_per_channel,
    "FakeQuantWithMinMaxVarsPerChannelGradient": fake_quant_vars_per_channel_gradient,
}
