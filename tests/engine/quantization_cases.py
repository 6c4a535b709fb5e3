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


def _qdq(v2=True, **kwargs):
    """quantize_and_dequantize(_v2) of x with min and max as constants (kwargs)."""
    def build(tf, x):
        fn = (tf.quantization.quantize_and_dequantize_v2 if v2
              else tf.quantization.quantize_and_dequantize)
        return fn(x, **kwargs)
    return build


_XQ = np.concatenate([_random([24], -3, 3), np.array([-1, 1, 0.5, -0.5, 1.5, -2.5, 0], _F),
                      (np.arange(-8, 9, dtype=_F) + _F(0.5)) / _F(4)])
_XQ64 = _R.uniform(-2, 5, [5, 4])
_XQ3 = _random([2, 3, 4], -2, 2)
CASES.update({
    "qdq_input_range": (_qdq(input_min=0.0, input_max=0.0), [_XQ], True),
    "qdq_v1_input_range": (_qdq(False, input_min=0.0, input_max=0.0, name="qdq"), [_XQ], True),
    "qdq_given_range": (_qdq(input_min=-1.0, input_max=1.0, range_given=True), [_XQ], True),
    "qdq_v1_given_range": (_qdq(False, input_min=-1.0, input_max=1.0, range_given=True),
                           [_XQ], True),
    "qdq_half_up_4_bits": (_qdq(input_min=-2.0, input_max=2.0, range_given=True, num_bits=4,
                                round_mode="HALF_UP"), [_XQ], True),
    "qdq_narrow_unsigned": (_qdq(input_min=0.0, input_max=2.5, range_given=True,
                                 signed_input=False, narrow_range=True, num_bits=3),
                            [_XQ], True),
    "qdq_narrow_signed": (_qdq(input_min=-0.75, input_max=3.0, range_given=True,
                               narrow_range=True, num_bits=5), [_XQ], True),
    "qdq_float64": (_qdq(input_min=-1.5, input_max=4.0, range_given=True, num_bits=12),
                    [_XQ64], True),
    "qdq_float64_input_range": (_qdq(input_min=0.0, input_max=0.0, num_bits=6,
                                     round_mode="HALF_UP"), [_XQ64], True),
    "qdq_axis1_input_range": (_qdq(input_min=[0.0, 0.0, 0.0], input_max=[0.0, 0.0, 0.0],
                                   axis=1), [_XQ3], True),
    "qdq_axis_negative": (_qdq(input_min=[0.0] * 4, input_max=[0.0] * 4, axis=-1, num_bits=3,
                               round_mode="HALF_UP"), [_XQ3], True),
    "qdq_v1_axis0_input_range": (_qdq(False, input_min=[0.0, 0.0], input_max=[0.0, 0.0],
                                      axis=0, num_bits=4), [_XQ3], True),
    "qdq_axis2_input_range_unsigned": (_qdq(input_min=[0.0] * 4, input_max=[0.0] * 4, axis=2,
                                            signed_input=False),
                                       [np.abs(_XQ3)], True),
    "qdq_v4_grad_op": (lambda tf, g, x, lo, hi: tf.raw_ops.QuantizeAndDequantizeV4Grad(
                           gradients=g, input=x, input_min=lo, input_max=hi, axis=1),
                       [_random([2, 3, 4], -1, 1), _XQ3, np.array([-1, -0.5, -3], _F),
                        np.array([1, 0.5, 0.1], _F)], False),
    "qdq_v4_grad_op_scalar": (lambda tf, g, x, lo, hi: tf.raw_ops.QuantizeAndDequantizeV4Grad(
                                  gradients=g, input=x, input_min=lo, input_max=hi),
                              [_XQ64 * 2, _XQ64, np.float64(-1), np.float64(2)], False),
})


def _quantize(low, high, T, dequantize=True, v2=False, **kwargs):
    """tf.quantization.quantize (or tf.quantize_v2) of x, then tf.dequantize of its result."""
    def build(tf, x):
        fn = tf.quantize_v2 if v2 else tf.quantization.quantize
        q = fn(x, low, high, getattr(tf, T), **kwargs)
        if not dequantize:
            return tuple(q)
        keep = {k: v for k, v in kwargs.items() if k in ("mode", "axis", "narrow_range")}
        return (*q, tf.quantization.dequantize(q.output, q.output_min, q.output_max, **keep))
    return build


_XS = np.concatenate([_random([20], -4, 4), np.array([-1, 2, 0, 0.5, -0.5, 1.5, 3, -3], _F),
                      (np.arange(-12, 13, dtype=_F) + _F(0.5)) / _F(8)])
