"""tf.train.QueueRunner, add_queue_runner and start_queue_runners (TensorFlow's
queue_runner_impl.py): threads that run a queue's enqueue ops until it closes or the
Coordinator stops them, then close the queue (the last thread) or cancel it (on stop)."""

import threading
import weakref

from engine.framework import errors
from engine.framework.graph import GraphKeys, add_to_collection, get_default_session
from engine.platform import tf_logging as logging


class QueueRunner:
    """Holds a queue's enqueue ops and its close and cancel ops (built here, as TensorFlow)."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None,
                 import_scope=None):
        if queue_runner_def is not None:
            raise NotImplementedError("QueueRunner from a QueueRunnerDef is not supported yet")
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue, self._enqueue_ops = queue, enqueue_ops
        self._close_op, self._cancel_op = close_op, cancel_op
        if queue_closed_exception_types is not None and (
                not isinstance(queue_closed_exception_types, tuple)
                or not queue_closed_exception_types
                or not all(issubclass(t, errors.OpError) for t in queue_closed_exception_types)):
            raise TypeError("queue_closed_exception_types, when provided, must be a tuple of "
                            f"tf.error types, but saw: {queue_closed_exception_types}")
        if self._close_op is None:
            self._close_op = self._queue.close()
        if self._cancel_op is None:
            self._cancel_op = self._queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or
                                                   (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        return self._exceptions_raised

    @property
    def name(self):
        return self._queue.name

    def _run(self, sess, enqueue_op, coord=None):
        decremented = False
        try:
            while True:
                if coord and coord.should_stop():
                    break
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            self._close(sess)
                        return
        except Exception as e:  # noqa: BLE001  (reported to the coordinator)
            if coord:
                coord.request_stop(e)
            else:
                logging.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close(self, sess):
        """Closes the queue once the last enqueue thread is done. TensorFlow ignores a close
        that fails (at VLOG 1); a consumer then waits for ever on a queue nobody will close,
        so the failure is also a warning here. (A 300 s hang once seen was two queues made
        by two runs at once: engine/kernels/cpu/queues.py, tests/engine/test_resource_races.py.)"""
        try:
            sess.run(self._close_op)
        except Exception as e:  # noqa: BLE001  (ignored, as TensorFlow)
            logging.vlog(1, "Ignored exception: %s", str(e))
            logging.warning("QueueRunner could not close %s: %s: %s", self.name,
                            type(e).__name__, e)

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:  # noqa: BLE001  (the session may be closed already)
            logging.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """Threads running the enqueue ops (and one cancelling the queue on stop)."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord),
                                    name=f"QueueRunnerThread-{self.name}-{op.name}")
                   for op in self._enqueue_ops]
        if coord:
            threads.append(threading.Thread(
                target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for thread in threads:
            if coord:
                coord.register_thread(thread)
            if daemon:
                thread.daemon = True
            if start:
                thread.start()
        return threads


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=GraphKeys.QUEUE_RUNNERS):
    """Starts the threads of every QueueRunner in `collection`; returns them."""
    if sess is None:
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if sess.__class__.__name__ in ("MonitoredSession", "SingularMonitoredSession"):
        return []
    queue_runners = sess.graph.get_collection(collection)
    if not queue_runners:
        logging.warning("`tf.train.start_queue_runners()` was called when no queue runners "
                        "were defined. You can safely remove the call to this deprecated "
                        "function.")
    threads = []
    for qr in queue_runners:
        threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
