"""Resource names as TensorFlow's ContainerInfo gives them: "_N_<node>" from one counter for
the process, taken when a session first runs the node's kernel; a shared_name as it is.
The sequences below are what TensorFlow 2.21 printed for the same programs."""

import re

import pytest

import engine as tf
from engine.runtime import resources


@pytest.fixture(autouse=True)
def _fresh_process_numbering():
    tf.reset_default_graph()
    resources.restart_unique_names()


def _closed_queue_message(sess, queue):
    with pytest.raises(tf.errors.OutOfRangeError) as raised:
        sess.run(queue.dequeue())
    return re.search(r"Queue '([^']*)' is closed", raised.value.message).group(1)


def test_one_counter_across_sessions_and_graphs_runs_keep_their_number():
    queue = tf.FIFOQueue(3, tf.float32)
    close = queue.close()
    names = []
    for _ in range(2):
        with tf.Session() as sess:
            sess.run(close)
            names += [_closed_queue_message(sess, queue), _closed_queue_message(sess, queue)]
    tf.reset_default_graph()  # the counter goes on: it is the process's, not the graph's
    other = tf.RandomShuffleQueue(3, 0, tf.float32, name="shuffle")
    with tf.Session() as sess:
        sess.run(other.close())
        names.append(_closed_queue_message(sess, other))
    assert names == ["_0_fifo_queue", "_0_fifo_queue", "_1_fifo_queue", "_1_fifo_queue",
                     "_2_shuffle"]


def test_a_shared_name_is_the_name_and_takes_no_number():
    shared = tf.FIFOQueue(3, tf.float32, shared_name="jobs")
    plain = tf.FIFOQueue(3, tf.float32)
    with tf.Session() as sess:
        sess.run([shared.close(), plain.close()])
        assert _closed_queue_message(sess, shared) == "jobs"
        assert _closed_queue_message(sess, plain) == "_0_fifo_queue_1"


def test_readers_and_iterators_are_numbered_with_queues():
    reader = tf.TextLineReader(name="lines")
    iterator = tf.data.Dataset.range(1).make_one_shot_iterator()
    queue = tf.FIFOQueue(1, tf.float32)
    with tf.Session() as sess:
        assert sess.run(reader.reader_ref).name == "_0_lines"
        assert sess.run(iterator.get_next()) == 0  # the OneShotIterator takes _1_
        assert sess.run(reader.reader_ref).name == "_0_lines"
        sess.run(queue.close())
        assert _closed_queue_message(sess, queue) == "_2_fifo_queue"
