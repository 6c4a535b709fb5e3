"""Control flow v1: tf.while_loop, tf.cond, tf.case build TF 2.21's graphs and compute its values.

Graphs are compared node for node with the GraphDefs TensorFlow 2.21 wrote for the seed
programs (tests/fixtures/graphs); values with what TensorFlow computed (the fixtures, and the
numbers in TF_VALUES, printed by TensorFlow 2.21 for the same graph-building code). Every
graph runs three ways: the compiled fast path (engine/runtime/frame_compiler.py), the frame loop
(engine/runtime/frames.py) and the traced frame loop, which must agree.
"""

import collections
import runpy
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.runtime import frames
from engine.proto import graph_pb2

REPO = Path(__file__).resolve().parents[2]


def _nodes(graph_def):
    return [(n.name, n.op, list(n.input), sorted((k, str(v)) for k, v in n.attr.items()))
            for n in graph_def.node]


@pytest.mark.parametrize("name", ["while_loop", "cond", "nested_while"])
def test_node_names_inputs_and_attrs_equal_tensorflows(name):
    program = runpy.run_path(str(REPO / "tests" / "programs" / f"{name}.py"), run_name="x")
    graph = tf.Graph()
    with graph.as_default():
        program["build"]()
    ours = graph.as_graph_def(include_debug_info=False)
    text = (REPO / "tests" / "fixtures" / "graphs" / f"{name}.pbtxt").read_text()
    theirs = text_format.Parse(text, graph_pb2.GraphDef())
    assert _nodes(ours) == _nodes(theirs)


def build_cases(x):
    """The graphs of TF_VALUES (the same code ran on TensorFlow 2.21)."""
    c = tf.case([(tf.less(x, 0), lambda: x * 10), (tf.equal(x, 0), lambda: x + 100)],
                default=lambda: x - 1)
    c2 = tf.case([(tf.less(x, 0), lambda: tf.constant(-1)),
                  (tf.greater_equal(x, 0), lambda: tf.constant(1))])
    loop_in_cond = tf.cond(x > 2, lambda: tf.while_loop(lambda i, s: i < x,
                                                        lambda i, s: (i + 1, s + i), [0, 0])[1],
                           lambda: x * 7)

    def body(i, s):
        return i + 1, s + tf.cond(tf.equal(i % 2, 0), lambda: i, lambda: -i)
    cond_in_loop = tf.while_loop(lambda i, s: i < x, body, [tf.constant(0), tf.constant(0)])[1]
    P = collections.namedtuple("P", "a b")
    mi = tf.while_loop(lambda i, p: i < 100, lambda i, p: (i + 1, P(p.a * 2, p.b + 1.0)),
                       (tf.constant(0), P(tf.constant(1), tf.constant(0.5))),
                       maximum_iterations=5)
    d = tf.while_loop(lambda s: s["k"] < x, lambda s: [{"k": s["k"] + 2, "v": s["v"] * 3}],
                      [{"k": tf.constant(0), "v": tf.constant(1)}])
    return {"c": c, "c2": c2, "loop_in_cond": loop_in_cond, "cond_in_loop": cond_in_loop,
            "mi0": mi[0], "mia": mi[1].a, "mib": mi[1].b, "dk": d[0]["k"], "dv": d[0]["v"]}


TF_VALUES = {  # TensorFlow 2.21 (tf.compat.v1, disable_v2_behavior), build_cases's code
    -3: {"c": -30, "c2": -1, "cond_in_loop": 0, "dk": 0, "dv": 1, "loop_in_cond": -21,
         "mi0": 5, "mia": 32, "mib": 5.5},
    0: {"c": 100, "c2": 1, "cond_in_loop": 0, "dk": 0, "dv": 1, "loop_in_cond": 0,
        "mi0": 5, "mia": 32, "mib": 5.5},
    5: {"c": 4, "c2": 1, "cond_in_loop": 2, "dk": 6, "dv": 27, "loop_in_cond": 10,
        "mi0": 5, "mia": 32, "mib": 5.5},
}

FULL_TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)


def run_three_ways(sess, fetches, feeds):
    fast = sess.run(fetches, feeds)
    traced = sess.run(fetches, feeds, options=FULL_TRACE, run_metadata=tf.RunMetadata())
    entry = next(e for e in sess._entries.values())
    return fast, traced, entry


@pytest.mark.parametrize("x", sorted(TF_VALUES))
def test_cases_loops_in_conds_and_conds_in_loops_compute_tensorflows_values(x):
    graph = tf.Graph()
    with graph.as_default():
        placeholder = tf.placeholder(tf.int32, [], name="x")
        fetches = build_cases(placeholder)
        with tf.Session() as sess:
            for name, tensor in fetches.items():
                fast = sess.run(tensor, {placeholder: x})
                traced = sess.run(tensor, {placeholder: x}, options=FULL_TRACE,
                                  run_metadata=tf.RunMetadata())
                assert fast == TF_VALUES[x][name], name
                assert traced == TF_VALUES[x][name], name


def test_frame_loop_and_compiled_path_agree_and_the_seed_loop_is_compiled():
    graph = tf.Graph()
    with graph.as_default():
        program = runpy.run_path(str(REPO / "tests" / "programs" / "while_loop.py"),
                                 run_name="x")
        g = program["build"]()
        with tf.Session() as sess:
            feeds = {g["a_in"]: np.zeros([10], np.float32)}
            i, a = sess.run([g["i"], g["a"]], feeds)
            (entry,) = sess._entries.values()
            assert entry.executor._compiled[0] is not None
            values = frames.run(entry.executor, [feeds[g["a_in"]]])
    assert i == 1000 and a.dtype == np.float32 and (a == 1000).all()
    fetched = [values[slot] for slot, _, _ in entry.executor._fetches]
    assert fetched[0] == 1000 and (fetched[1] == 1000).all()