CASES.update({
    "quantize_qint8": (_quantize(-1.0, 2.0, "qint8"), [_XS], False),
    "quantize_quint8": (_quantize(-1.0, 2.0, "quint8", name="q8"), [_XS], False),
    "quantize_qint16": (_quantize(-3.0, 3.0, "qint16"), [_XS], False),
    "quantize_quint16_min_positive": (_quantize(0.5, 2.0, "quint16"), [_XS], False),
    "quantize_v2_equal_range": (_quantize(1.0, 1.0, "qint8", v2=True), [_XS], False),
    "quantize_minimum_range": (_quantize(0.0, 0.0, "quint8", ensure_minimum_range=0.25),
                               [_XS], False),
    "quantize_min_first_quint8": (_quantize(-1.0, 2.0, "quint8", mode="MIN_FIRST"), [_XS],
                                  False),
    "quantize_min_first_qint8": (_quantize(-2.5, 1.0, "qint8", mode="MIN_FIRST"), [_XS],
                                 False),
    "quantize_min_first_qint16": (_quantize(-0.5, 3.5, "qint16", mode="MIN_FIRST"), [_XS],
                                  False),
    "quantize_scaled_qint8": (_quantize(-1.0, 2.0, "qint8", mode="SCALED"), [_XS], False),
    "quantize_scaled_narrow_even": (_quantize(-3.0, 1.0, "qint8", mode="SCALED",
                                              narrow_range=True, round_mode="HALF_TO_EVEN"),
                                    [_XS], False),
    "quantize_scaled_quint8": (_quantize(-1.0, 3.0, "quint8", mode="SCALED"), [_XS], False),
    "quantize_scaled_qint32": (_quantize(-2.0, 2.0, "qint32", mode="SCALED",
                                         dequantize=False), [_XS], False),
    "quantize_scaled_axis": (_quantize([-1.0, -2.0, 0.0], [1.0, 0.5, 3.0], "qint8",
                                       mode="SCALED", axis=1), [_XQ3], False),
    "quantize_min_combined_axis": (_quantize([-1.0, -2.0], [1.0, 4.0], "quint8", axis=0),
                                   [_XQ3], False),
    "quantize_negative_axis": (_quantize([-1.0, -2.0, 0.0, -0.5], [1.0, 0.5, 3.0, 0.5],
                                         "qint16", mode="SCALED", axis=-1), [_XQ3], False),
    "dequantize_top_level": (lambda tf, x: tf.dequantize(
                                 tf.quantize(x, -2.0, 2.0, tf.quint8).output, -2.0, 2.0,
                                 name="dq"), [_XS], False),
})


def _concat(T, ranges, axis, shapes):
    """tf.quantization.quantized_concat of x's pieces, each quantized (MIN_FIRST) in its range."""
    def build(tf, x):
        pieces, start = [], 0
        for (low, high), shape in zip(ranges, shapes):
            size = int(np.prod(shape))
            piece = tf.reshape(x[start:start + size], shape)
            start += size
            pieces.append(tf.quantization.quantize(piece, low, high, getattr(tf, T),
                                                   mode="MIN_FIRST"))
        return tuple(tf.quantization.quantized_concat(
            axis, [p.output for p in pieces], [p.output_min for p in pieces],
            [p.output_max for p in pieces]))
    return build


CASES.update({
    "quantized_concat_quint8": (_concat("quint8", [(-1.0, 2.0), (-3.0, 1.0), (0.5, 4.0)], 1,
                                        [[2, 3], [2, 2], [2, 1]]), [_XS[:12]], False),
    "quantized_concat_same_range": (_concat("quint8", [(-1.0, 2.0), (-1.0, 2.0)], 0,
                                            [[2, 3], [1, 3]]), [_XS[:9]], False),
    "quantized_concat_qint32": (_concat("qint32", [(-1.0, 2.0), (-0.5, 0.5)], 0,
                                        [[1, 4], [2, 4]]), [_XS[:12]], False),
    "quantized_concat_given_ranges": (lambda tf, x: tf.quantized_concat(
                                    0, [tf.quantization.quantize(x, -1.0, 2.0, tf.quint8,
                                                                 mode="MIN_FIRST").output] * 2,
                                    [-1.0, -2.0], [2.0, 3.0], name="qc"), [_XS[:6]], False),
})


