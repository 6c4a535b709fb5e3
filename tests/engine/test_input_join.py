"""tf.train.batch_join, shuffle_batch_join, maybe_batch, maybe_batch_join, maybe_shuffle_batch
and maybe_shuffle_batch_join against TensorFlow 2.21 (tf.compat.v1): the dequeued batches,
static shapes and graphs node for node (tests/engine/input_join_cases.py; fixtures by
tools/make_input_join_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import input_join_cases as cases  # noqa: E402

TF = tf_fixture_set.load("input_join")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_batches_match_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    assert set(values) == {key.split("__", 1)[1] for key in TF.values.files
                           if key.startswith(name + "__")}
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        if name in cases.POSSIBLE_ROWS:   # which rows come is the threads' or shuffle's choice
            assert value.dtype == want.dtype and value.shape[1:] == want.shape[1:], key
            assert {tuple(row) for row in value.tolist()} <= {
                tuple(row) for row in cases.POSSIBLE_ROWS[name][key]}, key
        else:
            assert value.dtype == want.dtype, key
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)



def test_join_lists_must_agree_in_type():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Expected types to be consistent: int32 vs. float32"):
            tf.train.batch_join([[tf.constant(1)], [tf.constant(1.0)]], 2)
