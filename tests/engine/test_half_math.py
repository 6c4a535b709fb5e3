"""float16 Sum and Mean (over innermost axes, and over leading or middle ones: a
mixed_float16 GlobalAveragePooling2D, 90% of whose values were a bit off), Softmax,
LogSoftmax, DepthwiseConv2dNative, Sigmoid and Softplus against TensorFlow 2.21's bits
(tests/fixtures/ops/half_math.npz, tools/make_half_fixtures.py): Eigen's half order
(engine/kernels/cpu/eigen_reduce.py, nn_extra.py, math.py). NumPy's own float16
sum and a division by the row's sum (what the kernels did) had about one value in five a bit
off, a depthwise convolution's one rounding 45%; a Keras model under mixed_float16 (a
MobileNet's depthwise convolutions, a softmax) runs these."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "half_math.npz")
CASES = sorted(key.split("__", 1)[1] for key in FIXTURE.files if key.startswith("x__"))
DEPTHWISE = sorted(key.split("__", 1)[1] for key in FIXTURE.files
                   if key.startswith("depthwise__"))
# The depthwise cases' strides and padding (tools/make_half_fixtures.py DEPTHWISE_CASES).
DEPTHWISE_ARGS = {"valid_3x3": ([1, 1, 1, 1], "VALID"),
                  "same_stride2_multiplier2": ([1, 2, 2, 1], "SAME"),
                  "explicit_multiplier3": ([1, 1, 1, 1], [[0, 0], [1, 0], [2, 1], [0, 0]])}


def _assert_bits(result, want, what):
    assert result.dtype == np.float16 and result.shape == want.shape, what
    np.testing.assert_array_equal(result.view(np.uint16), want.view(np.uint16), err_msg=what)


@pytest.mark.parametrize("case", CASES)
def test_float16_reductions_and_softmaxes_are_tensorflows_bits(case):
    value = FIXTURE[f"x__{case}"]
    assert value.dtype == np.float16
    axes = FIXTURE[f"axes__{case}"].tolist()
    with tf.Graph().as_default(), tf.Session() as session:
        x = tf.placeholder(tf.float16, value.shape)
        got = session.run({"sum": tf.reduce_sum(x, axes), "mean": tf.reduce_mean(x, axes),
                           "softmax": tf.nn.softmax(x), "log_softmax": tf.nn.log_softmax(x)},
                          {x: value})
    for op, result in got.items():
        _assert_bits(result, FIXTURE[f"{op}__{case}"], op)


@pytest.mark.parametrize("case", DEPTHWISE)
def test_float16_depthwise_conv2d_is_tensorflows_bits(case):
    x_value, f_value = FIXTURE[f"dwx__{case}"], FIXTURE[f"dwf__{case}"]
    strides, padding = DEPTHWISE_ARGS[case]
    with tf.Graph().as_default(), tf.Session() as session:
        x = tf.placeholder(tf.float16, x_value.shape)
        f = tf.placeholder(tf.float16, f_value.shape)
        result = session.run(tf.nn.depthwise_conv2d_native(x, f, strides, padding),
                             {x: x_value, f: f_value})
    _assert_bits(result, FIXTURE[f"depthwise__{case}"], case)


def test_float16_sigmoid_and_softplus_are_tensorflows_bits():
    """Sigmoid is Eigen's e / (1 + e) in half (1 / (1 + exp(-x)) had 44% of values a bit
    off: swish, LSTM gates under mixed_float16); Softplus's thresholds are log(epsilon) + 2
    with Eigen's half epsilon, 2**-13 (NumPy's 2**-10 moved them from -7.0078 to -4.93)."""
    value = FIXTURE["act_x"]
    with tf.Graph().as_default(), tf.Session() as session:
        x = tf.placeholder(tf.float16, value.shape)
        got = session.run({"sigmoid": tf.sigmoid(x), "softplus": tf.nn.softplus(x)}, {x: value})
    for op, result in got.items():
        _assert_bits(result, FIXTURE[f"act__{op}"], op)
