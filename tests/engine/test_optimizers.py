"""Each tf.train optimizer updates as TensorFlow's did, step for step, on ref and resource
variables: the loss before each step, the variables, the global step and the slots after
three steps (tests/fixtures/training/<case>.npz), and the graph's node names."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from training_cases import CASES, case_id, run_optimizer_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "training"
MANIFEST = json.loads((FIXTURES / "optimizers.json").read_text())


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.mark.parametrize("name,resource", CASES, ids=[case_id(*c) for c in CASES])
def test_optimizer_updates_equal_tensorflows(name, resource):
    values, info = run_optimizer_case(tf, name, resource)
    expected = np.load(FIXTURES / f"{case_id(name, resource)}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        want, got = expected[key], np.asarray(values[_key(key)])
        assert got.dtype == want.dtype, key
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, err_msg=key)
    assert info["slot_names"] == MANIFEST[case_id(name, resource)]["slot_names"]


@pytest.mark.parametrize("name,resource", CASES, ids=[case_id(*c) for c in CASES])
def test_optimizer_graph_has_tensorflows_node_names(name, resource):
    _, info = run_optimizer_case(tf, name, resource)
    assert info["nodes"] == MANIFEST[case_id(name, resource)]["nodes"]


def test_get_slot_and_global_step_helpers():
    with tf.Graph().as_default():
        assert tf.train.get_global_step() is None
        step = tf.train.get_or_create_global_step()
        assert step.op.name == "global_step" and step.dtype.base_dtype == tf.int64
        assert tf.train.get_or_create_global_step() is step
        with pytest.raises(ValueError, match='"global_step" already exists.'):
            tf.train.create_global_step()
        w = tf.Variable([1.0, 2.0], name="w")
        opt = tf.train.AdamOptimizer()
        opt.minimize(tf.reduce_sum(w * w))
        assert opt.get_slot_names() == ["m", "v"]
        assert opt.get_slot(w, "m").op.name == "w/Adam"
        assert opt.get_slot(w, "v").op.name == "w/Adam_1"
        assert opt.get_slot(w, "nope") is None


def test_no_gradients_raise():
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="w")
        tf.Variable(2.0, name="unused")
        with pytest.raises(ValueError, match="No gradients provided for any variable"):
            tf.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0) * 2.0,
                                                            var_list=[w])