def test_fetching_the_untaken_branch_fails_as_tensorflow_does():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        false_out, true_out = _switch(x, x > 0)
        with tf.Session() as sess:
            assert sess.run(true_out, {x: 2.0}) == 2.0
            for options in (None, FULL_TRACE):
                with pytest.raises(tf.errors.InvalidArgumentError,
                                   match=r"Retval\[0\] does not have value"):
                    sess.run(false_out, {x: 2.0}, options=options,
                             run_metadata=tf.RunMetadata() if options else None)


def _switch(data, pred):
    from engine.ops.control_flow.v1 import switch
    return switch(data, pred)


@pytest.mark.parametrize("traced", [False, True])
def test_a_runaway_loop_fails_naming_its_frame(monkeypatch, traced):
    monkeypatch.setenv("GI_MAX_LOOP_ITERATIONS", "50")
    graph = tf.Graph()
    with graph.as_default():
        i = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)], name="forever")
        with tf.Session() as sess:
            options = FULL_TRACE if traced else None
            with pytest.raises(tf.errors.ResourceExhaustedError,
                               match="Loop frame 'forever/while_context' ran more than 50 "
                                     "iterations .*GI_MAX_LOOP_ITERATIONS"):
                sess.run(i, options=options, run_metadata=tf.RunMetadata() if traced else None)


class Recorder:
    """An observer keeping (name, frame, iteration, dead, outputs) per node execution."""

    def __init__(self, replace=None):
        self.events, self.replace = [], replace or {}

    def source(self, now_ns):
        pass

    def node_scheduled(self, node, now_ns, info):
        pass

    def node_started(self, node, info):
        pass

    def op_started(self, node, inputs, info):
        pass

    def op_finished(self, node, info):
        pass

    def node_finished(self, node, outputs, info):
        self.events.append((node.name, info.frame, info.iteration, info.dead, outputs))
        if node.name in self.replace:
            return (self.replace[node.name],)
        return None


def _traced_seed_loop(observer, n=3):
    graph = tf.Graph()
    with graph.as_default():
        a_in = tf.placeholder(tf.float32, [2], name="a")
        i, a = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a + 1.0),
                             [tf.constant(0), a_in])
        with tf.Session() as sess:
            sess.run([i, a], {a_in: np.zeros(2, np.float32)})
            (entry,) = sess._entries.values()
            return entry.executor.run_traced([np.zeros(2, np.float32)], observer)


def test_observer_sees_frames_iterations_and_dead_nodes():
    recorder = Recorder()
    _traced_seed_loop(recorder)
    adds = [(frame, it, dead) for name, frame, it, dead, _ in recorder.events
            if name == "while/add"]
    assert adds == [("while/while_context", k, False) for k in range(3)] + \
        [("while/while_context", 3, True)]
    exits = [(it, dead) for name, frame, it, dead, _ in recorder.events if name == "while/Exit"]
    assert exits == [(0, True), (1, True), (2, True), (3, False)]
    top = {(frame, it) for name, frame, it, _, _ in recorder.events if name.startswith("_")}
    assert top == {("", 0)}
    dead_outputs = [outs for name, _, _, dead, outs in recorder.events if dead]
    assert all(all(v is None for v in outs) for outs in dead_outputs)


def test_node_finished_replacements_flow_downstream():
    recorder = Recorder(replace={"while/add_1": np.full(2, 10.0, np.float32)})
    i, a = _traced_seed_loop(recorder, n=3)
    assert i == 3 and (a == 10.0).all()  # every iteration's add_1 gave 10 downstream


def test_step_stats_record_every_iteration():
    graph = tf.Graph()
    with graph.as_default():
        i = tf.while_loop(lambda i: i < 4, lambda i: i + 1, [tf.constant(0)])
        with tf.Session() as sess:
            metadata = tf.RunMetadata()
            assert sess.run(i, options=FULL_TRACE, run_metadata=metadata) == 4
    names = [s.node_name for s in metadata.step_stats.dev_stats[0].node_stats]
    # TensorFlow 2.21 records the live executions only (a dead node does not run): add,
    # Identity and NextIteration 4 times, Switch 5 (its last run sends the value out), Exit once.
    counts = [names.count(f"while/{op}") for op in ("add", "Identity", "Exit", "NextIteration",
                                                    "Switch")]
    assert names[0] == "_SOURCE" and counts == [4, 4, 1, 4, 5]


def test_contexts_are_recorded_on_ops():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        i, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + x),
                             [tf.constant(0), tf.constant(0.0)])
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: -x)
    add = graph.get_operation_by_name("while/add")
    ctxt = add._get_control_flow_context()
    assert ctxt.IsWhileContext() and ctxt.name == "while/while_context"
    assert [t.name for t in ctxt.loop_enters] == ["while/Enter:0", "while/Enter_1:0"]
    assert [t.name for t in ctxt.loop_exits] == ["while/Exit:0", "while/Exit_1:0"]
    assert ctxt.pivot.name == "while/LoopCond:0" and ctxt.outer_context is None
    enter = graph.get_operation_by_name("while/add_1/Enter")
    assert enter.get_attr("is_constant") and enter.get_attr("frame_name") == b"while/while_context"
    mul = graph.get_operation_by_name("cond/mul")
    cond_ctxt = mul._get_control_flow_context()
    assert cond_ctxt.IsCondContext() and cond_ctxt.branch == 1
    assert cond_ctxt.pivot.name == "cond/switch_t:0" and cond_ctxt.pred.name == "cond/pred_id:0"
    assert graph.get_collection("while_context") == [ctxt]
    assert graph.get_operation_by_name("x")._get_control_flow_context() is None
    assert y.op.type == "Merge"
