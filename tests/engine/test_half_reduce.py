"""float16 Sum and Mean over innermost axes, Softmax and LogSoftmax against TensorFlow 2.21's
bits (tests/fixtures/ops/half_reduce.npz, tools/make_half_reduce_fixtures.py): Eigen's half
order (engine/kernels/cpu/eigen_reduce.py). NumPy's own float16 sum and a division by the
row's sum (what the kernels did) differed from TensorFlow in the last bit of about one value
in five; a Keras model under mixed_float16 runs such softmaxes."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "half_reduce.npz")
CASES = sorted(key.split("__", 1)[1] for key in FIXTURE.files if key.startswith("x__"))
# The axes each case's Sum and Mean reduce (tools/make_half_reduce_fixtures.py CASES).
AXES = {"inner_two_axes": [1, 2]}


@pytest.mark.parametrize("case", CASES)
def test_float16_reductions_and_softmaxes_are_tensorflows_bits(case):
    value = FIXTURE[f"x__{case}"]
    assert value.dtype == np.float16
    axes = AXES.get(case, [value.ndim - 1])
    with tf.Graph().as_default(), tf.Session() as session:
        x = tf.placeholder(tf.float16, value.shape)
        got = session.run({"sum": tf.reduce_sum(x, axes), "mean": tf.reduce_mean(x, axes),
                           "softmax": tf.nn.softmax(x), "log_softmax": tf.nn.log_softmax(x)},
                          {x: value})
    for op, result in got.items():
        want = FIXTURE[f"{op}__{case}"]
        assert result.dtype == np.float16 and result.shape == want.shape, op
        np.testing.assert_array_equal(result.view(np.uint16), want.view(np.uint16), err_msg=op)
