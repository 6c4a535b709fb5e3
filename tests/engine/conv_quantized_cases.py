"""tf.conv (the generic Conv op), tf.conv2d_backprop_filter_v2 / _input_v2, the quantized
tf.nn ops (quantized_conv2d, quantized_avg_pool, quantized_max_pool, quantized_relu_x) and
tf.image.generate_bounding_box_proposals, built
the same way by real TensorFlow and the engine from constants (a placeholder of a quantized
type cannot be fed): values, static shapes and graph nodes, the kernels' errors (ops
TensorFlow's CPU has no kernel for among them) and the shape functions'.
tools/make_conv_quantized_fixtures.py writes TensorFlow's to tests/fixtures/conv_quantized/;
tests/engine/test_conv_quantized.py compares the engine's."""

import numpy as np

_R = np.random.RandomState(11)
_F = np.float32


def _normal(*shape):
    return _R.standard_normal(shape).astype(_F)


def _bytes(*shape, low=0, high=256):
    return _R.randint(low, high, shape).astype(np.uint8)


_X2 = _normal(2, 6, 7, 3)
_W2 = _normal(3, 2, 3, 4)
_X3 = _normal(2, 4, 5, 6, 2)
_W3 = _normal(2, 3, 2, 2, 3)
_Q_IN = _bytes(2, 5, 6, 3)
_Q_W = _bytes(2, 3, 3, 4)
_Q_S8 = (_bytes(2, 5, 6, 3).astype(np.int16) - 128).astype(np.int8)
_Q_W_S8 = (_Q_W.astype(np.int16) - 128).astype(np.int8)


def _conv(x, w, strides, padding, **kwargs):
    return lambda tf: tf.conv(tf.constant(x), tf.constant(w), strides, padding, **kwargs)


def _qconv(x, w, ranges, strides, padding, filter_type="quint8", input_type="quint8",
           **kwargs):
    def build(tf):
        return tf.nn.quantized_conv2d(tf.constant(x, getattr(tf, input_type)),
                                      tf.constant(w, getattr(tf, filter_type)),
                                      *[tf.constant(_F(v)) for v in ranges], strides,
                                      padding, **kwargs)
    return build


def _qpool(kind, x, low, high, ksize, strides, padding, dtype="quint8", **kwargs):
    def build(tf):
        pool = getattr(tf.nn, f"quantized_{kind}_pool")
        return pool(tf.constant(x, getattr(tf, dtype)), tf.constant(_F(low)), tf.constant(_F(high)),
                    ksize, strides, padding, **kwargs)
    return build


def _quantize_conv_dequantize(tf):
    """A TF1 quantized inference step: quantize input and filter (MIN_FIRST), convolve,
    dequantize the qint32 sums."""
    x = tf.quantization.quantize(tf.constant(_X2), -3.0, 3.0, tf.quint8, mode="MIN_FIRST")
    w = tf.quantization.quantize(tf.constant(_W2), -2.5, 2.5, tf.quint8, mode="MIN_FIRST")
    conv = tf.nn.quantized_conv2d(x.output, w.output, x.output_min, x.output_max,
                                  w.output_min, w.output_max, [1, 1, 1, 1], "SAME")
    return [conv.output, conv.min_output, conv.max_output,
            tf.quantization.dequantize(conv.output, conv.min_output, conv.max_output)]


CASES = {
    "quantize_conv_dequantize": _quantize_conv_dequantize,
    "conv_2d_valid": _conv(_X2, _W2, [1, 1, 1, 1], "VALID"),
    "conv_2d_same_strided": _conv(_X2, _W2, [1, 2, 3, 1], "SAME", name="gconv"),
    "conv_2d_dilated": _conv(_X2, _W2, [1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 1]),
    "conv_2d_explicit": _conv(_X2, _W2, [1, 2, 1, 1], "EXPLICIT",
                              explicit_paddings=[0, 0, 1, 2, 0, 3, 0, 0]),
    "conv_2d_batch_dims_2": _conv(_X2.reshape(1, 2, 6, 7, 3), _W2, [1, 1, 1, 1], "SAME",
                                  batch_dims=2),
    "conv_2d_batch_dims_2_explicit": _conv(_X2.reshape(2, 1, 6, 7, 3), _W2, [1, 2, 1, 1],
                                           "EXPLICIT",
                                           explicit_paddings=[0, 0, 2, 1, 1, 0, 0, 0], batch_dims=2),
    "conv_2d_float16": _conv(_X2.astype(np.float16), _W2.astype(np.float16), [1, 1, 1, 1],
                             "VALID"),
    "conv_3d_valid": _conv(_X3, _W3, [1, 1, 1, 1, 1], "VALID"),
    "conv_3d_same_strided": _conv(_X3, _W3, [1, 2, 1, 2, 1], "SAME"),
    "conv_2d_float64": _conv(_X2.astype(np.float64), _W2.astype(np.float64), [1, 1, 2, 1],
                             "VALID"),
    "quantized_conv2d_valid": _qconv(_Q_IN, _Q_W, (-1.0, 2.0, -0.5, 0.7), [1, 1, 1, 1],
                                     "VALID"),
    "quantized_conv2d_same_strided": _qconv(_Q_IN, _Q_W, (0.0, 6.0, -1.0, 1.0),
                                            [1, 2, 2, 1], "SAME", name="qconv"),
    "quantized_conv2d_1x1": _qconv(_Q_IN, _bytes(1, 1, 3, 2), (-3.0, 3.0, -0.25, 0.25),
                                   [1, 1, 1, 1], "SAME"),
    "quantized_conv2d_offsets_at_ends": _qconv(_Q_IN, _Q_W, (0.5, 1.5, -2.0, -1.0),
                                               [1, 3, 3, 1], "SAME"),
    "quantized_max_pool_qint8": _qpool("max", _Q_S8, -1.0, 1.0, [1, 2, 2, 1], [1, 1, 1, 1],
                                       "SAME", dtype="qint8"),
    "quantized_avg_pool_qint8": _qpool("avg", _Q_S8, -1.0, 1.0, [1, 3, 2, 1], [1, 2, 1, 1],
                                       "SAME", dtype="qint8"),
    "quantized_max_pool_valid": _qpool("max", _Q_IN, -1.0, 1.0, [1, 2, 2, 1], [1, 2, 2, 1],
                                       "VALID"),
    "quantized_max_pool_same": _qpool("max", _Q_IN, 0.0, 3.5, [1, 3, 2, 1], [1, 2, 1, 1],
                                      "SAME", name="qmax"),
    "quantized_avg_pool_valid": _qpool("avg", _Q_IN, -1.0, 1.0, [1, 2, 3, 1], [1, 1, 2, 1],
                                       "VALID"),
    "quantized_avg_pool_same": _qpool("avg", _Q_IN, -2.0, 5.0, [1, 3, 3, 1], [1, 2, 2, 1],
                                      "SAME", name="qavg"),
}


def build_case(tf, name):
    outputs = CASES[name](tf)
    return list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]


def run_case(tf, name):
    """{"out<i>"} and the outputs' static shapes."""
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run(outputs)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    return {f"out{i}": np.asarray(v) for i, v in enumerate(fetched)}, shapes


def _kernel_message(message):
    lines = message.splitlines()
    index = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
    return lines[index + 1] if index is not None else lines[0]


# Graphs that fail at run time: the error class and the kernel's words.
ERROR_CASES = {
    "conv_groups_on_cpu": _conv(_X2[..., :2], _W2[:, :, :1], [1, 1, 1, 1], "VALID", groups=2),
    "conv_channels_first_on_cpu": _conv(np.moveaxis(_X2, 3, 1), _W2, [1, 1, 1, 1], "VALID",
                                        data_format="CHANNELS_FIRST"),
    "conv_3d_dilated_on_cpu": _conv(_X3, _W3, [1, 1, 1, 1, 1], "VALID",
                                    dilations=[1, 2, 1, 1, 1]),
    "backprop_filter_v2_no_cpu_kernel": lambda tf: tf.conv2d_backprop_filter_v2(
        tf.constant(_X2), tf.constant(_W2), tf.constant(_normal(2, 3, 4, 4)), [1, 2, 2, 1],
        "SAME"),
    "backprop_input_v2_no_cpu_kernel": lambda tf: tf.conv2d_backprop_input_v2(
        tf.constant(_X2), tf.constant(_W2), tf.constant(_normal(2, 4, 5, 4)), [1, 1, 1, 1],
        "VALID", name="bpi"),
    "quantized_relu_x_no_cpu_kernel": lambda tf: tf.nn.quantized_relu_x(
        tf.constant(_Q_IN, tf.quint8), 0.5, -1.0, 1.0),
    "generate_bounding_box_proposals_no_cpu_kernel": lambda tf: (
        tf.image.generate_bounding_box_proposals(
            tf.constant(_normal(1, 2, 2, 3)), tf.constant(_normal(1, 2, 2, 12)),
            tf.constant(np.array([[20, 20, 1, 1, 1]], _F)), tf.constant(_normal(4, 3, 4)),
            name="gbp")),
    "quantized_conv2d_qint8_filter": _qconv(_Q_IN, _Q_W_S8, (-1.0, 2.0, -0.8, 0.6),
                                            [1, 1, 1, 1], "SAME", filter_type="qint8"),
    "quantized_conv2d_qint8_input": _qconv(_Q_S8, _Q_W, (0.0, 1.0, 0.0, 1.0), [1, 1, 1, 1],
                                           "VALID", input_type="qint8"),
    "quantized_conv2d_quint8_out": _qconv(_Q_IN, _Q_W, (0.0, 1.0, 0.0, 1.0), [1, 1, 1, 1],
                                          "VALID", out_type="quint8"),
    "quantized_max_pool_qint32": _qpool("max", _Q_IN.astype(np.int32), 0.0, 1.0,
                                        [1, 2, 2, 1], [1, 1, 1, 1], "VALID", dtype="qint32"),
    "quantized_conv2d_batch_stride": _qconv(_Q_IN, _Q_W, (0.0, 1.0, 0.0, 1.0),
                                            [2, 1, 1, 1], "VALID"),
    "quantized_conv2d_unequal_strides": _qconv(_Q_IN, _Q_W, (0.0, 1.0, 0.0, 1.0),
                                               [1, 1, 2, 1], "VALID"),
    "quantized_conv2d_dilated": _qconv(_Q_IN, _Q_W, (0.0, 1.0, 0.0, 1.0), [1, 1, 1, 1],
                                       "VALID", dilations=[1, 2, 2, 1]),
    "quantized_max_pool_depth_window": _qpool("max", _Q_IN, 0.0, 1.0, [1, 2, 2, 3],
                                              [1, 1, 1, 1], "VALID"),
    "quantized_avg_pool_batch_window": _qpool("avg", _Q_IN, 0.0, 1.0, [2, 2, 2, 1],
                                              [1, 1, 1, 1], "VALID"),
}


