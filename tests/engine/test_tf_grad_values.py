"""tf.gradients through the gradients of tests/engine/tf_grad_cases.py against TensorFlow's own
(tests/fixtures/ops/grad_values.npz, made by tools/make_grad_op_fixtures.py): the values of
d sum(f(inputs) * w) / d input in float64, which inputs get a gradient (None where TensorFlow
gives None), and the nodes tf.gradients adds, by name, op and inputs, as TensorFlow adds them.
A finite-difference check (tests/engine/test_gradients.py) cannot tell these apart: a gradient
sent to the wrong input of a symmetric formula, zeros where TensorFlow returns None.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.ops import gradient_registry
from tests.engine.tf_grad_cases import make_cases

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "ops" / "grad_values.npz"
DATA = np.load(FIXTURE, allow_pickle=False)
MANIFEST = json.loads(str(DATA["__manifest__"]))
CASES = make_cases(tf)


def _key(name):
    return name.replace(":", "__").replace("/", "--")


def _build(name):
    """The graph test_gradients._build makes, with the operations tf.gradients added."""
    case = CASES[name]
    fn, values = case[0], [np.asarray(v, np.float64) for v in case[1]]
    shapes = case[2] if len(case) > 2 else [v.shape for v in values]
    graph = tf.Graph()
    with graph.as_default():
        inputs = [tf.placeholder(tf.float64, shape=s, name=f"in{i}")
                  for i, s in enumerate(shapes)]
        out = fn(*inputs)
        weights = tf.placeholder(tf.float64, shape=out.shape, name="w")
        loss = tf.reduce_sum(out * weights)
        before = len(graph.get_operations())
        grads = tf.gradients(loss, inputs)
        added = graph.get_operations()[before:]
        grads = [None if g is None else tf.convert_to_tensor(g) for g in grads]
    return graph, inputs, values, weights, grads, added


def test_every_case_has_tensorflows_values():
    assert sorted(CASES) == sorted(MANIFEST)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_gradients_equal_tensorflows(name):
    graph, inputs, values, weights, grads, _ = _build(name)
    key = _key(name)
    for i, value in enumerate(values):  # the cases still make the values TensorFlow ran
        np.testing.assert_array_equal(value, DATA[f"{key}/in{i}"])
    assert [g is not None for g in grads] == MANIFEST[name]["grads"]
    with tf.Session(graph=graph) as sess:
        got = sess.run([g for g in grads if g is not None],
                       {**dict(zip(inputs, values)), weights: DATA[f"{key}/w"]})
    got = iter(got)
    for i, g in enumerate(grads):
        if g is not None:
            np.testing.assert_allclose(next(got), DATA[f"{key}/grad{i}"], rtol=1e-6,
                                       atol=1e-12, err_msg=f"{name}: gradient of in{i}")


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_gradient_nodes_are_tensorflows(name):
    added = _build(name)[-1]
    nodes = [[op.name, op.type, [t.name for t in op.inputs]
              + [f"^{c.name}" for c in op.control_inputs]] for op in added]
    assert nodes == MANIFEST[name]["nodes"]


def test_the_cases_reach_every_ported_gradient():
    ported = {"Erf", "Erfc", "Tan", "Asin", "Acos", "Atan", "Atan2", "Cumprod", "ClipByValue",
              "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad", "EluGrad", "SeluGrad",
              "LeakyReluGrad", "AvgPoolGrad", "BiasAddGrad", "Conv2DBackpropFilter",
              "MaxPoolGrad", "MaxPoolGradGrad", "MaxPoolV2", "MaxPoolGradV2", "Gather",
              "MirrorPad", "MirrorPadGrad", "StridedSliceGrad", "DynamicStitch",
              "ParallelDynamicStitch", "SegmentProd", "UnsortedSegmentProd"}
    reached = set()
    for name in CASES:
        graph = _build(name)[0]
        reached.update(op.type for op in graph.get_operations()
                       if not op.name.startswith("gradients"))
    assert ported - reached == set()
    assert all(gradient_registry.gradient_status(op) == gradient_registry.REGISTERED
               for op in ported)
