"""glibc's malloc told to keep the memory of freed tensors for the next ones.

A kernel's result is fresh memory: NumPy asks malloc, and glibc maps a large block afresh
(mmap above its threshold, which it moves as blocks are freed) or takes it from a heap whose
free top it gives back to the system past its trim threshold (twice that threshold). Each
page of fresh memory faults when first written: on the 2-core KVM guest of BENCHMARKS.md a
fault cost about 2.7 us (writing 12 MB into fresh 4 KiB pages took 8.5 ms, into used memory
0.4 ms), and a BERT-12 call (8 x 128 tokens) faulted 12,000 to 40,000 times, varying with how
glibc's thresholds had moved in that process: 0.03 to 0.5 s of a 0.6 to 1.2 s call. With
blocks up to 32 MiB served from the heap (M_MMAP_THRESHOLD, glibc's largest) and the heap
kept up to 256 MiB of free top (M_TRIM_THRESHOLD), the same calls faulted 40 to 480 times
(measured with 1 GiB; with 256 MiB, under 1,000 and about none after the first steps). Measured 2026-11-28,
processes alternating, three each way: 1.01 to 1.08 s of CPU a call against 1.14 to 1.15 s
(load 3.3 to 4; forwarding on in both), and 0.58 to 0.64 s a call against 0.60 to 1.18 s
before forwarding (load 2); peak RSS unchanged (700 to 720 MB). Larger blocks are still
mapped and unmapped by each call; TensorFlow's own allocators keep theirs.

A session sets it once per process when it is created (as it configures the intra-op
threads); `GRAPH_INSPECTOR_MALLOC=system` leaves malloc as it is. Only glibc is told: another
C library keeps its own policy. The cost: freed memory of up to 256 MiB at the heap's top stays
with the process (its peak stays its size), as TensorFlow's BFC allocator keeps its pool.
"""

import ctypes
import os
import sys
import threading

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
MMAP_THRESHOLD = 32 << 20  # HEAP_MAX_SIZE / 2 on 64-bit glibc, the largest mallopt takes
TRIM_THRESHOLD = 256 << 20
_lock = threading.Lock()
_done = False
_kept = False  # whether glibc took the thresholds


def keep_freed_memory():
    """Set glibc's thresholds (the module's doc), once per process; True if they were set."""
    global _done, _kept
    with _lock:
        if _done:
            return False
        _done = True
    if os.environ.get("GRAPH_INSPECTOR_MALLOC", "").lower() == "system":
        return False
    libc = glibc()
    if libc is None:
        return False
    mallopt = libc.mallopt
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    _kept = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                 and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return _kept


def keeping():
    """Whether glibc keeps freed memory as keep_freed_memory set it in this process."""
    return _kept


def glibc():
    """The process's C library where it is glibc, else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 (glibc's own: absent from musl)
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc
