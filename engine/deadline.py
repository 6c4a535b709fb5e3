"""RunOptions.timeout_in_ms: the deadline of the Session.run on this thread, checked as loops
iterate, so a run that would go on too long fails with DeadlineExceededError and the session
stays usable (TensorFlow cancels the step the same way)."""

import threading
import time
from contextlib import contextmanager

from engine import errors

_local = threading.local()
# How often (in loop iterations) a loop looks at the clock: rarely enough to cost nothing.
CHECK_EVERY = 64


def after_ms(timeout_in_ms):
    """The monotonic deadline `timeout_in_ms` from now; None for 0 or less (no deadline)."""
    return time.monotonic() + timeout_in_ms / 1000 if timeout_in_ms and timeout_in_ms > 0 else None


@contextmanager
def running_until(deadline):
    """Run the body under `deadline` (a time.monotonic() value, or None for none)."""
    previous = getattr(_local, "deadline", None)
    _local.deadline = deadline
    try:
        yield
    finally:
        _local.deadline = previous


def check():
    """DeadlineExceededError when this thread's run is past its deadline."""
    deadline = getattr(_local, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise errors.DeadlineExceededError(None, None, "Timed out waiting for notification")
