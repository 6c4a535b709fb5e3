"""Grouped convolutions (Conv2D whose input depth is a multiple of the filter's, as Keras's
Conv2D(groups=) makes), built the same way by real TensorFlow and the engine.

VALUE_CASES: name -> (x, filters, conv2d kwargs, with a bias and relu after it: the remapper's
_FusedConv2D in the engine, whose kernel takes groups too; TensorFlow's says "Fused conv
implementation does not support grouped convolutions for now", so its values are written with
its remapper off, as a Keras model computes them: the convolution in its own XLA function,
nothing fused across); ERROR_CASES: name -> (op, inputs, attrs), run through
placeholders of unknown shape so that only the kernel can fail.
tools/make_grouped_conv_fixtures.py writes TensorFlow's values and kernel messages to
tests/fixtures/ops/grouped_conv.npz; tests/engine/test_grouped_conv.py compares.
"""

import numpy as np


def _random(seed, shape, dtype=np.float32):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(dtype)


VALUE_CASES = {
    "two_groups_same": (_random(0, [2, 5, 5, 4]), _random(1, [3, 3, 2, 6]),
                        dict(strides=[1, 1, 1, 1], padding="SAME"), False),
    "four_groups_dilated": (_random(2, [1, 7, 7, 8]), _random(3, [2, 3, 2, 4]),
                            dict(strides=[1, 1, 1, 1], padding="VALID", dilations=[1, 2, 2, 1]),
                            False),
    "explicit_padding_float64": (_random(4, [1, 4, 5, 6], np.float64),
                                 _random(5, [2, 2, 3, 4], np.float64),
                                 dict(strides=[1, 2, 1, 1],
                                      padding=[[0, 0], [1, 0], [0, 2], [0, 0]]), False),
    "one_channel_a_group": (_random(6, [1, 4, 4, 3]), _random(7, [3, 3, 1, 6]),
                            dict(strides=[1, 2, 2, 1], padding="SAME"), False),
    "bias_relu_after": (_random(8, [2, 6, 6, 4]), _random(9, [3, 3, 2, 4]),
                        dict(strides=[1, 1, 1, 1], padding="SAME"), True),
}

_X = _random(10, [1, 4, 4, 4])
_DY = _random(11, [1, 4, 4, 6])
ERROR_CASES = {
    "output_depth_not_a_multiple": ("conv2d", (_X, _random(12, [2, 2, 2, 5])),
                                    dict(strides=[1, 1, 1, 1], padding="SAME")),
    "input_depth_not_a_multiple": ("conv2d", (_X, _random(13, [2, 2, 3, 6])),
                                   dict(strides=[1, 1, 1, 1], padding="SAME")),
    "grouped_backprop_input": ("conv2d_backprop_input",
                               (np.array([1, 4, 4, 4], np.int32), _random(14, [3, 3, 2, 6]), _DY),
                               dict(strides=[1, 1, 1, 1], padding="SAME")),
    "grouped_backprop_filter": ("conv2d_backprop_filter",
                                (_X, np.array([3, 3, 2, 6], np.int32), _DY),
                                dict(strides=[1, 1, 1, 1], padding="SAME")),
    "grouped_conv3d": ("conv3d", (_random(15, [1, 3, 3, 3, 4]), _random(16, [2, 2, 2, 2, 4])),
                       dict(strides=[1, 1, 1, 1, 1], padding="SAME")),
}


def run_value_case(tf, name, config=None):
    x_value, f_value, kwargs, bias_relu = VALUE_CASES[name]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(x_value.dtype), x_value.shape)
        f = tf.placeholder(tf.as_dtype(f_value.dtype), f_value.shape)
        y = tf.nn.conv2d(x, f, **kwargs)
        if bias_relu:
            y = tf.nn.relu(tf.nn.bias_add(y, tf.constant(
                _random(17, [f_value.shape[3]], x_value.dtype))))
        with tf.Session(config=config) as sess:
            return sess.run(y, {x: x_value, f: f_value})


def kernel_message(message):
    """The kernel's own words in a session's error message: the line after "Node: ..."."""
    lines = message.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1]


def run_error_case(tf, name):
    """(error class name, kernel message) of ERROR_CASES[name]."""
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
