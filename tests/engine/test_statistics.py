"""reduce_variance, reduce_std, unsorted_segment_mean/sqrt_n, polyval, weighted_moments,
sufficient_statistics, normalize_moments and log_poisson_loss against TensorFlow 2.21
(tests/fixtures/mathops/statistics.json, tools/make_statistics_fixtures.py): values and a
gradient through them at float32 rtol 1e-6, and every node of the graph."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import statistics_cases as cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
                      / "statistics.json").read_text())


@pytest.fixture(scope="module")
def ran():
    return cases.run(tf)


def _numbers(entry):
    return np.array([float.fromhex(v) if v.startswith(("0x", "-0x")) else float(v)
                     for v in entry["values"]])


@pytest.mark.parametrize("key", sorted(FIXTURE["values"]))
def test_values_are_tensorflows(ran, key):
    got, want = ran["values"][key], FIXTURE["values"][key]
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
    np.testing.assert_allclose(_numbers(got), _numbers(want), rtol=1e-6, atol=1e-7)


def test_nodes_are_tensorflows(ran):
    assert ran["nodes"] == FIXTURE["nodes"]
