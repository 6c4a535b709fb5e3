"""tf.train.ProximalAdagradOptimizer and AdagradDAOptimizer against TensorFlow 2.21
(tf.compat.v1): three steps' variables and slots (TensorFlow's slot names), dense and sparse
gradients on ref and resource variables (ApplyProximalAdagrad, SparseApplyProximalAdagrad,
ApplyAdagradDA, SparseApplyAdagradDA and their Resource forms), graphs node for node
(tests/engine/adagrad_variant_cases.py; fixtures by tools/make_adagrad_variant_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import adagrad_variant_cases as cases  # noqa: E402

TF = tf_fixture_set.load("adagrad_variants")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_steps_match_tensorflows(name):
    values, _ = cases.run_case(tf, name)
    assert set(values) == {key.split("__", 1)[1] for key in TF.values.files
                           if key.startswith(name + "__")}
    assert str(values.pop("slot_names")) == str(TF.values[f"{name}__slot_names"])
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        # Eigen's packet sqrt/rsqrt and fused expression order against NumPy's: float32
        # updates within 2e-6 relative over three steps.
        np.testing.assert_allclose(value, want, rtol=2e-6, atol=1e-7, err_msg=key)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


def test_accumulator_must_be_positive():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be"):
        tf.train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=0.0)
