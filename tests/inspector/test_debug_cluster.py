"""Stepping a run on a cluster: every task's nodes, paused on their tasks, in one order.

The values are the engine's on Dask tasks (engine/cluster/relay.py carries the debugger's
questions); the ps program's are checked against TensorFlow's (tests/fixtures/cluster/
answers.json, written by tools/make_cluster_fixtures.py)."""

import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import inspector.debug
from engine.framework import errors
from inspector.debug import DebugAborted, DumpTooLarge, prompt
from inspector.debug.run import DebugRun

pytest.importorskip("distributed")

from engine.cluster import connection, local  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ANSWERS = json.loads((REPO / "tests" / "fixtures" / "cluster" / "answers.json").read_text())
sys.path.insert(0, str(REPO / "tests" / "programs"))

import ps_in_graph  # noqa: E402

pytestmark = pytest.mark.slow
PS = "/job:ps/replica:0/task:0/device:CPU:0"
WORKER = "/job:worker/replica:0/task:0/device:CPU:0"
from tests.cluster_cases import V, X, ps_worker_session  # noqa: E402
from tests.inspector.test_debug_devices import (  # noqa: E402
    order_checked, transfers, within)


@pytest.fixture(scope="module")
def cluster():
    """One in-process cluster (threads) for the module: Dask workers are slow to start."""
    with local.local_cluster({"ps": 1, "worker": 2}) as spec_cluster:
        yield spec_cluster


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()


@pytest.fixture
def two_tasks(cluster):
    """v lives on the ps, which scales it; the worker adds the fed x and sums."""
    with ps_worker_session(cluster.scheduler_address) as session:
        yield session


def start(sess, t):
    return inspector.debug(sess).start_run(t["total"], {t["x"]: X})


def expected_total():
    return float(np.sum(np.float32(3.0) * np.float32(V) + np.float32(X)))


def test_stepping_visits_each_tasks_nodes_once_in_dependency_order(two_tasks):
    sess, t = two_tasks
    run = start(sess, t)
    nodes = run.plan_nodes()
    assert {node.device for node in nodes.values()} == {PS, WORKER}
    events = []
    while not within(20, run.step).finished:
        events.append(run.current)
        assert run.state == "paused"
    names = [event.name for event in events]
    position = order_checked(names, nodes)
    assert {event.device for event in events} == {PS, WORKER}
    assert all(event.device == nodes[event.name].device for event in events)
    sends, recvs = transfers(nodes)
    crossing = [key for key in sends if key in recvs and
                nodes[sends[key]].device != nodes[recvs[key]].device]
    assert crossing, "no tensor crossed from the ps to the worker"
    for key in crossing:
        assert position[sends[key]] < position[recvs[key]]
    assert events[names.index("scaled")].summaries == ["float32[2] min 3 max 6 mean 4.5"]
    assert float(run.result()) == pytest.approx(expected_total()) == float(
        sess.run(t["total"], {t["x"]: X}))


def test_a_breakpoint_on_a_ps_op_stops_on_the_ps_and_its_value_came_from_there(two_tasks):
    sess, t = two_tasks
    run = start(sess, t)
    breakpoint = run.add_breakpoint(op="Mul")
    within(20, run.cont)
    assert run.current.name == "scaled" and run.current.device == PS
    assert f"breakpoint {breakpoint.number} (op~Mul)" in run.stop_reason
    np.testing.assert_array_equal(run.value("scaled:0"), np.float32(V) * np.float32(3.0))
    np.testing.assert_array_equal(run.value("scaled:0[1]"), np.float32(6.0))
    assert float(within(20, run.result)) == pytest.approx(expected_total())


def test_inject_on_the_ps_changes_what_the_worker_computes(two_tasks):
    sess, t = two_tasks
    run = start(sess, t)
    within(20, lambda: run.run_to("scaled"))
    run.inject("scaled:0", np.float32([10.0, 20.0]))
    assert float(within(20, run.result)) == pytest.approx(30.0 + sum(X))
    assert float(sess.run(t["total"], {t["x"]: X})) == pytest.approx(expected_total())


