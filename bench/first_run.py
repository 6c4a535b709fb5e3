"""Benchmark: a fresh install's first Monte-Carlo pi (10^6 points) with the compiled kernels'
cache cold (numba compiles them in the background; the NumPy path serves meanwhile) and warm
(after `graph-inspector warm`), each against NumPy doing the same work in the same process.

Each side runs in its own process with empty cache directories (GRAPH_INSPECTOR_CACHE_DIR and
NUMBA_CACHE_DIR, so Philox's cache is fresh too); the warm side runs `graph-inspector warm`
there first, timed as `warm_s` (what `make setup` adds once; `warm_again_s` is its cost when
the stamp says the cache is warm). The figures: the first 20 Session.runs' total over NumPy's
20, the first run's alone (it also builds the plan), and runs 2-20 over NumPy's.

The target is on the warm side: no run compiles; the first run pays, once, what loading
numba costs (importing it, its code generator, the cached machine code: 0.2-0.3 s here, more
than NumPy's 20 runs take, so no numba-compiled engine can have its first 20 runs at NumPy's
total), and runs 2-20 are at NumPy's pace or better. The bound is absolute and was set on a
2-core Zen 5; on a 2-core Zen 4 (2026-11-29) `import numba` alone took 0.26-0.39 s and the first
run 0.40 s, most of it numba's own start (its typing registries, 0.4 s of a profiled run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 20
# What loading numba and one cached kernel may cost the first run (measured 0.2-0.3 s on a
# quiet 2-core machine: `import numba` 0.1 s, the code generator and cached code the rest).
FIRST_RUN_S = 0.3

PROGRAM = """
import json, time
import numpy as np
import engine as tf
size = 10**6
tf.set_random_seed(1234)
x = tf.random_uniform([size], seed=1)
y = tf.random_uniform([size], seed=2)
r = tf.sqrt(tf.add(tf.multiply(x, x), tf.multiply(y, y)))
hits = tf.reduce_sum(tf.cast(tf.less_equal(r, tf.ones([size])), tf.int32))
pi = tf.multiply(4.0, tf.cast(hits, tf.float32) / size)
rng = np.random.default_rng(1234)
def numpy_pi():
    a = rng.random(size, dtype=np.float32)
    b = rng.random(size, dtype=np.float32)
    inside = np.sqrt(a * a + b * b) <= np.ones(size, dtype=np.float32)
    return np.float32(4.0) * (np.float32(np.sum(inside.astype(np.int32))) / np.float32(size))
sess = tf.Session()
times = []
for _ in range(RUNS):
    start = time.perf_counter(); sess.run(pi); times.append(time.perf_counter() - start)
numpy_times = []
for _ in range(RUNS):
    start = time.perf_counter(); numpy_pi(); numpy_times.append(time.perf_counter() - start)
print(json.dumps({"engine": times, "numpy": numpy_times}))
""".replace("RUNS", str(RUNS))


def _side(warm):
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as numba_cache:
        env = dict(os.environ, GRAPH_INSPECTOR_CACHE_DIR=cache, NUMBA_CACHE_DIR=numba_cache,
                   GRAPH_INSPECTOR_COMPILED="1")
        warm_s = warm_again_s = None
        if warm:
            command = [sys.executable, "-m", "inspector", "warm"]
            start = time.perf_counter()
            subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True)
            warm_s = time.perf_counter() - start
            start = time.perf_counter()
            subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True)
            warm_again_s = time.perf_counter() - start
        done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, cwd=ROOT, check=True,
                              capture_output=True, text=True)
    times = json.loads(done.stdout.splitlines()[-1])
    return times, done.stderr, warm_s, warm_again_s


def run():
    cold, cold_err, _, _ = _side(warm=False)
    warm, warm_err, warm_s, warm_again_s = _side(warm=True)

    def ratio(times, first):
        engine, numpy = times["engine"], times["numpy"]
        return (engine[0] / numpy[0]) if first else sum(engine) / sum(numpy)

    cold_ratio, warm_ratio = ratio(cold, False), ratio(warm, False)
    warm_first_s = warm["engine"][0]
    warm_after_first = sum(warm["engine"][1:]) / sum(warm["numpy"][1:])
    return {
        "cold_first_20_runs_x_numpy": round(cold_ratio, 2),
        "warm_first_20_runs_x_numpy": round(warm_ratio, 2),
        "cold_first_run_x_numpy": round(ratio(cold, True), 2),
        "warm_first_run_x_numpy": round(ratio(warm, True), 2),
        "warm_first_run_s": round(warm_first_s, 3),
        "warm_runs_2_to_20_x_numpy": round(warm_after_first, 2),
        "cold_engine_20_runs_s": round(sum(cold["engine"]), 3),
        "warm_engine_20_runs_s": round(sum(warm["engine"]), 3),
        "numpy_20_runs_s": round(sum(warm["numpy"]), 3),
        "warm_s": round(warm_s, 2),
        "warm_again_s": round(warm_again_s, 2),
        "cold_said_on_stderr": cold_err.strip().splitlines()[-1] if cold_err.strip() else "",
        "warm_said_on_stderr": warm_err.strip(),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "row": "First Monte-Carlo pi (10^6) of a fresh install, first 20 runs: cold cache, "
               "then after `graph-inspector warm`",
        "value": f"cold {cold_ratio:.2f}x, warm {warm_ratio:.2f}x NumPy; warm: first run "
                 f"{warm_first_s:.2f} s, runs 2-20 {warm_after_first:.2f}x NumPy",
        "tensorflow": "",
        "target": f"warm: no run compiles; the first run ≤ {FIRST_RUN_S} s (loading numba, "
                  "once); runs 2-20 at NumPy's pace or better (≤ 1x)",
        # (a run that waits for a compile says so on stderr: the warm side must say nothing)
        "met": warm_first_s <= FIRST_RUN_S and warm_after_first <= 1.0 and not warm_err.strip(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
