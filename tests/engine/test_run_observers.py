"""Observing Session.run through run observer factories (engine/runtime/observers.py)."""

import threading
import weakref

import numpy as np
import pytest

import engine as tf
from engine.runtime.executor import Executor
from engine.runtime.session import observe_runs

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


class Recorder:
    """A factory whose observers log (device, callback, node name) and the thread they ran on."""

    def __init__(self, replace=None):
        self.calls, self.log, self.done, self.replace = [], [], [], replace or {}
        self.lock = threading.Lock()

    def __call__(self, device, step_id, plan):
        self.calls.append((device, step_id, {node.name for node in plan.nodes}))
        self.log.append(("factory", device, None))
        return _Observer(self, device)


class _Observer:
    def __init__(self, recorder, device):
        self.recorder, self.device = recorder, device

    def _note(self, what, name=None):
        with self.recorder.lock:
            self.recorder.log.append((what, self.device, name))

    def source(self, now_ns):
        self._note("source")

    def node_scheduled(self, node, now_ns, info=None):
        pass

    def node_started(self, node, info=None):
        self._note("started", node.name)

    def op_started(self, node, inputs, info=None):
        pass

    def op_finished(self, node, info=None):
        pass

    def node_finished(self, node, outputs, info=None):
        self._note("finished", node.name)
        replacement = self.recorder.replace.get(node.name)
        return (replacement,) if replacement is not None else None

    def executor_done(self, error):
        self.recorder.done.append((self.device, threading.get_ident(), error))


@pytest.fixture
def single():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=[], name="x")
        y = tf.multiply(x, 3.0, name="y")
    with tf.Session(graph=graph) as sess:
        yield sess, x, y


@pytest.fixture
def two_cpus():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:0"):
            a = tf.placeholder(tf.float32, shape=[2], name="a")
            product = tf.multiply(a, 2.0, name="product")
        with tf.device("/cpu:1"):
            total = tf.reduce_sum(product, name="total")
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        yield sess, a, total


def test_observe_runs_observes_every_node_of_runs_on_this_thread(single):
    sess, x, y = single
    recorder = Recorder()
    with observe_runs(recorder):
        assert sess.run(y, {x: 2.0}) == 6.0
    assert [(device, names >= {"_arg_x_0_0", "y"}) for device, _, names in recorder.calls] == \
        [(CPU0, True)]
    finished = [name for what, _, name in recorder.log if what == "finished"]
    assert finished.index("_arg_x_0_0") < finished.index("y") < finished.index("_retval_y_0_0")
    assert recorder.log[1] == ("source", CPU0, None)
    assert [(device, error) for device, _, error in recorder.done] == [(CPU0, None)]
    sess.run(y, {x: 2.0})  # outside the block: not observed
    assert len(recorder.calls) == 1


def test_no_observer_keeps_the_fast_path(single, monkeypatch):
    sess, x, y = single
    traced = []
    original = Executor.run_traced
    monkeypatch.setattr(Executor, "run_traced",
                        lambda self, *args: traced.append(1) or original(self, *args))
    sess.run(y, {x: 1.0})
    assert traced == []
    with observe_runs(lambda device, step_id, plan: None):  # a factory that declines
        sess.run(y, {x: 1.0})
    assert traced == []
    with observe_runs(Recorder()):
        sess.run(y, {x: 1.0})
    assert traced == [1]


def test_a_replacement_from_node_finished_is_what_the_run_fetches(single):
    sess, x, y = single
    with observe_runs(Recorder(replace={"y": np.float32(-1.0)})):
        assert sess.run(y, {x: 2.0}) == -1.0
    assert sess.run(y, {x: 2.0}) == 6.0


def test_observe_runs_is_per_thread(single):
    sess, x, y = single
    recorder, results = Recorder(), []
    with observe_runs(recorder):
        worker = threading.Thread(target=lambda: results.append(sess.run(y, {x: 1.0})))
        worker.start()
        worker.join()
    assert results == [3.0] and recorder.calls == []


def test_a_session_observer_sees_runs_on_every_thread_until_removed(single):
    sess, x, y = single
    recorder = Recorder()
    sess._add_run_observer(recorder)
    worker = threading.Thread(target=lambda: sess.run(y, {x: 1.0}))
    worker.start()
    worker.join()
    sess.run(y, {x: 1.0})
    sess._remove_run_observer(recorder)
    sess.run(y, {x: 1.0})
    assert len(recorder.calls) == 2


