"""tf.Assert and tf.case's run-time checks, as TensorFlow 2.21 builds and runs them.

TF_CASE_NODES and TF_CASE_EXCLUSIVE_NODES are (name, op, inputs) of every node TensorFlow
2.21 (tf.compat.v1, disable_v2_behavior) built for `build_case` below; the messages are the
ones its session raised for the same code and feeds.
"""

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu.asserts import summarize_value


def build_case(exclusive):
    a = tf.placeholder(tf.bool, [], name="a")
    b = tf.placeholder(tf.bool, [], name="b")
    r = tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2))], exclusive=exclusive)
    return a, b, r


TF_CASE_NODES = [
    ('a', 'Placeholder', []),
    ('b', 'Placeholder', []),
    ('case/cond/Switch', 'Switch', ['a', 'a']),
    ('case/cond/switch_t', 'Identity', ['case/cond/Switch:1']),
    ('case/cond/switch_f', 'Identity', ['case/cond/Switch']),
    ('case/cond/pred_id', 'Identity', ['a']),
    ('case/cond/Const', 'Const', ['^case/cond/switch_t']),
    ('case/cond/preds_c', 'Pack', ['case/cond/preds_c/Switch', 'case/cond/preds_c/Switch_1']),
    ('case/cond/preds_c/Switch', 'Switch', ['a', 'case/cond/pred_id']),
    ('case/cond/preds_c/Switch_1', 'Switch', ['b', 'case/cond/pred_id']),
    ('case/cond/preds_c_1', 'Pack', ['case/cond/preds_c/Switch']),
    ('case/cond/Cast', 'Cast', ['case/cond/preds_c_1']),
    ('case/cond/Const_1', 'Const', ['^case/cond/switch_f']),
    ('case/cond/num_true_conds', 'Sum', ['case/cond/Cast', 'case/cond/Const_1']),
    ('case/cond/n_true_conds', 'Const', ['^case/cond/switch_f']),
    ('case/cond/LessEqual', 'LessEqual', ['case/cond/num_true_conds', 'case/cond/n_true_conds']),
    ('case/cond/Assert/Const', 'Const', ['^case/cond/switch_f']),
    ('case/cond/Assert/AssertGuard/Switch', 'Switch', ['case/cond/LessEqual', 'case/cond/LessEqual']),
    ('case/cond/Assert/AssertGuard/switch_t', 'Identity', ['case/cond/Assert/AssertGuard/Switch:1']),
    ('case/cond/Assert/AssertGuard/switch_f', 'Identity', ['case/cond/Assert/AssertGuard/Switch']),
    ('case/cond/Assert/AssertGuard/pred_id', 'Identity', ['case/cond/LessEqual']),
    ('case/cond/Assert/AssertGuard/NoOp', 'NoOp', ['^case/cond/Assert/AssertGuard/switch_t']),
    ('case/cond/Assert/AssertGuard/control_dependency', 'Identity', ['case/cond/Assert/AssertGuard/switch_t', '^case/cond/Assert/AssertGuard/NoOp']),
    ('case/cond/Assert/AssertGuard/Assert/data_0', 'Const', ['^case/cond/Assert/AssertGuard/switch_f']),
    ('case/cond/Assert/AssertGuard/Assert', 'Assert', ['case/cond/Assert/AssertGuard/Assert/Switch', 'case/cond/Assert/AssertGuard/Assert/data_0', 'case/cond/Assert/AssertGuard/Assert/Switch_1']),
    ('case/cond/Assert/AssertGuard/Assert/Switch', 'Switch', ['case/cond/LessEqual', 'case/cond/Assert/AssertGuard/pred_id']),
    ('case/cond/Assert/AssertGuard/Assert/Switch_1', 'Switch', ['case/cond/preds_c_1', 'case/cond/Assert/AssertGuard/pred_id']),
    ('case/cond/Assert/AssertGuard/control_dependency_1', 'Identity', ['case/cond/Assert/AssertGuard/switch_f', '^case/cond/Assert/AssertGuard/Assert']),
    ('case/cond/Assert/AssertGuard/Merge', 'Merge', ['case/cond/Assert/AssertGuard/control_dependency_1', 'case/cond/Assert/AssertGuard/control_dependency']),
    ('case/cond/Assert_1/Const', 'Const', ['^case/cond/switch_f']),
    ('case/cond/Assert_1/AssertGuard/Switch', 'Switch', ['case/cond/preds_c/Switch_1', 'case/cond/preds_c/Switch_1']),
    ('case/cond/Assert_1/AssertGuard/switch_t', 'Identity', ['case/cond/Assert_1/AssertGuard/Switch:1']),
    ('case/cond/Assert_1/AssertGuard/switch_f', 'Identity', ['case/cond/Assert_1/AssertGuard/Switch']),
    ('case/cond/Assert_1/AssertGuard/pred_id', 'Identity', ['case/cond/preds_c/Switch_1']),
    ('case/cond/Assert_1/AssertGuard/NoOp', 'NoOp', ['^case/cond/Assert_1/AssertGuard/switch_t']),
    ('case/cond/Assert_1/AssertGuard/control_dependency', 'Identity', ['case/cond/Assert_1/AssertGuard/switch_t', '^case/cond/Assert_1/AssertGuard/NoOp']),
    ('case/cond/Assert_1/AssertGuard/Assert/data_0', 'Const', ['^case/cond/Assert_1/AssertGuard/switch_f']),
    ('case/cond/Assert_1/AssertGuard/Assert', 'Assert', ['case/cond/Assert_1/AssertGuard/Assert/Switch', 'case/cond/Assert_1/AssertGuard/Assert/data_0', 'case/cond/Assert_1/AssertGuard/Assert/Switch_1']),
    ('case/cond/Assert_1/AssertGuard/Assert/Switch', 'Switch', ['case/cond/preds_c/Switch_1', 'case/cond/Assert_1/AssertGuard/pred_id']),
    ('case/cond/Assert_1/AssertGuard/Assert/Switch_1', 'Switch', ['case/cond/preds_c', 'case/cond/Assert_1/AssertGuard/pred_id']),
    ('case/cond/Assert_1/AssertGuard/control_dependency_1', 'Identity', ['case/cond/Assert_1/AssertGuard/switch_f', '^case/cond/Assert_1/AssertGuard/Assert']),
    ('case/cond/Assert_1/AssertGuard/Merge', 'Merge', ['case/cond/Assert_1/AssertGuard/control_dependency_1', 'case/cond/Assert_1/AssertGuard/control_dependency']),
    ('case/cond/Const_2', 'Const', ['^case/cond/Assert/AssertGuard/Merge', '^case/cond/Assert_1/AssertGuard/Merge']),
    ('case/cond/Merge', 'Merge', ['case/cond/Const_2', 'case/cond/Const']),
]

TF_CASE_EXCLUSIVE_NODES = [
    ('a', 'Placeholder', []),
    ('b', 'Placeholder', []),
    ('case/preds_c', 'Pack', ['a']),
    ('case/Cast', 'Cast', ['case/preds_c']),
    ('case/Const', 'Const', []),
    ('case/num_true_conds', 'Sum', ['case/Cast', 'case/Const']),
    ('case/n_true_conds', 'Const', []),
    ('case/LessEqual', 'LessEqual', ['case/num_true_conds', 'case/n_true_conds']),
    ('case/Assert/Const', 'Const', []),
    ('case/Assert/AssertGuard/Switch', 'Switch', ['case/LessEqual', 'case/LessEqual']),
    ('case/Assert/AssertGuard/switch_t', 'Identity', ['case/Assert/AssertGuard/Switch:1']),
    ('case/Assert/AssertGuard/switch_f', 'Identity', ['case/Assert/AssertGuard/Switch']),
    ('case/Assert/AssertGuard/pred_id', 'Identity', ['case/LessEqual']),
    ('case/Assert/AssertGuard/NoOp', 'NoOp', ['^case/Assert/AssertGuard/switch_t']),
    ('case/Assert/AssertGuard/control_dependency', 'Identity', ['case/Assert/AssertGuard/switch_t', '^case/Assert/AssertGuard/NoOp']),
    ('case/Assert/AssertGuard/Assert/data_0', 'Const', ['^case/Assert/AssertGuard/switch_f']),
    ('case/Assert/AssertGuard/Assert', 'Assert', ['case/Assert/AssertGuard/Assert/Switch', 'case/Assert/AssertGuard/Assert/data_0', 'case/Assert/AssertGuard/Assert/Switch_1']),
    ('case/Assert/AssertGuard/Assert/Switch', 'Switch', ['case/LessEqual', 'case/Assert/AssertGuard/pred_id']),
    ('case/Assert/AssertGuard/Assert/Switch_1', 'Switch', ['case/preds_c', 'case/Assert/AssertGuard/pred_id']),
    ('case/Assert/AssertGuard/control_dependency_1', 'Identity', ['case/Assert/AssertGuard/switch_f', '^case/Assert/AssertGuard/Assert']),
    ('case/Assert/AssertGuard/Merge', 'Merge', ['case/Assert/AssertGuard/control_dependency_1', 'case/Assert/AssertGuard/control_dependency']),
    ('case/cond/Switch', 'Switch', ['a', 'a', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/switch_t', 'Identity', ['case/cond/Switch:1']),
    ('case/cond/switch_f', 'Identity', ['case/cond/Switch']),
    ('case/cond/pred_id', 'Identity', ['a', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/Const', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/switch_t']),
    ('case/cond/preds_c', 'Pack', ['case/cond/preds_c/Switch', 'case/cond/preds_c/Switch_1', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/preds_c/Switch', 'Switch', ['a', 'case/cond/pred_id']),
    ('case/cond/preds_c/Switch_1', 'Switch', ['b', 'case/cond/pred_id']),
    ('case/cond/preds_c_1', 'Pack', ['case/cond/preds_c/Switch', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/Cast', 'Cast', ['case/cond/preds_c_1']),
    ('case/cond/Const_1', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/switch_f']),
    ('case/cond/num_true_conds', 'Sum', ['case/cond/Cast', 'case/cond/Const_1']),
    ('case/cond/n_true_conds', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/switch_f']),
    ('case/cond/LessEqual', 'LessEqual', ['case/cond/num_true_conds', 'case/cond/n_true_conds']),
    ('case/cond/Assert/Const', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/switch_f']),
    ('case/cond/Assert/AssertGuard/Switch', 'Switch', ['case/cond/LessEqual', 'case/cond/LessEqual']),
    ('case/cond/Assert/AssertGuard/switch_t', 'Identity', ['case/cond/Assert/AssertGuard/Switch:1']),
    ('case/cond/Assert/AssertGuard/switch_f', 'Identity', ['case/cond/Assert/AssertGuard/Switch']),
    ('case/cond/Assert/AssertGuard/pred_id', 'Identity', ['case/cond/LessEqual']),
    ('case/cond/Assert/AssertGuard/NoOp', 'NoOp', ['^case/Assert/AssertGuard/Merge', '^case/cond/Assert/AssertGuard/switch_t']),
    ('case/cond/Assert/AssertGuard/control_dependency', 'Identity', ['case/cond/Assert/AssertGuard/switch_t', '^case/cond/Assert/AssertGuard/NoOp']),
    ('case/cond/Assert/AssertGuard/Assert/data_0', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/Assert/AssertGuard/switch_f']),
    ('case/cond/Assert/AssertGuard/Assert', 'Assert', ['case/cond/Assert/AssertGuard/Assert/Switch', 'case/cond/Assert/AssertGuard/Assert/data_0', 'case/cond/Assert/AssertGuard/Assert/Switch_1']),
    ('case/cond/Assert/AssertGuard/Assert/Switch', 'Switch', ['case/cond/LessEqual', 'case/cond/Assert/AssertGuard/pred_id']),
    ('case/cond/Assert/AssertGuard/Assert/Switch_1', 'Switch', ['case/cond/preds_c_1', 'case/cond/Assert/AssertGuard/pred_id']),
    ('case/cond/Assert/AssertGuard/control_dependency_1', 'Identity', ['case/cond/Assert/AssertGuard/switch_f', '^case/cond/Assert/AssertGuard/Assert']),
    ('case/cond/Assert/AssertGuard/Merge', 'Merge', ['case/cond/Assert/AssertGuard/control_dependency_1', 'case/cond/Assert/AssertGuard/control_dependency']),
    ('case/cond/Assert_1/Const', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/switch_f']),
    ('case/cond/Assert_1/AssertGuard/Switch', 'Switch', ['case/cond/preds_c/Switch_1', 'case/cond/preds_c/Switch_1', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/Assert_1/AssertGuard/switch_t', 'Identity', ['case/cond/Assert_1/AssertGuard/Switch:1']),
    ('case/cond/Assert_1/AssertGuard/switch_f', 'Identity', ['case/cond/Assert_1/AssertGuard/Switch']),
    ('case/cond/Assert_1/AssertGuard/pred_id', 'Identity', ['case/cond/preds_c/Switch_1', '^case/Assert/AssertGuard/Merge']),
    ('case/cond/Assert_1/AssertGuard/NoOp', 'NoOp', ['^case/Assert/AssertGuard/Merge', '^case/cond/Assert_1/AssertGuard/switch_t']),
    ('case/cond/Assert_1/AssertGuard/control_dependency', 'Identity', ['case/cond/Assert_1/AssertGuard/switch_t', '^case/cond/Assert_1/AssertGuard/NoOp']),
    ('case/cond/Assert_1/AssertGuard/Assert/data_0', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/Assert_1/AssertGuard/switch_f']),
    ('case/cond/Assert_1/AssertGuard/Assert', 'Assert', ['case/cond/Assert_1/AssertGuard/Assert/Switch', 'case/cond/Assert_1/AssertGuard/Assert/data_0', 'case/cond/Assert_1/AssertGuard/Assert/Switch_1']),
    ('case/cond/Assert_1/AssertGuard/Assert/Switch', 'Switch', ['case/cond/preds_c/Switch_1', 'case/cond/Assert_1/AssertGuard/pred_id']),
    ('case/cond/Assert_1/AssertGuard/Assert/Switch_1', 'Switch', ['case/cond/preds_c', 'case/cond/Assert_1/AssertGuard/pred_id']),
    ('case/cond/Assert_1/AssertGuard/control_dependency_1', 'Identity', ['case/cond/Assert_1/AssertGuard/switch_f', '^case/cond/Assert_1/AssertGuard/Assert']),
    ('case/cond/Assert_1/AssertGuard/Merge', 'Merge', ['case/cond/Assert_1/AssertGuard/control_dependency_1', 'case/cond/Assert_1/AssertGuard/control_dependency']),
    ('case/cond/Const_2', 'Const', ['^case/Assert/AssertGuard/Merge', '^case/cond/Assert/AssertGuard/Merge', '^case/cond/Assert_1/AssertGuard/Merge']),
    ('case/cond/Merge', 'Merge', ['case/cond/Const_2', 'case/cond/Const']),
]

NONE_TRUE = "assertion failed: [Input error: None of conditions evaluated as True:] [0 0]"


def _nodes(graph):
    return [(n.name, n.op, list(n.input)) for n in graph.as_graph_def().node]


def _assertion(message):
    """The kernel's own line of a session error message."""
    return [line for line in message.split("\n") if line.startswith("assertion failed")][0]


@pytest.mark.parametrize("exclusive, expected", [(False, TF_CASE_NODES),
                                                 (True, TF_CASE_EXCLUSIVE_NODES)])
def test_case_without_default_builds_tensorflows_checks(exclusive, expected):
    graph = tf.Graph()
    with graph.as_default():
        _, _, r = build_case(exclusive)
    assert r.name == "case/cond/Merge:0"
    assert _nodes(graph) == expected


@pytest.mark.parametrize("exclusive", [False, True])
def test_case_runs_and_asserts_as_tensorflow(exclusive):
    graph = tf.Graph()
    with graph.as_default():
        a, b, r = build_case(exclusive)
        with tf.Session() as sess:
            # TensorFlow's values; (True, True) passes even with exclusive=True: with two pairs
            # and no default only the first predicate is in the exclusivity check.
            for feed, value in [((True, False), 1), ((False, True), 2), ((True, True), 1)]:
                assert sess.run(r, {a: feed[0], b: feed[1]}) == value
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(r, {a: False, b: False})
    error = info.value
    assert _assertion(error.message) == NONE_TRUE
    assert error.node_def.name == "case/cond/Assert_1/AssertGuard/Assert"
    assert "\t [[{{node case/cond/Assert_1/AssertGuard/Assert}}]]" in error.message


def test_case_exclusive_violation():
    graph = tf.Graph()
    with graph.as_default():
        a, b, c = (tf.placeholder(tf.bool, [], name=n) for n in "abc")
        r = tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2)),
                     (c, lambda: tf.constant(3))], exclusive=True)
        d = tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2))],
                    default=lambda: tf.constant(3), exclusive=True, name="with_default")
        with tf.Session() as sess:
            for feed, value in [((False, True, True), 2), ((True, False, True), 1),
                                ((False, False, True), 3)]:
                assert sess.run(r, dict(zip((a, b, c), feed))) == value
            assert sess.run(d, {a: False, b: False}) == 3
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(r, {a: True, b: True, c: False})
            assert _assertion(info.value.message) == (
                "assertion failed: [Input error: exclusive=True: more than 1 conditions "
                "(a:0, b:0) evaluated as True:] [1 1]")
            assert info.value.node_def.name == "case/Assert/AssertGuard/Assert"
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(d, {a: True, b: True})
            assert _assertion(info.value.message) == (
                "assertion failed: [Input error: exclusive=True: more than 1 conditions "
                "(a:0, b:0) evaluated as True:] [1 1]")
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(r, {a: False, b: False, c: False})
            assert _assertion(info.value.message) == (
                "assertion failed: [Input error: None of conditions evaluated as True:] [0 0 0]")
            assert info.value.node_def.name == "case/cond/cond/Assert_1/AssertGuard/Assert"


def test_assert_graph_as_tensorflow():
    # Recorded from TensorFlow 2.21 for this code: string/int32 data build the Assert directly,
    # other dtypes inside an AssertGuard cond.
    graph = tf.Graph()
    with graph.as_default():
        t = tf.constant([1, 2, 3, 4, 5])
        op = tf.Assert(tf.constant(False), ["msg", t], name="chk")
        x = tf.constant([1.0])
        guarded = tf.Assert(False, [x], name="g")
    assert op.name == "chk/Assert" and op.type == "Assert"
    assert guarded.name == "g/AssertGuard/Merge"
    assert op.get_attr("summarize") == 3
    assert _nodes(graph) == [
        ("Const", "Const", []), ("Const_1", "Const", []), ("chk/Const", "Const", []),
        ("chk/Assert/data_0", "Const", []),
        ("chk/Assert", "Assert", ["Const_1", "chk/Assert/data_0", "Const"]),
        ("Const_2", "Const", []), ("g/Condition", "Const", []),
        ("g/AssertGuard/Switch", "Switch", ["g/Condition", "g/Condition"]),
        ("g/AssertGuard/switch_t", "Identity", ["g/AssertGuard/Switch:1"]),
        ("g/AssertGuard/switch_f", "Identity", ["g/AssertGuard/Switch"]),
        ("g/AssertGuard/pred_id", "Identity", ["g/Condition"]),
        ("g/AssertGuard/NoOp", "NoOp", ["^g/AssertGuard/switch_t"]),
        ("g/AssertGuard/control_dependency", "Identity",
         ["g/AssertGuard/switch_t", "^g/AssertGuard/NoOp"]),
        ("g/AssertGuard/Assert", "Assert", ["g/AssertGuard/Assert/Switch",
                                            "g/AssertGuard/Assert/Switch_1"]),
        ("g/AssertGuard/Assert/Switch", "Switch", ["g/Condition", "g/AssertGuard/pred_id"]),
        ("g/AssertGuard/Assert/Switch_1", "Switch", ["Const_2", "g/AssertGuard/pred_id"]),
        ("g/AssertGuard/control_dependency_1", "Identity",
         ["g/AssertGuard/switch_f", "^g/AssertGuard/Assert"]),
        ("g/AssertGuard/Merge", "Merge", ["g/AssertGuard/control_dependency_1",
                                          "g/AssertGuard/control_dependency"]),
    ]


# TensorFlow 2.21's messages for tf.Assert(False, data, summarize) run in a session.
TF_ASSERT_MESSAGES = [
    (lambda: ["msg", tf.constant([1, 2, 3, 4, 5])], None, "[msg] [1 2 3...]"),
    (lambda: ["msg", tf.constant([1, 2, 3, 4, 5])], 2, "[msg] [1 2...]"),
    (lambda: ["msg", tf.constant([1, 2, 3, 4, 5])], 0, "[...] [...]"),
    (lambda: ["msg", tf.constant([1, 2, 3, 4, 5])], -1, "[msg] [1 2 3 4 5]"),
    (lambda: [tf.constant([[1, 2], [3, 4]])], None, "[[1 2][3...]...]"),
    (lambda: [tf.constant([[1, 2], [3, 4]])], 10, "[[1 2][3 4]]"),
    (lambda: [tf.constant(np.arange(12).reshape(2, 3, 2))], 5, "[[[0 1][2 3][4...]]...]"),
    (lambda: [tf.constant(np.arange(12).reshape(2, 3, 2))], 100,
     "[[[0 1][2 3][4 5]][[6 7][8 9][10 11]]]"),
    (lambda: [tf.constant([1.0, 2.5, 1e-7, 1 / 3, 1e20, float("nan"), float("inf")])], 10,
     "[1 2.5 1e-07 0.333333343 1e+20 nan inf]"),
    (lambda: [tf.constant([1.0, 2.5, 1 / 3, 123456789.123], tf.float64)], 10,
     "[1 2.5 0.33333333333333331 123456789.123]"),
    (lambda: [tf.constant([1.0, 1 / 3], tf.float16)], 10, "[1 0.333251953]"),
    (lambda: [tf.constant([-np.nan, -np.inf, -0.0, 1e-5, 123456.7, 1234567.0])], 10,
     "[-nan -inf -0 1e-05 123456.703 1234567]"),
    (lambda: [tf.constant(7), tf.constant(2.0), tf.constant(True)], None, "[7] [2] [1]"),
    (lambda: [tf.constant(7)], 0, "[...]"),
    (lambda: [tf.constant([True, False])], None, "[1 0]"),
    (lambda: [tf.constant(["ab", "cd", "e"])], None, "[ab cd e]"),
    (lambda: [tf.constant(["q\"'\\\t\r", "é\x7f\x01"])], 10, "[q\\\"\\'\\\\\\t\\r é\\177\\001]"),
    (lambda: [tf.constant(b"a\x00b\n")], None, "[a\\000b\\n]"),
    (lambda: [tf.constant([], tf.int32)], None, "[]"),
    (lambda: [tf.zeros([0, 3])], None, "[]"),
    (lambda: [tf.constant([1, -2], tf.int64), tf.constant([3], tf.uint8),
              tf.constant([-4], tf.int8)], None, "[1 -2] [3] [-4]"),
    (lambda: [tf.constant([2 ** 64 - 1], tf.uint64), tf.constant([-5], tf.int16)], None,
     "[18446744073709551615] [-5]"),
    (lambda: [tf.constant([1 + 2j], tf.complex64)], None, "[?]"),
    (lambda: [tf.constant([[5]])], None, "[[5]]"),
]


@pytest.mark.parametrize("make_data, summarize, expected", TF_ASSERT_MESSAGES)
def test_assert_message_and_summarize(make_data, summarize, expected):
    graph = tf.Graph()
    with graph.as_default():
        op = tf.Assert(tf.constant(False), make_data(), summarize=summarize, name="chk")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(op)
    assert _assertion(info.value.message) == "assertion failed: " + expected
    assert info.value.node_def.name in ("chk/Assert", "chk/AssertGuard/Assert")


def test_assert_true_is_a_no_op():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        check = tf.Assert(tf.reduce_all(x > 0), ["x must be positive:", x], summarize=2)
        with tf.control_dependencies([check]):
            y = tf.identity(x * 2)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0, 3.0]}), [2.0, 4.0, 6.0])
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(y, {x: [1.0, -2.0, 3.0]})
    assert _assertion(info.value.message) == (
        "assertion failed: [x must be positive:] [1 -2...]")


def test_summarize_value_direct():
    assert summarize_value(np.arange(6).reshape(2, 3), tf.int32, 4) == "[0 1 2][3...]..."
    assert summarize_value(np.array([1 + 2j, 3j]), tf.complex128, 1) == "?..."
