"""tf.train's batch_join, shuffle_batch_join and the maybe_ batching forms built the same way
by real TensorFlow and the engine: the nodes (queues, enqueue conds, dynamic partitions,
summaries) and what a dequeue gives once the QueueRunners ran (sorted where threads or the
shuffle decide the order). tools/make_input_join_fixtures.py writes TensorFlow's to
tests/fixtures/input_join/; tests/engine/test_input_join.py compares the engine's."""

import numpy as np


def _lists(tf):
    return [[tf.constant(1), tf.constant([1.0, 1.5])], [tf.constant(2), tf.constant([2.0, 2.5])]]


def batch_join(tf):
    return tf.train.batch_join(_lists(tf), 4, capacity=8), True


def batch_join_dicts(tf):
    return tf.train.batch_join([{"a": tf.constant(1), "b": tf.constant(3.0)},
                                {"a": tf.constant(2), "b": tf.constant(4.0)}], 3,
                               name="joined"), True


def shuffle_batch_join(tf):
    return tf.train.shuffle_batch_join(_lists(tf), 4, capacity=10, min_after_dequeue=2,
                                       seed=7), True


def maybe_batch_scalar(tf):
    keep = tf.placeholder_with_default(True, [])
    return tf.train.maybe_batch([tf.constant(5), tf.constant([1.0, 2.0])], keep, 3), False


def maybe_batch_constant(tf):
    return tf.train.maybe_batch([tf.constant(5)], tf.constant(True), 2, capacity=4), False


def maybe_batch_vector(tf):
    rows = tf.constant([1, 2, 3, 4])
    keep = tf.constant([True, False, True, False])
    return tf.train.maybe_batch([rows], keep, 4, enqueue_many=True, capacity=8), False


def maybe_batch_join(tf):
    keep = tf.placeholder_with_default(True, [])
    return tf.train.maybe_batch_join(_lists(tf), keep, 4), True


def maybe_shuffle_batch(tf):
    keep = tf.placeholder_with_default(True, [])
    return tf.train.maybe_shuffle_batch([tf.constant(9), tf.constant([0.5])], 3, 8, 2, keep,
                                        seed=4), True


def maybe_shuffle_batch_join(tf):
    rows = [[tf.constant([1, 2])], [tf.constant([3, 4])]]
    keep = tf.constant([True, False])
    return tf.train.maybe_shuffle_batch_join(rows, 4, 8, 1, keep, enqueue_many=True,
                                             seed=2), True


CASES = {name: fn for name, fn in globals().items()
         if callable(fn) and not name.startswith("_") and name[0].islower()
         and name not in ("build_case", "run_case")}


def build_case(tf, name):
    return CASES[name](tf)


def _flat(result):
    if isinstance(result, dict):
        return {key: result[key] for key in sorted(result)}
    if not isinstance(result, (list, tuple)):   # one tensor batched is returned bare
        return {"0": result}
    return {str(i): t for i, t in enumerate(result)}


def run_case(tf, name):
    """The dequeued batch ({position or key: values}) and the static shapes. Where threads or
    the shuffle decide which rows come (unordered cases), each output is given as its set of
    distinct rows, which POSSIBLE_ROWS bounds."""
    with tf.Graph().as_default():
        result, unordered = build_case(tf, name)
        outputs = _flat(result)
        shapes = {k: t.shape.as_list() if t.shape.ndims is not None else None
                  for k, t in outputs.items()}
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            values = sess.run(outputs)
            coord.request_stop()
            sess.run(tf.get_default_graph().get_collection("queue_runners")[0].cancel_op)
            coord.join(threads)
    if unordered:
        values = {k: np.unique(v.reshape(len(v), -1), axis=0) for k, v in values.items()}
    return values, shapes


# The rows an unordered case's outputs may hold, by output.
_LIST_ROWS = {"0": [[1], [2]], "1": [[1.0, 1.5], [2.0, 2.5]]}
POSSIBLE_ROWS = {"batch_join": _LIST_ROWS, "shuffle_batch_join": _LIST_ROWS,
                 "maybe_batch_join": _LIST_ROWS,
                 "batch_join_dicts": {"a": [[1], [2]], "b": [[3.0], [4.0]]},
                 "maybe_shuffle_batch": {"0": [[9]], "1": [[0.5]]},
                 "maybe_shuffle_batch_join": {"0": [[1], [3]]}}


ERROR_CASES = {}


def run_error_case(tf, name):
    raise KeyError(name)
