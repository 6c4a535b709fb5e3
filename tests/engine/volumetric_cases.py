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


_X5 = _random(20, [1, 3, 3, 3, 2])
_F5 = _random(21, [2, 2, 2, 2, 1])
_SAME = dict(strides=[1] * 5, padding="SAME")
_POOL = dict(ksize=[1, 2, 2, 2, 1], strides=[1] * 5, padding="SAME")
ERROR_CASES = {
    "conv3d_depth": ("Conv3D", dict(input=_X5, filter=_random(22, [2, 2, 2, 3, 1])), _SAME),
    "conv3d_ncdhw": ("Conv3D", dict(input=np.transpose(_X5, (0, 4, 1, 2, 3)), filter=_F5),
                     dict(_SAME, data_format="NCDHW")),
    "conv3d_batch_stride": ("Conv3D", dict(input=_X5, filter=_F5),
                            dict(_SAME, strides=[2, 1, 1, 1, 1])),
    "conv3d_dilation": ("Conv3D", dict(input=_X5, filter=_F5),
                        dict(_SAME, dilations=[1, 2, 2, 2, 1])),
    "max_pool3d_ncdhw": ("MaxPool3D", dict(input=_X5),
                         dict(_POOL, ksize=[1, 1, 2, 2, 2], data_format="NCDHW")),
    "max_pool3d_batch_stride": ("MaxPool3D", dict(input=_X5),
                                dict(_POOL, strides=[2, 1, 1, 1, 1])),
    "avg_pool3d_depth_window": ("AvgPool3D", dict(input=_X5),
                                dict(_POOL, ksize=[1, 2, 2, 2, 2])),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)