def build_case(tf, name):
    """(feed dict, outputs, loss, gradients w.r.t. every input or []) in the default graph."""
    build, values, differentiable = CASES[name]
    inputs = [tf.placeholder(tf.as_dtype(np.asarray(v).dtype), np.shape(v), name=f"x{i}")
              for i, v in enumerate(values)]
    outputs = build(tf, *inputs)
    outputs = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
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
    "qdq_bits_unsigned": ("QuantizeAndDequantizeV4", dict(input=_X, input_min=_F(-1),
                                                        input_max=_F(1)),
                          dict(num_bits=63, signed_input=False)),
    "qdq_bits_signed": ("QuantizeAndDequantizeV2", dict(input=_X, input_min=_F(-1),
                                                      input_max=_F(1)), dict(num_bits=62)),
    "qdq_bits_zero": ("QuantizeAndDequantizeV2", dict(input=_X, input_min=_F(-1),
                                                    input_max=_F(1)), dict(num_bits=0)),
    "qdq_range_inverted": ("QuantizeAndDequantizeV4", dict(input=_X, input_min=_F(1.5),
                                                         input_max=_F(-1)),
                           dict(range_given=True)),
    "qdq_min_vector": ("QuantizeAndDequantizeV2", dict(input=_X, input_min=np.zeros([3], _F),
                                                     input_max=np.ones([3], _F)),
                       dict(range_given=True)),
    "qdq_axis_rank": ("QuantizeAndDequantizeV2", dict(input=_X, input_min=np.zeros([3], _F),
                                                    input_max=np.ones([3], _F)),
                      dict(range_given=True, axis=4)),
    # TensorFlow 2.21's kernels take a scalar range only, whatever the axis.
    "qdq_axis_range_given": ("QuantizeAndDequantizeV4", dict(
        input=_X, input_min=np.zeros([3], _F), input_max=np.ones([3], _F)),
        dict(range_given=True, axis=1)),
    "qdq_max_vector": ("QuantizeAndDequantizeV2", dict(input=_X, input_min=_F(0),
                                                     input_max=np.ones([3], _F)),
                       dict(range_given=True)),
    "qdq_axis_min_size": ("QuantizeAndDequantizeV4", dict(
        input=_X, input_min=np.zeros([2], _F), input_max=np.ones([3], _F)),
        dict(range_given=True, axis=1)),
    "qdq_axis_min_scalar": ("QuantizeAndDequantizeV4", dict(
        input=_X, input_min=_F(0), input_max=_F(1)), dict(range_given=True, axis=1)),
    "qdq_grad_axis": ("QuantizeAndDequantizeV4Grad", dict(
        gradients=_X, input=_X, input_min=_F(-1), input_max=_F(1)), dict(axis=3)),
    "qdq_grad_min_vector": ("QuantizeAndDequantizeV4Grad", dict(
        gradients=_X, input=_X, input_min=np.zeros([2], _F), input_max=_F(1)), {}),
    "qdq_grad_min_size": ("QuantizeAndDequantizeV4Grad", dict(
        gradients=_X, input=_X, input_min=np.zeros([2], _F), input_max=np.ones([3], _F)),
        dict(axis=1)),
    "qdq_grad_max_size": ("QuantizeAndDequantizeV4Grad", dict(
        gradients=_X, input=_X, input_min=np.zeros([3], _F), input_max=np.ones([2], _F)),
        dict(axis=1)),
    "qdq_grad_sizes": ("QuantizeAndDequantizeV4Grad", dict(
        gradients=_X[:1], input=_X, input_min=_F(-1), input_max=_F(1)), {}),
    "quantize_even_min_combined": ("QuantizeV2", dict(input=_X, min_range=_F(-1),
                                                    max_range=_F(1)),
                                   dict(T="qint8", round_mode="HALF_TO_EVEN")),
    "quantize_range_inverted": ("QuantizeV2", dict(input=_X, min_range=_F(1),
                                                 max_range=_F(-1)), dict(T="quint8")),
    "quantize_min_first_inverted": ("QuantizeV2", dict(input=_X, min_range=_F(1),
                                                     max_range=_F(-1)),
                                    dict(T="quint8", mode="MIN_FIRST")),
    "quantize_min_first_axis": ("QuantizeV2", dict(input=_X, min_range=np.zeros([3], _F),
                                                 max_range=np.ones([3], _F)),
                                dict(T="quint8", mode="MIN_FIRST", axis=1)),
    "dequantize_axis_sizes": ("Dequantize", dict(input=_X,
                                               min_range=np.zeros([2], _F),
                                               max_range=np.ones([3], _F)), dict(axis=1)),
}


