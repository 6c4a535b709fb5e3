"""The stepping debugger's Python API (inspector.debug) on small engine graphs."""

import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import inspector.debug
from inspector.debug import DebugAborted, DebugStateError, DumpTooLarge, has_inf_or_nan

PROGRAMS = Path(__file__).resolve().parents[1] / "programs"


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()


def load_counter():
    spec = importlib.util.spec_from_file_location("counter_program", PROGRAMS / "counter.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def counter():
    graph = tf.Graph()
    with graph.as_default():
        pieces = load_counter().build()
    sess = tf.Session(graph=graph)
    sess.run(pieces["init"])
    yield sess, pieces
    sess.close()


def step_to_end(run):
    events = []
    while True:
        run.step()
        if run.finished:
            return events
        events.append((run.current, {t: run.value(t) for t in run.current.outputs}))


def test_stepping_the_counter_visits_nodes_in_topological_order_with_values(counter):
    sess, pieces = counter
    run = inspector.debug(sess).start_run(pieces["update"])
    assert run.state == "paused" and run.current is None
    assert set(run.frontier().ready) == {"Const", "counter"}
    events = step_to_end(run)
    names = [event.name for event, _ in events]
    assert sorted(names) == sorted(["Const", "counter", "counter/read", "Add", "Assign",
                                    "_retval_Assign_0_0"])
    position = {name: i for i, name in enumerate(names)}
    for event, _ in events:   # every input ran before its consumer
        for source in event.node.sources:
            assert position[source] < position[event.name], (source, event.name)
    values = {name: value for event, shown in events for name, value in shown.items()}
    assert values == {"Const:0": 1, "counter:0": 0, "counter/read:0": 0, "Add:0": 1,
                      "Assign:0": 1}
    assert all(len(event.summaries) == len(event.outputs) for event, _ in events)
    assert run.state == "done" and run.result() == 1
    assert sess.run(pieces["state"]) == 1


def test_each_node_names_the_line_that_created_it(counter):
    sess, pieces = counter
    run = inspector.debug(sess).start_run(pieces["update"])
    run.run_to("Add")
    assert run.current.name == "Add" and run.stop_reason == "reached Add"
    assert run.current.created_at.endswith("counter.py:10: new_value = tf.add(state, one)")
    run.finish()
    assert run.finished


def test_breakpoint_on_op_type_stops_there(counter):
    sess, pieces = counter
    dbg = inspector.debug(sess)
    run = dbg.start_run(pieces["update"])
    breakpoint = run.add_breakpoint(op="^Assign$")
    run.cont()
    assert run.current.op == "Assign" and run.current.name == "Assign"
    assert "breakpoint" in run.stop_reason and breakpoint.hits == 1
    run.toggle_breakpoint(breakpoint.number)
    assert run.rerun().state == "paused"     # the same Session.run again: the counter is 1
    run.cont()
    assert run.finished and run.result() == 2  # the first run made it 1, the rerun 2


def nan_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant([1.0, -4.0, 9.0], name="x")
        doubled = tf.multiply(x, 2.0, name="doubled")
        line = inspect.currentframe().f_lineno + 1
        logged = tf.log(doubled, name="logged")
        total = tf.reduce_sum(logged, name="total")
    return graph, total, line


def test_has_inf_or_nan_stops_at_the_first_nan_naming_node_and_line():
    graph, total, line = nan_graph()
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(total)
        run.add_breakpoint(predicate=has_inf_or_nan)
        run.cont()
        event = run.current
        assert (event.name, event.op) == ("logged", "Log")
        assert f"test_debug_run.py:{line}: logged = tf.log(doubled" in event.created_at
        assert "has_inf_or_nan" in run.stop_reason and "logged:0" in run.stop_reason
        assert np.isnan(run.value("logged:0")[1])
        run.cont()                              # total is NaN too: it stops again there
        assert run.current.name == "total"
        assert np.isnan(run.result())


def test_an_injected_value_changes_the_fetched_result():
    graph, total, _ = nan_graph()
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(total)
        run.run_to("doubled")
        np.testing.assert_allclose(run.value("doubled:0"), [2.0, -8.0, 18.0])
        run.inject("doubled:0", np.array([1.0, 1.0, np.e], np.float32))
        assert run.value("doubled:0")[2] == np.float32(np.e)
        assert run.result() == pytest.approx(1.0)
        assert np.isnan(sess.run(total))        # injection is per run


def test_inject_before_the_producer_runs_and_on_a_fetched_tensor():
    graph, total, _ = nan_graph()
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run([total, "logged:0"])
        run.inject("doubled:0", np.ones(3, np.float32))
        fetched_total, fetched_logged = run.result()
        assert fetched_total == 0.0 and list(fetched_logged) == [0.0, 0.0, 0.0]


def test_print_with_numpy_slicing_and_errors_that_say_why():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4), name="x")
        y = tf.multiply(x, 10.0, name="y")
        z = tf.reduce_sum(y, name="z")
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(z)
        with pytest.raises(KeyError, match="not computed yet"):
            run.value("y:0")
        run.run_to("y")
        np.testing.assert_array_equal(run.value("y:0[0:2, 1]"), [10.0, 50.0])
        np.testing.assert_array_equal(run.value("y[..., -1]"), [30.0, 70.0, 110.0])
        assert run.format("y:0[2, :2]") == "y:0[2, :2] = [80. 90.]"
        with pytest.raises(ValueError, match="bad index"):
            run.value("y:0[a]")
        with pytest.raises(KeyError, match="no tensor nope:0"):
            run.value("nope:0")
        run.finish()
        with pytest.raises(DebugStateError):
            run.step()


