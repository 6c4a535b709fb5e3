"""Stepping a run over two logical CPUs: both partitions' nodes, _Send/_Recv, in one order."""

import threading

import numpy as np
import pytest

import engine as tf
import inspector.debug
from engine.framework.op_families import RECV, SEND
from inspector.debug.turns import transfer_key

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"
A = [1.0, 2.0]


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()


@pytest.fixture
def two_cpus():
    """b on CPU:0 goes to CPU:1 for c and d; d comes back to CPU:0 for e."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:0"):
            a = tf.placeholder(tf.float32, shape=[2], name="a")
            b = tf.multiply(a, 2.0, name="b")
        with tf.device("/cpu:1"):
            c = tf.add(b, 1.0, name="c")
            d = tf.multiply(c, c, name="d")
        with tf.device("/cpu:0"):
            e = tf.subtract(d, a, name="e")
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        yield sess, {"a": a, "e": e}


def within(seconds, action):
    """action() on a helper thread; fails (instead of hanging) if it does not return in time."""
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(action()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert outcome, f"no answer in {seconds} s: a deadlock, or a task left blocked?"
    return outcome[0]


def step_to_the_end(run):
    """NodeEvents one step at a time, with the value each step's first output had."""
    events = []
    while True:
        within(20, run.step)
        if run.finished:
            return events
        event = run.current
        first = event.outputs[0] if event.outputs and not event.dead else None
        events.append((event, run.value(first) if first else None))


def start(sess, t):
    return inspector.debug(sess).start_run(t["e"], {t["a"]: A})


def order_checked(names, nodes):
    """{node name: its step} once every planned node ran exactly once, after its inputs."""
    assert sorted(names) == sorted(nodes) and len(names) == len(set(names))
    position = {name: i for i, name in enumerate(names)}
    for name in names:
        for source in nodes[name].sources:
            assert position[source] < position[name], f"{name} ran before its input {source}"
    return position


def transfers(nodes):
    """({transfer key: _Send node}, {transfer key: _Recv node}) of a run's plan."""
    return ({transfer_key(n): name for name, n in nodes.items() if n.op_type in SEND},
            {transfer_key(n): name for name, n in nodes.items() if n.op_type in RECV})


def test_stepping_visits_every_node_of_both_partitions_once_in_dependency_order(two_cpus):
    sess, t = two_cpus
    run = start(sess, t)
    nodes = run.plan_nodes()
    assert {node.device for node in nodes.values()} == {CPU0, CPU1}
    events = step_to_the_end(run)
    position = order_checked([event.name for event, _ in events], nodes)
    sends, recvs = transfers(nodes)
    assert len(sends) == len(recvs) == 2 and sends.keys() == recvs.keys()
    for key, recv in recvs.items():
        assert position[sends[key]] < position[recv], f"{recv} before its _Send"
    for event, _ in events:  # every event names the device its partition runs on
        assert event.device == nodes[event.name].device
    assert {event.device for event, _ in events} == {CPU0, CPU1}
    values = {event.name: value for event, value in events}
    np.testing.assert_allclose(values["b"], [2.0, 4.0])
    np.testing.assert_allclose(values["c"], [3.0, 5.0])
    np.testing.assert_allclose(values["d"], [9.0, 25.0])
    np.testing.assert_allclose(values["e"], [8.0, 23.0])
    for key, recv in recvs.items():  # a _Recv gives what its _Send was given
        sent = nodes[sends[key]].sources[0]
        np.testing.assert_allclose(values[recv], values[sent])
    np.testing.assert_allclose(run.result(), [8.0, 23.0])


def test_the_order_is_the_same_every_run(two_cpus):
    sess, t = two_cpus
    orders = set()
    for _ in range(5):
        run = start(sess, t)
        orders.add(tuple((event.device, event.name) for event, _ in step_to_the_end(run)))
    assert len(orders) == 1
    (order,) = orders
    # The client's partition goes first and keeps the turn until it waits for CPU:1.
    devices = [device for device, _ in order]
    assert devices[0] == CPU0 and devices[-1] == CPU0 and CPU1 in devices


def test_an_injection_crosses_the_device_boundary_both_ways(two_cpus):
    sess, t = two_cpus
    run = start(sess, t)
    within(20, lambda: run.run_to("b"))
    assert run.current.device == CPU0
    run.inject("b:0", np.array([10.0, 10.0], np.float32))  # read by c on CPU:1
    np.testing.assert_allclose(within(20, run.result), [120.0, 119.0])

    run = start(sess, t)
    within(20, lambda: run.run_to("d"))
    assert run.current.device == CPU1
    run.inject("d:0", np.array([0.0, 0.0], np.float32))  # read by e on CPU:0
    np.testing.assert_allclose(within(20, run.result), [-1.0, -2.0])


def test_breakpoints_on_a_device_and_on_recv_stop_without_deadlock(two_cpus):
    sess, t = two_cpus
    run = start(sess, t)
    run.add_breakpoint(device="CPU:1")
    within(20, run.cont)
    assert run.state == "paused" and run.current.device == CPU1
    # CPU:1 got the turn only once CPU:0 waited in its _Recv of d, so b has been sent.
    assert run.current.name == "c/y" and run.node_status("b/_0") == "done"
    frontier = run.frontier()
    assert "d/_3" in frontier.running and ("c", ["b/_1"]) in frontier.waiting
    run.breakpoints.clear()
    run.add_breakpoint(op="_Recv")
    within(20, run.cont)  # CPU:1's _Recv of b
    assert (run.current.name, run.current.device) == ("b/_1", CPU1)
    within(20, run.cont)  # CPU:0's _Recv of d, which waited on CPU:1's _Send all along
    assert (run.current.name, run.current.device) == ("d/_3", CPU0)
    np.testing.assert_allclose(run.value(run.current.outputs[0]), [9.0, 25.0])
    np.testing.assert_allclose(within(20, run.result), [8.0, 23.0])


def test_quitting_a_run_paused_on_one_device_stops_both(two_cpus):
    sess, t = two_cpus
    run = start(sess, t)
    run.add_breakpoint(name="^c$")
    within(20, run.cont)
    assert run.current.name == "c"
    within(20, run.quit)
    assert run.state == "aborted"
    np.testing.assert_allclose(sess.run(t["e"], {t["a"]: A}), [8.0, 23.0])  # the session works


def test_a_host_value_injected_on_a_simulated_gpu_goes_to_the_device():
    from engine.kernels.cuda import backend
    with backend.simulated_gpus(1):
        graph = tf.Graph()
        with graph.as_default():
            a = tf.placeholder(tf.float32, shape=[2], name="a")
            with tf.device("/gpu:0"):
                b = tf.multiply(a, 2.0, name="b")
                c = tf.add(b, 1.0, name="c")
                d = tf.multiply(c, c, name="d")
            e = tf.subtract(d, a, name="e")
        config = tf.ConfigProto(device_count={"GPU": 1})
        with tf.Session(graph=graph, config=config) as sess:
            run = start(sess, {"a": a, "e": e})
            within(20, lambda: run.run_to("b"))
            assert run.current.device.endswith("/device:GPU:0")
            # A host array, as a person types it: c's GPU kernel must get it on the device.
            run.inject("b:0", np.array([10.0, 10.0], np.float32))
            np.testing.assert_allclose(within(20, run.result), [120.0, 119.0])
