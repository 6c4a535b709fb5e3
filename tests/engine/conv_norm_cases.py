"""tf.nn.depthwise_conv2d and tf.nn.lrn, built the same way by real TensorFlow and the engine.

Each case is `(build(tf, x, f) -> output or tuple of outputs, x, f)`: x and f are
placeholders of the arrays' dtype and shape (f None where the case has no filter).
`build_case` differentiates the sum of squares of the outputs with respect to x and f;
tools/make_conv_norm_fixtures.py writes TensorFlow's values and graphs to
tests/fixtures/conv_norm/, and the kernel errors in ERROR_CASES; tests/engine/
test_conv_norm_ops.py compares the engine's with them.
"""

import numpy as np


def _random(seed, shape, dtype=np.float32):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(dtype)


def dw_same(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME")


def dw_valid_stride2(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID", name="dw")


def dw_strides_same(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, strides=[1, 3, 3, 1], padding="SAME", rate=[1, 1])


def dw_explicit_padding(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], [[0, 0], [1, 2], [0, 1], [0, 0]])


def dw_native(tf, x, f):
    return tf.nn.depthwise_conv2d_native(x, f, [1, 1, 1, 1], "VALID")


def dw_second_order(tf, x, f):
    # The backprops' own gradients: differentiate the first gradients once more.
    y = tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME")
    dx, df = tf.gradients(tf.reduce_sum(y * y * y), [x, f])
    return dx, df


def dw_rate_same(tf, x, f):
    # TensorFlow dilates through SpaceToBatchND / BatchToSpaceND around a VALID convolution.
    return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", rate=[2, 3])


def dw_rate_valid(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID", rate=[2, 2], name="atrous")


def dw_rate_explicit(tf, x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], [[0, 0], [2, 1], [0, 3], [0, 0]],
                                  dilations=[3, 2])


def dw_rate_unknown_size(tf, x, f):
    # a spatial shape unknown while building: the paddings computed in the graph from Shape
    x = tf.placeholder_with_default(x, [None, None, None, 3])
    return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", rate=[2, 2])


def space_batch_round_trip(tf, x, f):
    blocks = tf.space_to_batch_nd(x, [2, 2], [[1, 0], [0, 1]])
    return blocks, tf.batch_to_space_nd(blocks * 2.0, [2, 2], [[1, 0], [0, 1]])


def lrn_default(tf, x, f):
    return tf.nn.lrn(x)


def lrn_params(tf, x, f):
    return tf.nn.lrn(x, depth_radius=2, bias=2.0, alpha=0.1, beta=0.75)


def lrn_beta_one(tf, x, f):
    return tf.nn.local_response_normalization(x, 1, 0.5, 0.3, 1.0, name="norm")


def lrn_wide_radius(tf, x, f):
    return tf.nn.lrn(x * 3.0, depth_radius=10, alpha=0.05)


def lrn_half(tf, x, f):
    return tf.nn.lrn(x, depth_radius=3, bias=1.5, alpha=0.2, beta=0.6)


def lrn_then_conv(tf, x, f):
    return tf.nn.depthwise_conv2d(tf.nn.lrn(x, depth_radius=1), f, [1, 1, 1, 1], "SAME")


CASES = {
    "dw_same": (dw_same, _random(0, [2, 5, 5, 3]), _random(1, [3, 3, 3, 2])),
    "dw_valid_stride2": (dw_valid_stride2, _random(2, [1, 7, 6, 2], np.float64),
                         _random(3, [2, 3, 2, 3], np.float64)),
    "dw_strides_same": (dw_strides_same, _random(4, [2, 6, 7, 4]),
                          _random(5, [3, 2, 4, 1])),
    "dw_explicit_padding": (dw_explicit_padding, _random(6, [1, 4, 5, 2], np.float64),
                            _random(7, [2, 2, 2, 2], np.float64)),
    "dw_native": (dw_native, _random(8, [3, 4, 4, 2]), _random(9, [2, 2, 2, 1])),
    "dw_second_order": (dw_second_order, _random(10, [1, 5, 6, 2], np.float64),
                        _random(11, [3, 3, 2, 2], np.float64)),
    "dw_rate_same": (dw_rate_same, _random(23, [2, 7, 6, 3]), _random(24, [3, 2, 3, 2])),
    "dw_rate_valid": (dw_rate_valid, _random(25, [1, 9, 8, 2], np.float64),
                      _random(26, [2, 3, 2, 1], np.float64)),
    "dw_rate_explicit": (dw_rate_explicit, _random(27, [1, 6, 5, 2], np.float64),
                         _random(28, [2, 2, 2, 2], np.float64)),
    "dw_rate_unknown_size": (dw_rate_unknown_size, _random(30, [2, 7, 6, 3]),
                             _random(31, [3, 2, 3, 2])),
    "space_batch_round_trip": (space_batch_round_trip, _random(29, [2, 5, 3, 2]), None),
    "lrn_default": (lrn_default, _random(12, [2, 3, 4, 7]), None),
    "lrn_params": (lrn_params, _random(13, [2, 2, 3, 9]), None),
    "lrn_beta_one": (lrn_beta_one, _random(14, [1, 3, 3, 5]), None),
    "lrn_wide_radius": (lrn_wide_radius, _random(15, [2, 2, 2, 6]), None),
    "lrn_half": (lrn_half, _random(16, [1, 2, 3, 8], np.float16), None),
    "lrn_then_conv": (lrn_then_conv, _random(17, [1, 4, 4, 3]), _random(18, [2, 2, 3, 2])),
}


def build_case(tf, name):
    """(feed dict, outputs, loss, gradients w.r.t. x and f) in the default graph."""
    build, x_value, f_value = CASES[name]
    x = tf.placeholder(tf.as_dtype(x_value.dtype), x_value.shape, name="x")
    inputs, feed = [x], {x: x_value}
    f = None
    if f_value is not None:
        f = tf.placeholder(tf.as_dtype(f_value.dtype), f_value.shape, name="f")
        inputs.append(f)
        feed[f] = f_value
    outputs = build(tf, x, f)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    loss = tf.add_n([tf.reduce_sum(out * out) for out in outputs])
    return feed, outputs, loss, tf.gradients(loss, inputs)


def run_case(tf, name):
    """{"out<i>", "loss", "grad<j>"} and the outputs' static shapes."""
    with tf.Graph().as_default():
        feed, outputs, loss, grads = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run([outputs, loss, grads], feed)
        shapes = [out.shape.as_list() for out in outputs]
    values = {f"out{i}": v for i, v in enumerate(fetched[0])}
    values["loss"] = fetched[1]
    values.update({f"grad{j}": v for j, v in enumerate(fetched[2])})
    return values, shapes


# Kernels that fail at run time: (op, inputs, attrs); the message is TensorFlow's.
_X = _random(20, [1, 4, 4, 2])
_F = _random(21, [2, 2, 2, 1])
_DW = dict(strides=[1, 1, 1, 1], padding="SAME")
ERROR_CASES = {
    "dw_nchw": ("depthwise_conv2d_native", (np.transpose(_X, (0, 3, 1, 2)), _F),
                dict(_DW, data_format="NCHW")),
    "dw_dilations": ("depthwise_conv2d_native", (_X, _F), dict(_DW, dilations=[1, 2, 2, 1])),
    "dw_uneven_strides": ("depthwise_conv2d_native", (_X, _F), dict(_DW, strides=[1, 1, 2, 1])),
    "dw_batch_stride": ("depthwise_conv2d_native", (_X, _F), dict(_DW, strides=[2, 1, 1, 1])),
    "dw_depth_mismatch": ("depthwise_conv2d_native", (_X, _random(22, [2, 2, 3, 1])), _DW),
}


def kernel_message(message):
    """The kernel's own words in a session's error message: the line after "Node: ..."."""
    lines = message.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1]


def run_error_case(tf, name):
    """The error (class name, kernel message) running ERROR_CASES[name] gives; the inputs are
    fed through placeholders of unknown shape so that only the kernel can fail."""
    op, values, attrs = ERROR_CASES[name]
    with tf.Graph().as_default():
        feeds = [tf.placeholder(tf.as_dtype(v.dtype), None) for v in values]
        out = getattr(tf.nn, op)(*feeds, **attrs)
        with tf.Session() as sess:
            try:
                sess.run(out, dict(zip(feeds, values)))
            except tf.errors.OpError as error:
                return type(error).__name__, kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