# Graphs of the ops TensorFlow's CPU cannot run: their nodes and static shapes.
GRAPH_CASES = {
    "backprop_filter_v2": lambda tf: tf.conv2d_backprop_filter_v2(
        tf.constant(_X2), tf.constant(_W2), tf.constant(_normal(2, 3, 4, 4)), [1, 2, 2, 1],
        "SAME"),
    "backprop_input_v2": lambda tf: tf.conv2d_backprop_input_v2(
        tf.constant(_X2), tf.constant(_W2), tf.constant(_normal(2, 4, 5, 4)), [1, 1, 1, 1],
        "VALID", name="bpi"),
    "quantized_relu_x": lambda tf: tf.nn.quantized_relu_x(
        tf.constant(_Q_IN, tf.quint8), 0.5, -1.0, 1.0),
    "generate_bounding_box_proposals": lambda tf: tf.image.generate_bounding_box_proposals(
        tf.constant(_normal(2, 3, 4, 5)), tf.constant(_normal(2, 3, 4, 20)),
        tf.constant(np.ones((2, 5), _F)), tf.constant(_normal(12, 5, 4)), 0.5, 100, 4.0,
        post_nms_topn=7),
    "generate_bounding_box_proposals_unknown_batch": lambda tf: (
        tf.image.generate_bounding_box_proposals(
            tf.placeholder(tf.float32, [None, 3, 4, 5]), tf.placeholder(tf.float32),
            tf.placeholder(tf.float32), tf.placeholder(tf.float32))),
}


def graph_case(tf, name):
    """{"nodes": [[name, op, inputs]], "shapes": [static shapes]}."""
    with tf.Graph().as_default() as graph:
        outputs = GRAPH_CASES[name](tf)
        outputs = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    nodes = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    return {"nodes": nodes, "shapes": shapes}


def run_error_case(tf, name):
    with tf.Graph().as_default():
        outputs = ERROR_CASES[name](tf)
        with tf.Session() as sess:
            try:
                sess.run(outputs)
            except tf.errors.OpError as error:
                return type(error).__name__, _kernel_message(error.message)
    raise AssertionError(f"{name}: no error")


# Graph-building errors: the builtin class and the message up to " for '{{node".
PYTHON_ERRORS = {
    "conv_1d_input": _conv(_X2[:, 0], _W2[0], [1, 1, 1], "VALID"),
    "conv_depth_not_multiple": _conv(_X2, _W2[:, :, :2], [1, 1, 1, 1], "VALID"),
    "conv_filter_rank": _conv(_X2, _W3, [1, 1, 1, 1], "VALID"),
    "conv_strides_length": _conv(_X2, _W2, [1, 1, 1], "VALID"),
    "quantized_conv2d_depth": _qconv(_Q_IN, _bytes(2, 2, 2, 1), (0.0, 1.0, 0.0, 1.0),
                                     [1, 1, 1, 1], "VALID"),
    "quantized_conv2d_min_rank": lambda tf: tf.nn.quantized_conv2d(
        tf.constant(_Q_IN, tf.quint8), tf.constant(_Q_W, tf.quint8), [0.0], 1.0, 0.0, 1.0,
        [1, 1, 1, 1], "VALID"),
    "box_proposals_anchors_rank": lambda tf: tf.image.generate_bounding_box_proposals(
        tf.zeros([1, 2, 2, 3]), tf.zeros([1, 2, 2, 12]), tf.zeros([1, 5]), tf.zeros([3, 4])),
    "quantized_max_pool_rank": lambda tf: tf.nn.quantized_max_pool(
        tf.constant(_Q_IN[0], tf.quint8), 0.0, 1.0, [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
}


def python_errors(tf):
    found = {}
    for name, build in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                build(tf)
            except (ValueError, TypeError) as error:
                kind = "TypeError" if isinstance(error, TypeError) else "ValueError"
                found[name] = [kind, str(error).split(" for '{{node")[0]]
            else:
                found[name] = None
    return found
