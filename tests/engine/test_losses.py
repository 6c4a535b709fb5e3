"""tf.losses, the tf.nn cross entropies, l2_loss and seeded dropout against TensorFlow: values,
gradients and node names (tests/fixtures/training/losses.* and dropout.*)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from training_cases import build_dropout_cases, build_loss_cases, run_named

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "training"


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.fixture(scope="module", params=["losses", "dropout"])
def ran(request):
    build = build_loss_cases if request.param == "losses" else build_dropout_cases
    values, nodes = run_named(tf, build)
    return request.param, values, nodes


def test_values_and_gradients_equal_tensorflows(ran):
    label, values, _ = ran
    expected = np.load(FIXTURES / f"{label}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        want, got = expected[key], np.asarray(values[_key(key)])
        assert got.shape == want.shape and got.dtype == want.dtype, key
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)


def test_node_names_equal_tensorflows(ran):
    label, _, nodes = ran
    assert nodes == json.loads((FIXTURES / f"{label}.json").read_text())["nodes"]


def test_losses_join_the_losses_collection_and_validate_reduction():
    with tf.Graph().as_default():
        loss = tf.losses.mean_squared_error([1.0, 2.0], [1.5, 2.5])
        assert tf.get_collection(tf.GraphKeys.LOSSES) == [loss]
        with pytest.raises(ValueError, match="Invalid Reduction Key bogus"):
            tf.losses.mean_squared_error([1.0], [1.0], reduction="bogus")


def test_dropout_rejects_bad_rates():
    with tf.Graph().as_default():
        x = tf.ones([2, 2])
        with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in "
                                             r"the range \[0, 1\). Received: rate=1.0"):
            tf.nn.dropout(x, rate=1.0)
        with pytest.raises(ValueError, match="`rate` must be provided"):
            tf.nn.dropout(x)
        assert tf.nn.dropout(x, rate=0.0) is x
