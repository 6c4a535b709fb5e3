"""In-process rendezvous: the table where _Send leaves a tensor and _Recv waits for it.

As TensorFlow's IntraProcessRendezvous, one per step, keyed by
"send_device;send_device_incarnation;recv_device;tensor_name;frame_id:iter_id", the
incarnation as 16 hex digits. A recv blocks until its send arrives or the step is aborted
(a partition failed): the waiting recvs then raise the same error, so no executor hangs.
"""

import threading

from engine.framework import errors

RENDEZVOUS_KEY = "__rendezvous__"  # where a session keeps its RendezvousMgr (session_state)

# The step a thread's executor is running. Kernel contexts are shared by concurrent runs of
# one plan, so their step_id may be another run's; each partition thread says its own here.
_running = threading.local()


def set_running_step(step_id):
    _running.step_id = step_id


def running_step(default):
    return getattr(_running, "step_id", default)


def create_key(send_device, incarnation, recv_device, tensor_name, frame_iter=(0, 0)):
    """TensorFlow's Rendezvous::CreateKey.

    >>> create_key("/job:localhost/replica:0/task:0/device:CPU:0", 1,
    ...            "/job:localhost/replica:0/task:0/device:CPU:1", "edge_5_product")
    '/job:localhost/replica:0/task:0/device:CPU:0;0000000000000001;/job:localhost/replica:0/task:0/device:CPU:1;edge_5_product;0:0'
    """
    return (f"{send_device};{incarnation & 0xFFFFFFFFFFFFFFFF:016x};{recv_device};"
            f"{tensor_name};{frame_iter[0]}:{frame_iter[1]}")


class Rendezvous:
    """One step's tensors in flight between partitions."""

    def __init__(self):
        self._cond = threading.Condition()
        self._table = {}
        self._error = None

    def send(self, key, value, is_dead=False):
        with self._cond:
            if self._error is not None:
                raise self._error
            if key in self._table:
                raise errors.AbortedError(None, None, f"Duplicated send: {key}")
            self._table[key] = (value, is_dead)
            self._cond.notify_all()

    def recv(self, key, timeout=None):
        """(value, is_dead) sent under `key`, waiting for it."""
        with self._cond:
            while key not in self._table:
                if self._error is not None:
                    raise self._error
                if not self._cond.wait(timeout):
                    raise errors.DeadlineExceededError(
                        None, None, f"Timed out waiting for {key}")
            return self._table.pop(key)

    def has(self, key):
        """Whether a tensor was sent under `key` and not received yet (recv would not wait)."""
        with self._cond:
            return key in self._table

    @property
    def error(self):
        """The error the step was aborted with, or None while it goes on."""
        return self._error

    def start_abort(self, error):
        """Fails every pending and later recv and send with `error`."""
        with self._cond:
            if self._error is None:
                self._error = error if isinstance(error, errors.OpError) else \
                    errors.CancelledError(None, None, f"Step aborted: {error}")
            self._cond.notify_all()


class RendezvousMgr:
    """A session's rendezvous, one per running step (step_id)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._steps = {}

    def find(self, step_id):
        with self._lock:
            rendezvous = self._steps.get(step_id)
            if rendezvous is None:
                rendezvous = self._steps[step_id] = Rendezvous()
            return rendezvous

    def cleanup(self, step_id):
        with self._lock:
            self._steps.pop(step_id, None)
