"""Compiled kernels: the candidates (numba, randomgen, numexpr) on the same work, one process.

Why numba: it gives TensorFlow's Philox words bit for bit, vectorised (structure-of-arrays
rounds: vpmuludq) and split over the intra-op threads, and compiles any elementwise chain to
one loop cached on disk. randomgen's Philox(number=4, width=32) gives the same words but one
thread and 64-bit outputs to convert; numexpr fuses expressions without compiling but is not
TensorFlow's semantics per op (casts, integer wrap) and runs its own thread pool. The cost of
numba is its import and cache load (import_* below), paid on a background thread
(engine/kernels/compiled), never by a run. Times are medians of interleaved repeats; the
ratios are to NumPy in the same run.
"""

import os
import statistics
import subprocess
import sys
import time

import numpy as np

import bench

N = 10**6
REPEATS = 9


def _import_seconds(statement):
    code = f"import time, numpy; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout.split()[-1]) for _ in range(3)]
    return round(statistics.median(runs), 3)


def _race(candidates):
    times = {name: [] for name, _ in candidates}
    for _ in range(REPEATS):  # interleaved, so the machine's drift hits all alike
        for name, fn in candidates:
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def run():
    try:
        import numexpr
        from randomgen import Philox
    except ImportError as error:
        raise bench.Skipped(f"the candidates are not all installed ({error.name})") from None
    from engine.runtime import random_philox, threads
    from engine.kernels import compiled
    from engine.kernels.fused_chain import Chain

    philox = compiled.module("philox", wait=True)
    fused = compiled.module("fused", wait=True)
    if philox is None or fused is None:
        raise bench.Skipped(f"numba kernels unavailable: {compiled.why_not('philox')}")
    generator = random_philox.PhiloxRandom(1234, 5)

    def numpy_philox():
        blocks = generator.blocks_at(np.arange(N // 4, dtype=np.uint64))
        return random_philox.uint32_to_float(blocks.reshape(-1))

    def randomgen_philox():
        counter = generator.counter - 1  # randomgen steps its counter before each block
        bit_generator = Philox(number=4, width=32, key=np.array([1234], np.uint64),
                               counter=np.array([counter & (2**64 - 1), counter >> 64], np.uint64))
        return random_philox.uint32_to_float(bit_generator.random_raw(N).astype(np.uint32))

    def numba_philox(count):
        threads.configure(count)
        return philox.uniform(generator.key, generator.counter, N, np.float32)

    reference = numpy_philox()
    for candidate in (randomgen_philox, lambda: numba_philox(1), lambda: numba_philox(2)):
        assert np.array_equal(candidate(), reference)
    philox_times = _race([("numpy", numpy_philox), ("randomgen", randomgen_philox),
                          ("numba_1_thread", lambda: numba_philox(1)),
                          ("numba_2_threads", lambda: numba_philox(2))])
    threads.configure(0)

    rng = np.random.default_rng(0)
    x, y, ones = rng.random(N, np.float32), rng.random(N, np.float32), np.ones(N, np.float32)
    chain = Chain(["Mul", "Mul", "AddV2", "Sqrt", "LessEqual", "Cast"],
                  ["i0,i0", "i1,i1", "t0,t1", "t2", "t3,i2", "t4"],
                  ["float32"] * 4 + ["bool", "int32"])
    kernel = fused.kernel(chain, ["float32"] * 3, [False] * 3, wait=True)

    def numpy_chain():
        return (np.sqrt(x * x + y * y) <= ones).astype(np.int32)

    def numexpr_chain():
        return numexpr.evaluate("where(sqrt(x * x + y * y) <= o, 1, 0)",
                                local_dict={"x": x, "y": y, "o": ones}).astype(np.int32)

    def numba_chain():
        return fused.run(kernel, np.empty(N, np.int32), [x, y, ones])

    for candidate in (numexpr_chain, numba_chain):
        assert np.array_equal(candidate(), numpy_chain())
    chain_times = _race([("numpy", numpy_chain), ("numexpr", numexpr_chain),
                         ("numba", numba_chain)])
    values = {f"philox_1e6_float32_{name}_ms": round(seconds * 1e3, 2)
              for name, seconds in philox_times.items()}
    values.update({f"philox_{name}_vs_numpy": round(seconds / philox_times["numpy"], 3)
                   for name, seconds in philox_times.items() if name != "numpy"})
    values.update({f"pi_chain_1e6_{name}_ms": round(seconds * 1e3, 2)
                   for name, seconds in chain_times.items()})
    values.update({f"pi_chain_{name}_vs_numpy": round(seconds / chain_times["numpy"], 3)
                   for name, seconds in chain_times.items() if name != "numpy"})
    values.update({
        "import_numba_s": _import_seconds("import numba"),
        "import_numba_and_load_philox_from_cache_s": _import_seconds(
            "from engine.kernels import compiled; compiled.module('philox', wait=True)"),
        "import_randomgen_s": _import_seconds("import randomgen"),
        "import_numexpr_s": _import_seconds("import numexpr"),
        "chosen": "numba (Philox and fused chains), loaded in the background",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_1min": round(os.getloadavg()[0], 1),
    })
    return values


if __name__ == "__main__":
    print(run())