def test_every_partition_gets_an_observer_before_any_executor_runs(two_cpus):
    sess, a, total = two_cpus
    recorder = Recorder()
    with observe_runs(recorder):
        assert sess.run(total, {a: [1.0, 2.0]}) == 6.0
    assert [device for device, _, _ in recorder.calls] == [CPU0, CPU1]  # the client's first
    assert recorder.log[:2] == [("factory", CPU0, None), ("factory", CPU1, None)]
    ops = {device: names for device, _, names in recorder.calls}
    assert {"_arg_a_0_0", "product", "product/_0"} <= ops[CPU0]
    assert {"product/_1", "total", "total/_2"} <= ops[CPU1]
    finished = [(device, name) for what, device, name in recorder.log if what == "finished"]
    assert {name for _, name in finished} == ops[CPU0] | ops[CPU1]
    threads = {device: thread for device, thread, _ in recorder.done}
    assert set(threads) == {CPU0, CPU1}
    assert threads[CPU0] == threading.get_ident() != threads[CPU1]  # on each executor's thread


def test_a_failing_executor_tells_its_observer():
    graph = tf.Graph()
    with graph.as_default():
        v = tf.placeholder(tf.float32, name="v")
        bad = tf.reshape(v, [3], name="bad")
    recorder = Recorder()
    with tf.Session(graph=graph) as sess, observe_runs(recorder):
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(bad, {v: [1.0, 2.0]})
    assert len(recorder.done) == 1
    assert isinstance(recorder.done[0][2], tf.errors.InvalidArgumentError)


def test_observers_and_full_trace_together(two_cpus):
    sess, a, total = two_cpus
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    plain, observed = tf.RunMetadata(), tf.RunMetadata()
    sess.run(total, {a: [1.0, 2.0]}, options=options, run_metadata=plain)
    recorder = Recorder(replace={"product": np.array([5.0, 5.0], np.float32)})
    with observe_runs(recorder):
        assert sess.run(total, {a: [1.0, 2.0]}, options=options, run_metadata=observed) == 10.0

    def names(metadata):
        return [(d.device, [n.node_name for n in d.node_stats]) for d in metadata.step_stats.dev_stats]
    assert names(observed) == names(plain)
    thread_ids = {d.device: {n.thread_id for n in d.node_stats}
                  for d in observed.step_stats.dev_stats}
    assert all(len(ids) == 1 for ids in thread_ids.values())
    assert thread_ids[CPU0] != thread_ids[CPU1]  # each collector records its executor's thread


class _Lifetimes(_Observer):
    """Holds a weak reference to each node's first output, and notes at each node's start
    which of those are still alive."""

    def __init__(self, recorder, device):
        super().__init__(recorder, device)
        self.outputs, self.alive_at = {}, {}

    def op_started(self, node, inputs, info=None):
        self.alive_at[node.name] = {name for name, ref in self.outputs.items()
                                    if ref() is not None}

    def node_finished(self, node, outputs, info=None):
        if outputs and isinstance(outputs[0], np.ndarray):
            self.outputs[node.name] = weakref.ref(outputs[0])


def test_a_traced_run_drops_a_tensor_once_its_readers_have_run():
    # TensorFlow's executor clears a node's inputs once it has run; held to the step's end,
    # every large tensor of a traced run was fresh memory (engine/runtime/frames.py).
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=[4], name="x")
        first = tf.multiply(x, 2.0, name="first")
        second = tf.add(first, 1.0, name="second")
        third = tf.multiply(second, 3.0, name="third")
        last = tf.negative(third, name="last")
    observers = []

    def factory(device, step_id, plan):
        observers.append(_Lifetimes(Recorder(), device))
        return observers[-1]

    with tf.Session(graph=graph) as sess, observe_runs(factory):
        got = sess.run(last, {x: np.arange(4, dtype=np.float32)})
    np.testing.assert_array_equal(got, -(np.arange(4, dtype=np.float32) * 2 + 1) * 3)
    (observer,) = observers
    assert "first" in observer.alive_at["second"]
    assert "first" not in observer.alive_at["last"] and "second" not in observer.alive_at["last"]