def test_value_past_the_limit_stays_on_its_task(two_tasks):
    sess, t = two_tasks
    run = DebugRun(sess, t["total"], {t["x"]: X})
    run.max_value_bytes = 4  # the scalar total crosses; the float32[2] tensors do not
    run.start()
    within(20, lambda: run.run_to("scaled"))
    assert run.current.summaries == ["float32[2] (8 bytes, left on /job:ps/task:0)"]
    with pytest.raises(DumpTooLarge, match="over the 4-byte limit"):
        run.value("scaled:0")
    assert "scaled:0 is float32[2] (8 bytes, left on /job:ps/task:0): over the 4-byte" in \
        prompt.describe(run)
    within(20, lambda: run.run_to("total"))
    assert float(run.value("total:0")) == pytest.approx(expected_total())
    assert float(within(20, run.result)) == pytest.approx(expected_total())


def test_quit_mid_run_releases_every_task(two_tasks):
    sess, t = two_tasks
    run = start(sess, t)
    within(20, lambda: run.run_to("scaled"))   # paused on the ps; the worker waits on it
    started = time.monotonic()
    within(20, run.quit)
    assert run.state == "aborted" and time.monotonic() - started < 5
    with pytest.raises(DebugAborted):
        run.result()
    assert float(within(20, lambda: sess.run(t["total"], {t["x"]: X}))) == \
        pytest.approx(expected_total())
    again = start(sess, t)
    assert float(within(20, again.result)) == pytest.approx(expected_total())


def test_a_training_step_stepped_across_three_tasks_gives_tensorflows_values(cluster):
    """The ps program's first step: its losses (computed on the two workers) held by the
    debugger and fetched are TensorFlow's, and the update stops on the ps."""
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            losses = [tower[2] for tower in g["towers"]]
            debugger = inspector.debug(sess)
            for loss in losses:  # kept past their last reader (the client's _Retval, a _Send)
                debugger.watch(loss.name)
            run = debugger.start_run([losses, g["train"]], ps_in_graph.feeds(g))
            run.add_breakpoint(op="ApplyGradientDescent")
            within(20, run.cont)
            assert run.current.device == PS and run.current.op == "ApplyGradientDescent"
            held = [float(run.value(loss.name)) for loss in losses]
            devices = {event.device for event in run.history}
            fetched, _ = within(20, run.result)
            w, b = sess.run([g["w"], g["b"]])
    their_losses, their_w, their_b = ANSWERS["in_graph"]["steps"][0]
    assert devices == {PS, WORKER, "/job:worker/replica:0/task:1/device:CPU:0"}
    np.testing.assert_allclose(held, their_losses, rtol=1e-6)
    np.testing.assert_array_equal(held, np.float32(fetched))
    np.testing.assert_allclose(w, their_w, rtol=1e-6)
    np.testing.assert_allclose(b, their_b, rtol=1e-6)


def _exit_process():
    import os
    os._exit(1)


def test_a_task_that_dies_while_paused_is_unavailable():
    """Worker processes: the ps dies while the run is paused on it. The run ends with
    UnavailableError naming the ps, as an undebugged run's would."""
    with local.local_cluster({"ps": 1, "worker": 1}, processes=True,
                             threads_per_task=1) as procs:
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                scaled = tf.multiply(tf.Variable(V, name="v"), 3.0, name="scaled")
            with tf.device("/job:worker/task:0"):
                total = tf.reduce_sum(scaled, name="total")
            with tf.Session(procs.scheduler_address) as sess:
                sess.run(tf.global_variables_initializer())
                run = inspector.debug(sess).start_run(total)
                within(20, lambda: run.run_to("scaled"))
                client = connection.client_for(procs.scheduler_address)
                ps = next(a for a, w in client.scheduler_info()["workers"].items()
                          if w["name"] == "/job:ps/task:0")
                client.run(_exit_process, workers=[ps], on_error="ignore")
                deadline = time.monotonic() + 20
                while not run.finished:
                    assert time.monotonic() < deadline, "the run still waits on a dead task"
                    time.sleep(0.1)
                with pytest.raises(errors.UnavailableError, match="/job:ps/task:0"):
                    run.result()
