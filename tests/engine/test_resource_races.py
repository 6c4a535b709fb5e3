"""Runs on several threads at once reach a stateful node's resource together (a QueueRunner's
first enqueue and the main thread's first dequeue): they must share one resource. A queue made
twice once hung a whole-suite run for 300 s (the dequeue waited on a queue nobody filled)."""

import sys
import threading

import pytest

import engine as tf
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.runtime.resources import ResourceMgr


@pytest.fixture
def eager_thread_switches():
    """Switch threads as often as CPython allows, so a check-then-create window is hit."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def _at_once(count, fn):
    """fn() on `count` threads released together; their results."""
    barrier, results = threading.Barrier(count), [None] * count

    def run(i):
        barrier.wait()
        results[i] = fn()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_a_queue_made_by_two_runs_at_once_is_one_queue(eager_thread_switches):
    with tf.Graph().as_default():
        node = tf.FIFOQueue(10, [tf.float32], name="fifo").queue_ref.op.node_def
    kernel = lookup("FIFOQueueV2")
    for _ in range(200):
        resources = ResourceMgr()
        handles = _at_once(4, lambda: kernel(KernelContext(node, [tf.resource], resources)))
        assert len({h.name for h in handles}) == 1, handles
        assert len(resources.table("queues")) == len(resources.queues_by_name) == 1


def test_a_resource_table_made_by_two_runs_at_once_is_one_table(eager_thread_switches):
    for _ in range(200):
        resources = ResourceMgr()
        tables = _at_once(4, lambda: resources.table("stacks"))
        assert all(t is tables[0] for t in tables)


def test_a_queue_runner_and_the_first_dequeue_meet_in_one_queue():
    """The pattern of the hang, end to end: the runner starts as the main thread's first
    dequeue runs; every element arrives and the end is OutOfRangeError, many times over."""
    for attempt in range(20):
        graph = tf.Graph()
        with graph.as_default():
            words = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2,
                                                   shuffle=False)
            word = words.dequeue()
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                coord = tf.train.Coordinator()
                threads = tf.train.start_queue_runners(sess, coord)
                seen = []
                with pytest.raises(tf.errors.OutOfRangeError):
                    while True:
                        seen.append(sess.run(word, options=tf.RunOptions(timeout_in_ms=20000)))
                coord.request_stop()
                coord.join(threads)
        assert seen == [b"a", b"b", b"c"] * 2, attempt


def test_a_fifo_queue_serves_its_waiting_dequeues_in_order():
    """An element goes to the dequeue that waited for it, not to one that came while the
    waiting thread had not woken yet, as TensorFlow serves its dequeue attempts in order
    (SyncReplicasOptimizer's tokens: a fast worker took both of a step's tokens once)."""
    import numpy as np
    from engine.kernels.cpu import queues

    queue = queues._Queue("FIFOQueue", "q", -1, [tf.int32], [[]])
    got = {}

    def dequeue(name):
        got[name] = int(queues._dequeue(None, queue, 1)[0][0])

    first = threading.Thread(target=dequeue, args=("first",))
    first.start()
    while not queue.dequeuers:  # the first dequeue waits on the empty queue
        threading.Event().wait(0.001)
    refill = threading.Thread(target=lambda: first.join() or queues._enqueue(
        None, queue, [(np.int32(2),)]))
    refill.start()
    with queue.condition:  # the first one cannot wake before the second comes
        queues._enqueue(None, queue, [(np.int32(1),)])
        dequeue("second")
    refill.join()
    assert got == {"first": 1, "second": 2}
