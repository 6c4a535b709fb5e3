"""Benchmarks of the engine against plain NumPy, behind `make bench` (results in BENCHMARKS.md).

Each workload is a small module in bench/ named in WORKLOADS, of one of two kinds:
- `cases()` returning Case objects: an engine callable and the NumPy callable doing the same
  work. Both run in the same process, interleaved, many times; a case reports the ratio of
  their medians.
- `run()` returning a dict of measurements (sizes, seconds), recorded as they are. One that
  stands for a row of the targets table says so with the keys `row` (its name), `value` (the
  figure), `tensorflow` (TensorFlow's, where it has one), `target` and `met`.
Either may raise `Skipped(reason)` where the machine lacks what it needs (a GPU); the report
then names the workload and the reason instead of numbers.
"""

import statistics
import time
from dataclasses import dataclass
from typing import Callable

WORKLOADS = ("bench.small_graph", "bench.monte_carlo_pi", "bench.add_chain", "bench.dot_large",
             "bench.vlog_awk", "bench.pbtxt_large", "bench.tui_large", "bench.runs_large",
             "bench.while_loop", "bench.two_processes", "bench.optimizer_cost",
             "bench.fusion_default", "bench.compiled_kernels", "bench.first_run",
             "bench.summaries", "bench.conv_ops", "bench.mnist_deep_cnn", "bench.raw_conv_net",
             "bench.gpu", "bench.cluster", "bench.tf2_saved_model", "bench.eigen_float32",
             "bench.bert_signature", "bench.tui_tf2_saved_model",
             "bench.cluster_step")


def steady_malloc():
    """Tells glibc's malloc to keep freed memory as a session does (engine/runtime/
    host_memory.py: large blocks from the heap, its free top kept) and says what was done. By
    default an array over the mmap threshold is mapped afresh on every allocation and
    page-faults in again: measured on this machine, NumPy's pi at 10^6 took 15.7 ms so and
    5.3 ms with memory kept, and which of the two a case got depended on what ran before it in
    the process (glibc moves its threshold as blocks are freed). Setting it before any case
    runs puts both sides of every case under the same setting."""
    from engine.runtime import host_memory

    if not (host_memory.keep_freed_memory() or host_memory.keeping()):
        return "the C library's default (not glibc, or GRAPH_INSPECTOR_MALLOC=system)"
    return (f"glibc told to keep freed memory, as a session does (mallopt: M_MMAP_THRESHOLD "
            f"{host_memory.MMAP_THRESHOLD >> 20} MiB, M_TRIM_THRESHOLD "
            f"{host_memory.TRIM_THRESHOLD >> 20} MiB), so NumPy's temporaries do not "
            "page-fault anew each call")


def array_alignment():
    """Where NumPy's array data started in this run: on 64-byte boundaries once the compiled
    kernels loaded (engine/kernels/compiled/aligned_memory.py), for both sides of a case."""
    from engine.kernels.compiled import aligned_memory

    if aligned_memory.installed():
        return ("NumPy's data of 1 KiB and more on 64-byte boundaries once the compiled "
                "kernels loaded (both sides of every case), as TensorFlow's tensors")
    return f"NumPy's own boundaries ({aligned_memory.why_not() or 'the compiled kernels not loaded'})"


class Skipped(Exception):
    """A workload that cannot run on this machine; the message says why."""


@dataclass
class Case:
    name: str
    engine: Callable[[], object]
    numpy: Callable[[], object]
    target: float | None = None  # the ratio the case must stay under, when it has one
    note: str = ""
    tensorflow: str = ""  # TensorFlow 2.21's ratio for the same work, the reference column


@dataclass
class Result:
    case: Case
    engine_s: float  # median seconds per call
    numpy_s: float

    @property
    def ratio(self):
        return self.engine_s / self.numpy_s

    @property
    def meets_target(self):
        return self.case.target is None or self.ratio <= self.case.target


def _per_call(fn, number):
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def calibrate(fn, budget_s=0.01):
    """How many calls of `fn` take about `budget_s`."""
    fn()
    number = 1
    while True:
        if _per_call(fn, number) * number >= budget_s or number >= 1 << 20:
            return number
        number *= 2


def measure(case, repeats=31, budget_s=0.01):
    """Median per-call time of each side, the two interleaved so noise hits both alike."""
    number_engine, number_numpy = calibrate(case.engine, budget_s), calibrate(case.numpy, budget_s)
    engine, numpy = [], []
    for _ in range(repeats):
        engine.append(_per_call(case.engine, number_engine))
        numpy.append(_per_call(case.numpy, number_numpy))
    return Result(case, statistics.median(engine), statistics.median(numpy))
