"""tf.PaddingFIFOQueue and tf.PriorityQueue scripts replayed on TensorFlow (through
tools/tf_shim, by tools/make_padding_queue_fixtures.py) and on the engine
(tests/engine/test_padding_queues.py): values, static shapes, node names and op types, and
the errors with their classes and texts."""

import numpy as np

from tests.engine.accumulator_cases import kernel_message


def _value(value):
    if hasattr(value, "indices") and hasattr(value, "dense_shape"):  # a SparseTensorValue
        return {"indices": _value(value.indices), "values": _value(value.values),
                "dense_shape": _value(value.dense_shape)}
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _value(v) for k, v in sorted(value.items())}
    value = np.asarray(value)
    if value.dtype.kind in "SO":
        return {"dtype": "string", "shape": list(value.shape),
                "value": [v.decode() if isinstance(v, bytes) else v
                          for v in value.reshape(-1).tolist()]}
    return {"dtype": value.dtype.name, "shape": list(value.shape), "value": value.tolist()}


def _error(ex):
    return {"error": type(ex).__name__,
            "message": kernel_message(getattr(ex, "message", None) or str(ex))}


def _run(sess, fetch, feed=None):
    try:
        return _value(sess.run(fetch, feed))
    except Exception as ex:  # noqa: BLE001  (the error is the result)
        return _error(ex)


def _shapes(tensors):
    if isinstance(tensors, dict):
        tensors = [tensors[k] for k in sorted(tensors)]
    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    return [str(t.shape) for t in tensors]


def _graph(graph):
    return [[op.name, op.type] for op in graph.get_operations()]


def padding_fifo(tf):
    out = {}
    graph = tf.Graph()
    with graph.as_default():
        q = tf.PaddingFIFOQueue(10, [tf.int32, tf.string], shapes=[[None, 2], [None]])
        e1 = q.enqueue([[[1, 2]], ["a", "b"]])
        e2 = q.enqueue([[[1, 2], [3, 4], [5, 6]], ["c"]])
        ph = tf.placeholder(tf.int32)
        e3 = q.enqueue([ph, ["x"]])
        many = q.enqueue_many([np.arange(12, dtype=np.int32).reshape(3, 2, 2),
                               [["p", "q"], ["r", "s"], ["t", "u"]]])
        d = q.dequeue_many(2)
        d4 = q.dequeue_many(4)
        size = q.size()
        close = q.close()
        up_to = q.dequeue_up_to(3)
        one = q.dequeue()
        out["shapes"] = {"dequeue_many": _shapes(d), "dequeue_up_to": _shapes(up_to),
                         "dequeue": _shapes(one), "queue_ref": _shapes(q.queue_ref)}
        out["graph"] = _graph(graph)
        with tf.Session() as sess:
            sess.run(e1)
            sess.run(e2)
            out["dequeue_many"] = _run(sess, d)
            out["bad_rank"] = _run(sess, e3, {ph: [[1, 2, 3]]})
            out["bad_dim"] = _run(sess, e3, {ph: [1, 2]})
            sess.run(e1)
            sess.run(e3, {ph: np.zeros([0, 2], np.int32)})
            sess.run(many)
            out["size"] = _run(sess, size)
            out["dequeue_many_4"] = _run(sess, d4)
            sess.run(e1)
            sess.run(close)
            out["up_to_closed"] = _run(sess, up_to)
            out["up_to_empty"] = _run(sess, up_to)
            out["dequeue_empty"] = _run(sess, one)
            out["enqueue_closed"] = _run(sess, e1)
    graph = tf.Graph()
    with graph.as_default():
        for key, make in (
                ("no_shapes", lambda: tf.PaddingFIFOQueue(3, [tf.int32], shapes=None)),
                ("one_shape", lambda: tf.PaddingFIFOQueue(3, [tf.int32], shapes=[None, 2])),
                ("shape_count", lambda: tf.PaddingFIFOQueue(3, [tf.int32, tf.int32],
                                                           shapes=[[None]]))):
            try:
                make()
                out[key] = None
            except Exception as ex:  # noqa: BLE001
                out[key] = _error(ex)
        named = tf.queue.PaddingFIFOQueue(4, [tf.float32], shapes=[[None]], names=["x"],
                                          name="named")
        enq = named.enqueue({"x": [1.0, 2.0]})
        enq2 = named.enqueue({"x": [3.0]})
        deq = named.dequeue_many(2)
        out["named_shapes"] = _shapes(deq)
        with tf.Session() as sess:
            sess.run([enq])
            sess.run([enq2])
            out["named"] = _run(sess, deq)
    return out


def priority(tf):
    out = {}
    graph = tf.Graph()
    with graph.as_default():
        p = tf.PriorityQueue(5, [tf.float32, tf.string], shapes=[[2], []])
        pe = p.enqueue_many([[5, 1, 3], [[1, 2], [3, 4], [5, 6]], ["five", "one", "three"]])
        pd = p.dequeue_many(2)
        pd1 = p.dequeue()
        pph = tf.placeholder(tf.int64)
        pe2 = p.enqueue([pph, [1.0, 2.0], "x"])
        pe3 = p.enqueue([-7, [9.0, 9.0], "neg"])
        up = p.dequeue_up_to(4)
        close = p.close()
        out["shapes"] = {"dequeue_many": _shapes(pd), "dequeue": _shapes(pd1),
                         "dequeue_up_to": _shapes(up)}
        out["graph"] = _graph(graph)
        with tf.Session() as sess:
            sess.run(pe)
            out["dequeue_many"] = _run(sess, pd)
            out["dequeue"] = _run(sess, pd1)
            out["bad_priority"] = _run(sess, pe2, {pph: [1, 2]})
            sess.run(pe2, {pph: 10})
            sess.run(pe3)
            sess.run(pe2, {pph: 4})
            sess.run(close)
            out["up_to_closed"] = _run(sess, up)
            out["many_closed"] = _run(sess, pd)
            out["enqueue_closed"] = _run(sess, pe3)
    graph = tf.Graph()
    with graph.as_default():
        try:
            tf.io.PriorityQueue(3, [tf.int32], shapes=[[None]])
            out["partial_shape"] = None
        except Exception as ex:  # noqa: BLE001
            out["partial_shape"] = _error(ex)
    return out


def dynamic_pad(tf):
    """tf.train.batch(..., dynamic_pad=True): a PaddingFIFOQueue that a QueueRunner fills with
    vectors of growing length until the counter reaches its limit."""
    out = {}
    graph = tf.Graph()
    with graph.as_default():
        counter = tf.Variable(0, name="counter")
        step = tf.count_up_to(counter, 4)
        values = tf.range(step + 1)
        batch = tf.train.batch([values, tf.as_string(step)], batch_size=2, num_threads=1,
                               dynamic_pad=True)
        out["shapes"] = _shapes(batch)
        out["queue"] = [[op.name, op.type] for op in graph.get_operations()
                        if op.type == "PaddingFIFOQueueV2"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            out["batches"] = [_run(sess, batch) for _ in range(3)]
            coord.request_stop()
            coord.join(threads)
    return out


def replay(tf):
    return {"padding_fifo": padding_fifo(tf), "priority": priority(tf),
            "dynamic_pad": dynamic_pad(tf)}
