"""Fake quantization (tf.fake_quant_with_min_max_args, ..._vars, ..._vars_per_channel and their
_gradient forms), built the same way by real TensorFlow and the engine: values, the gradient
of the outputs' sum of squares with respect to every input, static shapes and graph nodes;
the kernels' errors and the shape functions'. tools/make_quantization_fixtures.py writes
TensorFlow's to tests/fixtures/quantization/; tests/engine/test_quantization.py compares the
engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(5)
_F = np.float32


def _random(shape, low, high):
    return _R.uniform(low, high, shape).astype(_F)


def _steps(low, high, num_bits, narrow_range=False):
    """Values on and about the quantization grid of [low, high] (nominal, not nudged): each
    step, the midpoints between steps and their float32 neighbours, the ends and past them."""
    quant_min, quant_max = (1 if narrow_range else 0), 2 ** num_bits - 1
    scale = (_F(high) - _F(low)) / _F(quant_max - quant_min)
    count = min(quant_max - quant_min, 40)
    k = np.arange(count + 1, dtype=_F) * _F((quant_max - quant_min) / count)
    grid = (_F(low) + k * scale).astype(_F)
    halves = (grid[:-1] + _F(0.5) * scale).astype(_F)
    values = np.concatenate([grid, halves, np.nextafter(halves, _F(np.inf)),
                             np.nextafter(halves, _F(-np.inf)),
                             np.array([low, high, low - 1, high + 1, 0, -0.0], _F)])
    return values.astype(_F)


def _args(low, high, num_bits=8, narrow_range=False):
    def build(tf, x):
        return tf.fake_quant_with_min_max_args(x, min=low, max=high, num_bits=num_bits,
                                               narrow_range=narrow_range)
    return build, [_steps(low, high, num_bits, narrow_range)]


def _vars(low, high, num_bits=8, narrow_range=False, x=None):
    def build(tf, x, lo, hi):
        return tf.fake_quant_with_min_max_vars(x, lo, hi, num_bits=num_bits,
                                               narrow_range=narrow_range)
    x = _steps(min(low, high), max(low, high) if high != low else low + 1, num_bits,
               narrow_range) if x is None else x
    return build, [x, _F(low), _F(high)]


def _per_channel(lows, highs, shape, num_bits=8, narrow_range=False):
    def build(tf, x, lo, hi):
        return tf.fake_quant_with_min_max_vars_per_channel(x, lo, hi, num_bits=num_bits,
                                                           narrow_range=narrow_range)
    return build, [_random(shape, -4, 4), np.array(lows, _F), np.array(highs, _F)]


CASES = {
    "args_default": (*_args(-6, 6), True),
    "args_narrow": (*_args(-6, 6, 8, True), True),
    "args_shifted_range": (*_args(-0.1, 25.4), True),
    "args_2_bits": (*_args(-1, 2, 2), True),
    "args_4_bits_narrow": (*_args(-3.3, 3.3, 4, True), True),
    "args_16_bits": (*_args(-1.5, 0.5, 16), True),
    "args_16_bits_narrow": (*_args(-0.25, 0.75, 16, True), True),
    "args_min_positive": (*_args(0.5, 2.0, 7), True),
    "args_max_negative": (*_args(-3.0, -1.0, 5), True),
    "args_zero_min": (*_args(0.0, 1.0, 3), True),
    "vars_default": (*_vars(-6, 6), True),
    "vars_narrow": (*_vars(-2.5, 7.5, 8, True), True),
    "vars_3_bits": (*_vars(-0.7, 1.3, 3), True),
    "vars_16_bits": (*_vars(-1.0, 1.0, 16), True),
    "vars_min_positive": (*_vars(0.5, 2.0), True),
    "vars_max_negative": (*_vars(-3.0, -1.0, 6), True),
    "vars_both_zero": (*_vars(0.0, 0.0), True),
    "vars_min_equals_max": (*_vars(1.0, 1.0, x=_random([7], -2, 2)), False),
    "vars_min_above_max": (*_vars(1.0, -1.0, x=_random([9], -2, 2)), True),
    "vars_matrix": (*_vars(-1.0, 3.0, 5, x=_random([4, 5], -3, 5)), True),
    "per_channel_1d": (*_per_channel([-1, 0, -6, 0.5], [1, 0, 6, 2], [4]), True),
    "per_channel_2d": (*_per_channel([-1, -2.5, 0, -3], [1, 2.5, 0, -1], [6, 4], 4), True),
    "per_channel_3d_narrow": (*_per_channel([-2, -0.3], [2, 3.1], [3, 4, 2], 8, True), True),
    "per_channel_4d_16_bits": (*_per_channel([-4, -1, 0], [4, 1, 2], [2, 3, 2, 3], 16), True),
    "args_gradient_op": (lambda tf, g, x: tf.fake_quant_with_min_max_args_gradient(
                             g, x, min=-1, max=1.5, num_bits=6, narrow_range=True),
                         [_random([11], -1, 1), _steps(-1, 1.5, 6, True)[:11] * 1.3], False),
    "vars_gradient_op": (lambda tf, g, x, lo, hi: tf.fake_quant_with_min_max_vars_gradient(
                             g, x, lo, hi, num_bits=4),
                         [_random([5, 6], -1, 1), _random([5, 6], -3, 3), _F(-1), _F(2)],
                         False),
    "per_channel_gradient_op": (
        lambda tf, g, x, lo, hi: tf.fake_quant_with_min_max_vars_per_channel_gradient(
            g, x, lo, hi, narrow_range=True, name="fq_grad"),
        [_random([4, 3], -1, 1), _random([4, 3], -3, 3), np.array([-1, 0, 0.2], _F),
         np.array([1, 0, 2], _F)], False),
    "quantization_namespace": (lambda tf, x: tf.quantization.fake_quant_with_min_max_args(
                                   x, name="fq"), [_random([3, 2], -7, 7)], True),
}


def build_case(tf, name):
    """(feed dict, outputs, loss, gradients w.r.t. every input or []) in the default graph."""
    build, values, differentiable = CASES[name]
    inputs = [tf.placeholder(tf.float32, np.shape(v), name=f"x{i}")
              for i, v in enumerate(values)]
    outputs = build(tf, *inputs)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    loss = tf.add_n([tf.reduce_sum(tf.square(tf.cast(out, tf.float64))) for out in outputs])
    grads = tf.gradients(loss, inputs) if differentiable else []
    return dict(zip(inputs, values)), outputs, loss, grads


def run_case(tf, name):
    """{"out<i>", "loss", "grad<j>"} and the outputs' static shapes."""
    with tf.Graph().as_default():
        feed, outputs, loss, grads = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run([outputs, loss, grads], feed)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    values = {f"out{i}": v for i, v in enumerate(fetched[0])}
    values["loss"] = fetched[1]
    values.update({f"grad{j}": v for j, v in enumerate(fetched[2])})
    return values, shapes


_X = _random([2, 3], -1, 1)
_RANGE = dict(min=np.float32(-1), max=np.float32(1))
# Kernels that fail at run time: (raw op, inputs, attrs); the message is TensorFlow's.
ERROR_CASES = {
    "args_min_above_max": ("FakeQuantWithMinMaxArgs", dict(inputs=_X), dict(min=1.5, max=-0.25)),
    "args_min_equals_max": ("FakeQuantWithMinMaxArgs", dict(inputs=_X), dict(min=0.0, max=0.0)),
    "args_1_bit": ("FakeQuantWithMinMaxArgs", dict(inputs=_X), dict(num_bits=1)),
    "args_17_bits": ("FakeQuantWithMinMaxArgs", dict(inputs=_X), dict(num_bits=17)),
    "args_gradient_range": ("FakeQuantWithMinMaxArgsGradient", dict(gradients=_X, inputs=_X),
                            dict(min=2.0, max=1.0)),
    "args_gradient_bits": ("FakeQuantWithMinMaxArgsGradient", dict(gradients=_X, inputs=_X),
                           dict(num_bits=0)),
    "args_gradient_shapes": ("FakeQuantWithMinMaxArgsGradient",
                             dict(gradients=_X, inputs=_X[:, :2]), {}),
    "vars_17_bits": ("FakeQuantWithMinMaxVars", dict(inputs=_X, **_RANGE), dict(num_bits=17)),
    "vars_min_vector": ("FakeQuantWithMinMaxVars",
                        dict(inputs=_X, min=np.zeros([2], _F), max=np.float32(1)), {}),
    "vars_gradient_bits": ("FakeQuantWithMinMaxVarsGradient",
                           dict(gradients=_X, inputs=_X, **_RANGE), dict(num_bits=1)),
    "per_channel_bits": ("FakeQuantWithMinMaxVarsPerChannel",
                         dict(inputs=_X, min=np.zeros([3], _F), max=np.ones([3], _F)),
                         dict(num_bits=20)),
    "per_channel_min_size": ("FakeQuantWithMinMaxVarsPerChannel",
                             dict(inputs=_X, min=np.zeros([2], _F), max=np.ones([3], _F)), {}),
    "per_channel_max_size": ("FakeQuantWithMinMaxVarsPerChannel",
                             dict(inputs=_X, min=np.zeros([3], _F), max=np.ones([4], _F)), {}),
    "per_channel_gradient_shapes": ("FakeQuantWithMinMaxVarsPerChannelGradient",
                                    dict(gradients=_X[:1], inputs=_X, min=np.zeros([3], _F),
                                         max=np.ones([3], _F)), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)


# Graph-building errors: the error class and the shape function's words (TensorFlow's
# message up to " for '{{node").
PYTHON_ERRORS = {
    "vars_min_rank1": lambda tf: tf.fake_quant_with_min_max_vars([1.0, 2.0], [0.0], [1.0]),
    "vars_float64": lambda tf: tf.fake_quant_with_min_max_vars(
        tf.constant([1.0], tf.float64), 0.0, 1.0),
    "vars_gradient_shapes": lambda tf: tf.fake_quant_with_min_max_vars_gradient(
        [1.0, 2.0], [1.0, 2.0, 3.0], 0.0, 1.0),
    "per_channel_depth": lambda tf: tf.fake_quant_with_min_max_vars_per_channel(
        [[1.0, 2.0]], [0.0], [1.0]),
    "per_channel_scalar": lambda tf: tf.fake_quant_with_min_max_vars_per_channel(
        1.0, [0.0], [1.0]),
    "per_channel_gradient_rank5": lambda tf: (
        tf.fake_quant_with_min_max_vars_per_channel_gradient(
            np.zeros([1, 1, 1, 1, 2], _F), np.zeros([1, 1, 1, 1, 2], _F), [0.0, 0.0],
            [1.0, 1.0])),
    "args_gradient_shapes": lambda tf: tf.fake_quant_with_min_max_args_gradient(
        np.zeros([2, 3], _F), np.zeros([3, 2], _F)),
}


def python_errors(tf):
    """{name: [the builtin error class (the engine's ShapeError is a ValueError), the message
    up to the node's text]} of PYTHON_ERRORS."""
    found = {}
    for name, build in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                build(tf)
            except (TypeError, ValueError) as error:
                kind = "ValueError" if isinstance(error, ValueError) else "TypeError"
                found[name] = [kind, str(error).split(" for '{{node")[0]]
            else:
                found[name] = None
    return found
