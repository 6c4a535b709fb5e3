"""tf.nn.conv3d, max_pool3d and avg_pool3d, built the same way by real TensorFlow and the
engine, in tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): values,
the gradient of the outputs' sum of squares with respect to x, and the second-order
gradients through the backprop ops. tools/make_volumetric_fixtures.py writes TensorFlow's to
tests/fixtures/volumetric/; tests/engine/test_volumetric_ops.py compares the engine's."""

import numpy as np

import image_cases


def _random(seed, shape, dtype=np.float32):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(dtype)


def _filter_grad(tf, x, f, **kwargs):
    """The conv3d, and the gradient of a cube of it with respect to the filter (which is
    a constant here: the gradient goes through Conv3DBackpropFilterV2's inputs)."""
    y = tf.nn.conv3d(x, f, **kwargs)
    return y, tf.gradients(tf.reduce_sum(y * y * y), [f])[0]


CASES = {
    "conv3d_same": (lambda tf, x: tf.nn.conv3d(x, _random(1, [2, 3, 2, 3, 4]),
                                               [1, 1, 1, 1, 1], "SAME"),
                    _random(0, [2, 4, 5, 4, 3]), True),
    "conv3d_valid_strided": (lambda tf, x: tf.nn.conv3d(x, _random(3, [2, 2, 3, 2, 3],
                                                                   np.float64),
                                                        [1, 2, 1, 2, 1], "VALID",
                                                        name="c3"),
                             _random(2, [1, 5, 4, 6, 2], np.float64), True),
    "conv3d_same_strided": (lambda tf, x: tf.nn.conv3d(x, _random(5, [3, 3, 3, 2, 2]),
                                                       strides=[1, 2, 2, 2, 1],
                                                       padding="SAME"),
                            _random(4, [2, 5, 6, 5, 2]), True),
    "conv3d_second_order": (lambda tf, x: _filter_grad(
                                tf, x, tf.constant(_random(7, [2, 2, 2, 2, 3],
                                                           np.float64)),
                                strides=[1, 1, 2, 1, 1], padding="SAME"),
                            _random(6, [1, 3, 4, 3, 2], np.float64), True),
    "max_pool3d_valid": (lambda tf, x: tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1],
                                                        "VALID"),
                         _random(8, [2, 4, 5, 4, 3]), True),
    "max_pool3d_same_overlap": (lambda tf, x: tf.nn.max_pool3d(x, 3, 2, "SAME",
                                                               name="pool"),
                                _random(9, [1, 5, 4, 5, 2]), True),
    # Strided: at stride 1 (the pooled shape the input's) TensorFlow's session gave zeros
    # for this MaxPool3DGradGrad where the kernel alone, on the same values, gives the
    # gradients (it seems to take over its gradient input's buffer and clear it first).
    "max_pool3d_second_order": (lambda tf, x: tf.gradients(
                                    tf.reduce_sum(tf.square(tf.nn.max_pool3d(
                                        x, [1, 2, 2, 2, 1], [1, 2, 1, 2, 1], "SAME"))),
                                    [x])[0], _random(10, [1, 3, 4, 3, 2]),
                                True),
    "avg_pool3d_valid": (lambda tf, x: tf.nn.avg_pool3d(x, [1, 2, 2, 2, 1],
                                                        [1, 2, 2, 2, 1], "VALID"),
                         _random(11, [2, 4, 5, 4, 3]), True),
    "avg_pool3d_same_overlap": (lambda tf, x: tf.nn.avg_pool3d(x, [1, 3, 2, 3, 1],
                                                               [1, 2, 1, 2, 1], "SAME"),
                                _random(12, [1, 5, 4, 5, 2]), True),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})
