"""Shape functions of tf.random.Generator's ops as TensorFlow's (core/ops/stateful_random_ops.cc,
random_ops.cc): the samplers' outputs shaped by their shape input, RngReadAndSkip's state [3]."""

from engine.shape_inference.dims import with_rank
from engine.shape_inference.partial_values import _from_value, _ints


def _sampler(attrs, inputs):
    with_rank(inputs[1], 0)
    return _from_value(inputs[2])


def _binomial(attrs, inputs):
    with_rank(inputs[2], 1)
    return _from_value(inputs[2])


def _read_and_skip(attrs, inputs):
    with_rank(inputs[1], 0)
    with_rank(inputs[2], 0)
    return [3]


def _skip(attrs, inputs):
    with_rank(inputs[1], 0)
    with_rank(inputs[2], 0)
    return ()


SHAPE_FUNCTIONS = {
    **{op: _sampler for op in ("StatefulUniform", "StatefulUniformInt", "StatefulUniformFullInt",
                               "StatefulStandardNormalV2", "StatefulTruncatedNormal")},
    "StatefulRandomBinomial": _binomial, "RngReadAndSkip": _read_and_skip, "RngSkip": _skip,
    "NonDeterministicInts": lambda attrs, inputs: _from_value(inputs[0]),
}


def sobol_sample(attrs, inputs):
    """[num_results, dim], each known when its input's value is."""
    for info in inputs:
        with_rank(info, 0)
    dim, num_results = _ints(inputs[0]), _ints(inputs[1])
    return [num_results[0] if num_results else None, dim[0] if dim else None]


SHAPE_FUNCTIONS["SobolSample"] = sobol_sample
