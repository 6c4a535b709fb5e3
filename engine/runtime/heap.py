"""glibc's malloc told to keep freed large blocks for the next step's arrays.

A step allocates its large arrays afresh (a BERT-12 step: 12 MB products, 6 MB attention
scores) and frees them as their last readers run. By default glibc returns a freed block above
its mmap threshold to the OS, and trims the heap's free top above its trim threshold (both
adapt, up to 32 MB and 64 MB), so the next step faults those pages in again, zeroed by the
kernel, often inside a BLAS call or a split kernel. Measured on a 2-core Zen 5 (BERT-12
signature, 8 x 128 tokens): 21,000-45,000 minor page faults and 0.07-0.29 s of system CPU a
step by default; with the mmap threshold at 32 MB and the trim threshold at 256 MB, under 600
faults (none after the first steps) and 0.005-0.02 s, steps 0.62 s -> 0.55 s (medians of
quiet steps, two processes of each alternating), the same peak resident memory (706 MB). The
cost: up to TRIM_THRESHOLD of freed heap stays with the process between steps.

Set once per process, where the C library is glibc and the user set no malloc tuning of their
own (GLIBC_TUNABLES naming glibc.malloc, or MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_);
GRAPH_INSPECTOR_MALLOC=default leaves malloc as it is. Only where memory comes from changes,
never a value.
"""

import ctypes
import ctypes.util
import os
import threading

MMAP_THRESHOLD = 32 << 20  # glibc's own ceiling for its adaptive threshold
TRIM_THRESHOLD = 256 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # malloc.h
_lock = threading.Lock()
_done = False


def _user_tuned():
    if os.environ.get("GRAPH_INSPECTOR_MALLOC", "").lower() == "default":
        return True
    if "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        return True
    return any(name in os.environ for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                                               "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"))


def _mallopt():
    """glibc's mallopt, or None (another C library, or none found)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        if not hasattr(libc, "gnu_get_libc_version"):
            return None
        function = libc.mallopt
    except (OSError, AttributeError):
        return None
    function.argtypes, function.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return function


def keep_freed_blocks():
    """Apply the thresholds (see the module's doc) the first time it is called; True where
    they are set."""
    global _done
    with _lock:
        if _done:
            return False
        _done = True
        if _user_tuned():
            return False
        mallopt = _mallopt()
        if mallopt is None:
            return False
        return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
            mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
