"""The TF 1.x streaming metrics beyond the basic ones (tf.metrics.mean_iou,
mean_per_class_accuracy, mean_relative_error, mean_cosine_distance, mean_tensor,
percentage_below, the *_at_thresholds counts and ratios, sensitivity_at_specificity,
specificity_at_sensitivity, the *_at_k and *_at_top_k metrics) against TensorFlow 2.21: values
after three update steps, local variable names, static shapes and graphs node for node
(tests/engine/metrics_cases.py; fixtures by tools/make_metrics_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import metrics_cases as cases  # noqa: E402

TF = tf_fixture_set.load("metrics_more")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_after_each_step_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)