def chain_graph(length=8):
    graph = tf.Graph()
    with graph.as_default():
        value = tf.constant(np.ones(1000, np.float32), name="n0")
        for i in range(1, length):
            value = tf.add(value, 1.0, name=f"n{i}")
    return graph, value


def test_only_watched_current_and_frontier_tensors_are_kept():
    graph, last = chain_graph()
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(last)
        run.watch("n2:0")
        for _ in range(12):  # the constants and the chain, interleaved
            run.step()
            held = set(run.retained())
            assert held <= {"n2:0"} | set(run.current.outputs) | _frontier_inputs(run), held
        run.run_to("n7")
        assert "n2:0" in run.retained()          # watched: kept after its reader ran
        assert "n4:0" not in run.retained()      # done with: dropped
        with pytest.raises(KeyError, match="no longer held"):
            run.value("n4:0")
        assert [entry[1] for entry in run.watch_log] == ["n2:0"]
        run.finish()


def _frontier_inputs(run):
    frontier = run.frontier()
    tensors = set()
    for name in frontier.ready + [name for name, _ in frontier.waiting]:
        sources, _ = run.neighbours(name)
        tensors.update(f"{source}:0" for source in sources)
    return tensors


def test_dumps_write_npz_and_refuse_past_their_limit(tmp_path):
    graph, last = chain_graph(5)
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(last)
        run.run_to("n2")
        assert run.current.name == "n2" and run.node_status("n3") == "ready"
        with pytest.raises(DumpTooLarge, match="over the dump limit of 100 bytes"):
            run.dump(tmp_path / "small.npz", max_bytes=100)
        assert not (tmp_path / "small.npz").exists()
        run.dump(tmp_path / "held.npz")
        assert "n2:0" in np.load(tmp_path / "held.npz").files
        dumper = run.dump_all(tmp_path / "all", max_bytes=5000)
        run.finish()
        assert dumper.files == 1 and "dump stopped at node n4" in dumper.stopped  # 4000 B each
        assert [p.name for p in (tmp_path / "all").glob("*.npz")] == ["000008_n3.npz"]


def test_quit_stops_the_run_and_only_one_debugged_run_executes_at_once(counter):
    sess, pieces = counter
    dbg = inspector.debug(sess)
    run = dbg.start_run(pieces["update"])
    run.step()
    second = dbg.start_run(pieces["update"])
    assert second.state == "error" and "another debugged run" in str(second.error)
    run.quit()
    assert run.state == "aborted"
    with pytest.raises(DebugAborted):
        run.result()
    assert sess.run(pieces["state"]) == 0     # Assign never ran


def test_wrapper_session_run_hands_each_run_to_the_frontend(counter):
    sess, pieces = counter
    seen = []

    def frontend(run):
        seen.append(run.state)
        run.step(2)
        seen.append(run.current.name)

    dbg = inspector.debug.DebugWrapperSession(sess, frontend=frontend)
    assert dbg.run(pieces["update"]) == 1
    assert seen == ["paused", "counter"]
    assert dbg.graph is sess.graph            # everything else is the session's


def test_stepping_a_while_loop_shows_each_frame_and_iteration():
    if not hasattr(tf, "while_loop"):
        pytest.skip("needs the engine's control flow (tf.while_loop, frames in the executor)")
    graph = tf.Graph()
    with graph.as_default():
        i, total = tf.while_loop(lambda i, s: tf.less(i, 3),
                                 lambda i, s: (tf.add(i, 1, name="next_i"),
                                               tf.add(s, 10, name="next_s")),
                                 [tf.constant(0), tf.constant(0)])
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run([i, total])
        run.step(3)
        events = [run.current]
        while not run.finished:
            run.step()
            if not run.finished:
                events.append(run.current)
        adds = [(e.iteration, e.frame, run_value) for e in events if e.name.endswith("next_s")
                for run_value in e.summaries if not e.dead]
        assert [(it, frame) for it, frame, _ in adds] == [(0, "while/while_context"),
                                                          (1, "while/while_context"),
                                                          (2, "while/while_context")]
        assert [s for _, _, s in adds] == [f"int32[] min {v} max {v} mean {v}"
                                           for v in (10, 20, 30)]
        assert any(e.dead for e in events)                 # the last iteration's body is dead
        assert all(e.frame == "" for e in events if e.kind == "retval")
        assert run.result() == [3, 30]


def test_inject_inside_a_loop_carries_into_the_next_iterations():
    if not hasattr(tf, "while_loop"):
        pytest.skip("needs the engine's control flow (tf.while_loop, frames in the executor)")
    graph = tf.Graph()
    with graph.as_default():
        _, total = tf.while_loop(lambda i, s: tf.less(i, 3),
                                 lambda i, s: (tf.add(i, 1), tf.add(s, 10, name="next_s")),
                                 [tf.constant(0), tf.constant(0)])
    with tf.Session(graph=graph) as sess:
        run = inspector.debug(sess).start_run(total)
        run.add_breakpoint(name="next_s$")
        run.cont()
        assert run.current.where == "while/while_context iteration 0"
        run.inject(run.current.outputs[0], np.int32(100))
        run.breakpoints.clear()
        assert run.result() == 120
