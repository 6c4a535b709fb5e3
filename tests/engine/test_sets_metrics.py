"""tf.sets and tf.metrics.auc against TensorFlow 2.21 (tests/fixtures/mathops/sets_metrics.json,
tools/make_sets_metrics_fixtures.py). Set results exactly. AUC's values and update ops at float32
rtol 1e-6: they are sums (weighted counts over a batch, products over 200 thresholds) that
TensorFlow adds in Eigen's order and the engine in NumPy's; measured, 2 of the 12 numbers (the
weighted PR curve's updates) differ, by 1 ulp; the local variables are TensorFlow's."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import sets_metrics_cases as cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
                      / "sets_metrics.json").read_text())


def test_set_operations_are_tensorflows():
    got = cases.run_sets(tf)
    assert sorted(got) == sorted(FIXTURE["sets"])
    for key, want in FIXTURE["sets"].items():
        assert got[key] == want, key


def _floats(entry):
    return np.array([float.fromhex(v) if v.startswith(("0x", "-0x")) else float(v)
                     for v in entry["values"]], np.float32)


def test_auc_updates_and_values_are_tensorflows():
    got = cases.run_auc(tf)
    want = FIXTURE["auc"]
    assert sorted(got) == sorted(want)
    assert got["local_variables"] == want["local_variables"]
    for key in want:
        if key == "local_variables":
            continue
        assert got[key]["dtype"] == want[key]["dtype"] and got[key]["shape"] == want[key]["shape"]
        np.testing.assert_allclose(_floats(got[key]), _floats(want[key]), rtol=1e-6, err_msg=key)


def test_classification_metrics_are_tensorflows():
    """precision, recall, the condition counts and the mean errors: every update and value at
    float32 rtol 1e-6, the local variables and the metric ops' node names TensorFlow's."""
    got = cases.run_classification(tf)
    want = FIXTURE["classification"]
    assert sorted(got) == sorted(want)
    assert got["local_variables"] == want["local_variables"]
    assert got["nodes"] == want["nodes"]
    for key in want:
        if key in ("local_variables", "nodes"):
            continue
        assert got[key]["dtype"] == want[key]["dtype"] and got[key]["shape"] == want[key]["shape"]
        np.testing.assert_allclose(_floats(got[key]), _floats(want[key]), rtol=1e-6, err_msg=key)


def test_auc_refuses_an_unknown_curve_as_tensorflow_does():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Curve must be either ROC or PR"):
            tf.metrics.auc([1, 0], [0.5, 0.2], curve="XY")
