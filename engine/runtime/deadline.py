"""RunOptions.timeout_in_ms: the deadline of the Session.run on this thread, checked as loops
iterate, so a run that would go on too long fails with DeadlineExceededError and the session
stays usable (TensorFlow cancels the step the same way)."""

import threading
import time
from contextlib import contextmanager

from engine.framework import errors

class _ThreadDeadline(threading.local):
    # A class default, so reading it on a thread that never set one costs no AttributeError.
    deadline = None


_local = _ThreadDeadline()
# How often (in loop iterations) a loop looks at the clock: rarely enough to cost nothing.
CHECK_EVERY = 64


def after_ms(timeout_in_ms):
    """The monotonic deadline `timeout_in_ms` from now; None for 0 or less (no deadline)."""
    return time.monotonic() + timeout_in_ms / 1000 if timeout_in_ms and timeout_in_ms > 0 else None


@contextmanager
def running_until(deadline):
    """Run the body under `deadline` (a time.monotonic() value, or None for none)."""
    previous = swap(deadline)
    try:
        yield
    finally:
        swap(previous)


def swap(deadline):
    """This thread's deadline set to `deadline`; the one it had, for swap() to put back.

    Session.run's hot path uses this pair in a try/finally: a generator context manager costs
    a microsecond per run, an eighth of a small graph's whole run.
    """
    previous = _local.deadline
    _local.deadline = deadline
    return previous


def check():
    """DeadlineExceededError when this thread's run is past its deadline."""
    deadline = _local.deadline
    if deadline is not None and time.monotonic() > deadline:
        raise errors.DeadlineExceededError(None, None, "Timed out waiting for notification")


def pending():
    """Whether this thread's run has a deadline (a compiled loop then stops to check it)."""
    return _local.deadline is not None
