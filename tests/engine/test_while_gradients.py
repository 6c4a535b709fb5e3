"""Gradients through tf.while_loop (v1) against TensorFlow 2.21 and finite differences.

The cases (tests/engine/while_grad_cases.py) cover a scalar power loop, a loop over a matmul,
nested loops, maximum_iterations, an unused loop variable, a cond inside a loop, unknown
shapes and the seed's 1000-iteration loop; tests/fixtures/while_grad/ holds TensorFlow's
values (tools/make_while_grad_fixtures.py). Every case runs on the compiled fast path and on
the traced frame loop; the simple loop's gradient graph equals TensorFlow's node for node.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "while_grad"
sys.path.insert(0, str(Path(__file__).resolve().parent))

import while_grad_cases as cases  # noqa: E402

TF_VALUES = np.load(FIXTURES / "values.npz")
FULL_TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
EPS = 1e-6


def _numeric_gradient(sess, loss, inputs, values, index):
    value = values[index]
    grad = np.zeros_like(value)
    for j in range(value.size):
        plus, minus = value.copy(), value.copy()
        plus.reshape(-1)[j] += EPS
        minus.reshape(-1)[j] -= EPS
        up = sess.run(loss, {**dict(zip(inputs, values)), inputs[index]: plus})
        down = sess.run(loss, {**dict(zip(inputs, values)), inputs[index]: minus})
        grad.reshape(-1)[j] = (up - down) / (2 * EPS)
    return grad


@pytest.mark.parametrize("name", list(cases.CASES))
def test_gradients_equal_tensorflows_and_finite_differences(name):
    values = cases.CASES[name][1]
    with tf.Graph().as_default():
        inputs, loss, grads = cases.build_case(tf, name)
        feed = dict(zip(inputs, values))
        with tf.Session() as sess:
            fast = sess.run([loss] + grads, feed)
            traced = sess.run([loss] + grads, feed, options=FULL_TRACE,
                              run_metadata=tf.RunMetadata())
            compiled = [e.executor._compiled for e in sess._entries.values()]
            numeric = [_numeric_gradient(sess, loss, inputs, values, i)
                       for i in range(len(inputs))] if name != "seed_loop" else None
    assert any(c is not None and c[0] is not None for c in compiled), "not compiled"
    for got in (fast, traced):
        np.testing.assert_allclose(got[0], TF_VALUES[f"{name}__loss"], rtol=1e-10)
        for i, grad in enumerate(got[1:]):
            np.testing.assert_allclose(grad, TF_VALUES[f"{name}__grad{i}"], rtol=1e-9,
                                       atol=1e-12, err_msg=f"{name}: grad{i}")
    for symbolic, approx in zip(fast[1:], numeric or ()):
        np.testing.assert_allclose(symbolic, approx, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_gradient_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == json.loads((FIXTURES / "nodes.json").read_text())[name]


def _nodes(graph_def):
    return [(n.name, n.op, list(n.input), {k: v.SerializeToString(deterministic=True)
                                          for k, v in n.attr.items() if k != "value"})
            for n in graph_def.node]


def test_simple_loop_gradient_graph_equals_tensorflows():
    from google.protobuf import text_format
    theirs = text_format.Parse((FIXTURES / "simple.pbtxt").read_text(), tf.GraphDef())
    expected = json.loads((FIXTURES / "simple.json").read_text())
    graph = tf.Graph()
    with graph.as_default():
        x, y, grad = cases.build_simple(tf)
        with tf.Session() as sess:
            assert sess.run([y, grad], {x: expected["x"]}) == [expected["y"], expected["grad"]]
    ours = graph.as_graph_def(include_debug_info=False)
    assert [n[0] for n in _nodes(ours)] == [n[0] for n in _nodes(theirs)]
    for a, b in zip(_nodes(ours), _nodes(theirs)):
        assert a == b, a[0]
    ops = {n.op for n in ours.node}
    assert {"StackV2", "StackPushV2", "StackPopV2", "ControlTrigger"} <= ops


def test_stack_pops_in_reverse_and_errors_name_the_stack():
    from engine.ops import data_flow_ops
    with tf.Graph().as_default():
        stack = data_flow_ops.stack_v2(max_size=2, elem_type=tf.float32, stack_name="s")
        pushes = [data_flow_ops.stack_push_v2(stack, tf.constant(float(i))) for i in range(3)]
        pop = data_flow_ops.stack_pop_v2(stack, tf.float32)
        assert stack.shape == tf.TensorShape([2]) and pop.shape.ndims is None  # as TF's
        assert pushes[0].shape == tf.TensorShape([])
        with tf.Session() as sess:
            with tf.control_dependencies(pushes[:2]):
                first = tf.identity(data_flow_ops.stack_pop_v2(stack, tf.float32))
            with tf.control_dependencies([first]):
                second = data_flow_ops.stack_pop_v2(stack, tf.float32)
            assert sess.run([first, second]) == [1.0, 0.0]
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Stack\[s_\d+\] is empty"):
                sess.run(pop)
            with tf.control_dependencies(pushes[:2]):
                third = data_flow_ops.stack_push_v2(stack, tf.constant(3.0))
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Stack\[s_\d+\] overflowed its max_size \(2\)"):
                sess.run(third)


def test_back_prop_false_gives_no_gradient_as_tensorflow():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        y = tf.while_loop(lambda v: v < 10.0, lambda v: v * x, [x], back_prop=False)
        assert tf.gradients(y, x) == [None]