def run_error_case(tf, name):
    """image_cases' runner; Dequantize's input is quint8, quantized in the graph from the
    float32 one fed (a placeholder of a quantized type cannot be fed)."""
    op, values, attrs = ERROR_CASES[name]
    if op != "Dequantize":
        return image_cases.run_error_case(tf, name, ERROR_CASES)
    with tf.Graph().as_default():
        # Dequantize's shape function wants the input's rank when an axis is given.
        feeds = {key: tf.placeholder(tf.float32, value.shape if key == "input" else None)
                 for key, value in values.items()}
        quantized = tf.quantization.quantize(feeds["input"], -1.0, 1.0, tf.quint8).output
        out = tf.raw_ops.Dequantize(input=quantized, min_range=feeds["min_range"],
                                    max_range=feeds["max_range"], **attrs)
        with tf.Session() as sess:
            try:
                sess.run(out, {feeds[key]: value for key, value in values.items()})
            except tf.errors.OpError as error:
                return type(error).__name__, image_cases.kernel_message(error.message)
    raise AssertionError(f"{name}: no error")


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
    "qdq_max_size": lambda tf: tf.quantization.quantize_and_dequantize(
        np.zeros([2, 3], _F), [-1.0, -1.0], [1.0, 1.0, 1.0], axis=1, range_given=True),
    "qdq_axis_scalar_min": lambda tf: tf.quantization.quantize_and_dequantize_v2(
        np.zeros([2, 3], _F), -1.0, 1.0, axis=1),
    "qdq_axis_past_rank": lambda tf: tf.quantization.quantize_and_dequantize_v2(
        tf.constant(np.zeros([2, 3], _F)), [-1.0], [1.0], axis=4),
    "qdq_depth": lambda tf: tf.quantization.quantize_and_dequantize_v2(
        tf.constant(np.zeros([2, 3], _F)), [-1.0, 0.0], [1.0, 1.0], axis=1),
    "qdq_negative_axis_unknown_rank": lambda tf: tf.quantization.quantize_and_dequantize_v2(
        tf.placeholder(tf.float32), -1.0, 1.0, axis=-1),
    "qdq_round_mode": lambda tf: tf.quantization.quantize_and_dequantize_v2(
        np.zeros([2], _F), -1.0, 1.0, round_mode="HALF_DOWN"),
    "dequantize_axis_unknown_rank": lambda tf: tf.quantization.dequantize(
        tf.quantization.quantize(tf.placeholder(tf.float32), -1.0, 1.0, tf.quint8).output,
        [0.0, 0.0], [1.0, 1.0], axis=1),
    "dequantize_axis_past_rank": lambda tf: tf.quantization.dequantize(
        tf.quantization.quantize(np.zeros([2, 3], _F), -1.0, 1.0, tf.quint8).output,
        [0.0, 0.0], [1.0, 1.0], axis=2),
    "quantize_axis_scalar_range": lambda tf: tf.quantization.quantize(
        np.zeros([2, 3], _F), -1.0, 1.0, tf.qint8, axis=1),
    "quantize_negative_axis_unknown_rank": lambda tf: tf.quantization.quantize(
        tf.placeholder(tf.float32), -1.0, 1.0, tf.qint8, axis=-1),
    "quantized_concat_min_rank": lambda tf: tf.quantization.quantized_concat(
        0, [tf.quantization.quantize(np.zeros([2], _F), -1.0, 1.0, tf.quint8).output] * 2,
        [[-1.0], [-1.0]], [1.0, 1.0]),
    "qdq_grad_min_rank": lambda tf: tf.raw_ops.QuantizeAndDequantizeV4Grad(
        gradients=np.zeros([2, 3], _F), input=np.zeros([2, 3], _F), input_min=[0.0],
        input_max=1.0),
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


QUANTIZED_TYPES = ("qint8", "quint8", "qint16", "quint16", "qint32")


def dtype_answers(tf):
    """What each quantized DType answers (enum, is_quantized, is_integer, is_floating, repr,
    str, its reference type's name), tf.dtypes.QUANTIZED_DTYPES' members' names, qint8's
    min and max (TensorFlow's TypeError) and each type's size."""
    answers = {name: [getattr(tf, name).as_datatype_enum, getattr(tf, name).is_quantized,
                      getattr(tf, name).is_integer, getattr(tf, name).is_floating,
                      repr(getattr(tf, name)), str(getattr(tf, name)),
                      getattr(tf.dtypes, name)._as_ref.name]
               for name in QUANTIZED_TYPES}
    answers["QUANTIZED_DTYPES"] = sorted(d.name for d in tf.dtypes.QUANTIZED_DTYPES)
    answers["same_set"] = tf.QUANTIZED_DTYPES is tf.dtypes.QUANTIZED_DTYPES
    answers["float32_is_quantized"] = tf.float32.is_quantized
    for bound in ("min", "max"):
        try:
            answers[f"qint8_{bound}"] = getattr(tf.qint8, bound)
        except TypeError as error:
            answers[f"qint8_{bound}"] = str(error)
    answers["sizes"] = [getattr(tf, name).size for name in QUANTIZED_TYPES]
    return answers
