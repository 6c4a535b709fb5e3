"""tf.nn's (and tf.random's) all, fixed-unigram and learned-unigram candidate samplers against
TensorFlow 2.21 (tf.compat.v1): three runs' draws from each node's Philox stream bit for bit
(tsl's DistributionSampler alias table, its ExactUniformInt, the learned sampler's weights
growing with the true classes), expected counts, static shapes, nodes and the kernels' errors
(tests/engine/candidate_sampler_cases.py; fixtures by
tools/make_candidate_sampler_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import candidate_sampler_cases as cases  # noqa: E402

TF = tf_fixture_set.load("candidate_samplers")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_draws_and_expected_counts_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if key == "sampled":
            np.testing.assert_array_equal(value, want, err_msg=key)
        else:
            # expected counts: TensorFlow's float32 expm1/log1p are glibc's, NumPy's its own
            np.testing.assert_allclose(value, want, rtol=2e-6, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(5)
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF.nodes[name]


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)
