"""`graph-inspector warm [--force]`: compile the engine's numba kernels once and cache them on
disk, so that no later run waits for them (`make setup` runs it).

A fresh install's first large run otherwise takes the NumPy path while numba compiles in the
background (a Monte-Carlo pi of 10^6 points ran at 7.6x NumPy so). What is compiled: every
module engine/kernels/compiled names (Philox, convolutions, pooling, activations, BiasAdd,
leading-axes Sum, Adam, depthwise convolutions, Eigen's float functions, its innermost sums
and softmax: each module's warm())
and the fused chains of WARM_PROGRAMS, the chain shapes remapping makes most often. Once done
it writes a stamp
(engine/kernels/compiled/warm_cache.py); while the stamp is current, `warm` only says so.
"""

from __future__ import annotations

import sys
import time

# Programs whose fused chains are compiled: each builds a graph and returns what to fetch.
# Monte-Carlo pi (seed 001) is RandomUniform -> Mul/Add/Sqrt -> LessEqual -> Cast -> Sum.
WARM_SIZE = 1 << 20


def monte_carlo_pi(tf, dtype):
    x = tf.random_uniform([WARM_SIZE], dtype=dtype, seed=1)
    y = tf.random_uniform([WARM_SIZE], dtype=dtype, seed=2)
    inside = tf.less_equal(tf.sqrt(x * x + y * y), tf.ones([WARM_SIZE], dtype))
    hits = tf.reduce_sum(tf.cast(inside, tf.int32))
    return 4.0 * tf.cast(hits, tf.float32) / WARM_SIZE


WARM_PROGRAMS = (monte_carlo_pi,)


def add_arguments(parser):
    parser.add_argument("--force", action="store_true",
                        help="compile (or load) every kernel again even when the cache is warm")


def run(args):
    from engine.kernels import compiled
    from engine.kernels.compiled import warm_cache

    where = warm_cache.cache_root()
    if warm_cache.is_warm() and not args.force:
        print(f"compiled kernels: cached already ({where})")
        return 0
    if not compiled.enabled():
        print("compiled kernels: off (GRAPH_INSPECTOR_COMPILED=0); nothing to warm")
        return 0
    started = time.perf_counter()
    warm_cache.quiet()
    if compiled.module("philox", wait=True) is None:
        print(f"compiled kernels: not available ({compiled.why_not('philox')}); the NumPy "
              f"kernels serve", file=sys.stderr)
        return 0
    others = [name for name in compiled.names() if name not in ("philox", "fused")
              and compiled.module(name, wait=True) is not None]  # each module's warm()
    chains = _warm_chains(compiled)
    warm_cache.write_stamp()
    print(f"compiled kernels: Philox, {', '.join(others)} and {chains} fused chains cached "
          f"in {where} ({time.perf_counter() - started:.1f} s)")
    return 0


def _warm_chains(compiled):
    """Run each warm program until its fused chains are compiled; how many chains."""
    import engine as tf

    fused = compiled.module("fused", wait=True)
    if fused is None:
        return 0
    before = len(fused._ready)
    for program in WARM_PROGRAMS:
        for dtype in (tf.float32, tf.float64):
            graph = tf.Graph()
            with graph.as_default():
                tf.set_random_seed(1)
                fetch = program(tf, dtype)
            with tf.Session(graph=graph) as sess:
                sess.run(fetch)      # asks for its chains' kernels
                fused.wait_idle()
                sess.run(fetch)      # and runs them once
    return len(fused._ready) - before
