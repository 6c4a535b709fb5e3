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

import contextlib
import os
import sys
import time

from parsers.errors import InputError

# Programs whose fused chains are compiled: each builds a graph and returns what to fetch.
# Monte-Carlo pi (seed 001) is RandomUniform -> Mul/Add/Sqrt -> LessEqual -> Cast -> Sum.
WARM_SIZE = 1 << 20


def monte_carlo_pi(tf, dtype):
    x = tf.random_uniform([WARM_SIZE], dtype=dtype, seed=1)
    y = tf.random_uniform([WARM_SIZE], dtype=dtype, seed=2)
    inside = tf.less_equal(tf.sqrt(x * x + y * y), tf.ones([WARM_SIZE], dtype))
    hits = tf.reduce_sum(tf.cast(inside, tf.int32))
    return 4.0 * tf.cast(hits, tf.float32) / WARM_SIZE


def transformer_layer(tf, dtype):
    """A transformer layer's elementwise chains as TF2 models build them, on a batch the graph
    does not show (so the executor's chain steps run them, engine/runtime/chain_steps.py):
    tf.nn.gelu(approximate=False)'s exact GELU, a LayerNorm from tf.nn.moments, an attention
    mask added to scaled scores."""
    rows = tf.placeholder_with_default([WARM_SIZE // 1024, 1024], [2])
    x = tf.random_uniform(rows, -3.0, 3.0, dtype=dtype, seed=3)
    gelu = 0.5 * x * tf.math.erfc(-x * 0.7071067811865476)
    mean, variance = tf.nn.moments(gelu, axes=[-1], keepdims=True)
    normed = (gelu - mean) * tf.math.rsqrt(variance + 1e-12) * tf.ones([1024], dtype) \
        + tf.zeros([1024], dtype)
    scores = tf.reshape(normed, [-1, 4, 16, 1024])
    mask = tf.random_uniform(tf.stack([tf.shape(scores)[0], 1, 1, 1024]), dtype=dtype, seed=4)
    return tf.reduce_sum(scores * 0.125 + (1.0 - mask) * -10000.0)


# (program, the dtypes it is warmed at)
WARM_PROGRAMS = ((monte_carlo_pi, ("float32", "float64")), (transformer_layer, ("float32",)))


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
    _check_writable(where)  # before minutes of compiling whose cache could not be kept
    started = time.perf_counter()
    warm_cache.quiet()
    if compiled.module("philox", wait=True) is None:
        print(f"compiled kernels: not available ({compiled.why_not('philox')}); the NumPy "
              f"kernels serve", file=sys.stderr)
        return 0
    others = [name for name in compiled.names() if name not in ("philox", "fused")
              and compiled.module(name, wait=True) is not None]  # each module's warm()
    chains = _warm_chains(compiled)
    try:
        warm_cache.write_stamp()
    except OSError as error:  # the disk filled while compiling
        raise InputError(where, f"cannot write the compiled kernels' cache: "
                                f"{error.strerror or error}") from None
    print(f"compiled kernels: Philox, {', '.join(others)} and {chains} fused chains cached "
          f"in {where} ({time.perf_counter() - started:.1f} s)")
    return 0


def _check_writable(where):
    """The cache directory made, and a file written in it; else bad input naming it."""
    probe = os.path.join(where, f".writable.{os.getpid()}")
    try:
        os.makedirs(where, exist_ok=True)
        with open(probe, "w", encoding="utf-8") as file:
            file.write("ok\n")
        os.remove(probe)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(probe)
        raise InputError(where, f"cannot write the compiled kernels' cache: "
                                f"{error.strerror or error} (GRAPH_INSPECTOR_CACHE_DIR "
                                f"chooses another directory)") from None


def _warm_chains(compiled):
    """Run each warm program until its fused chains are compiled; how many chains."""
    import engine as tf

    fused = compiled.module("fused", wait=True)
    if fused is None:
        return 0
    before = len(fused._ready)
    for program, dtypes in WARM_PROGRAMS:
        for dtype in dtypes:
            graph = tf.Graph()
            with graph.as_default():
                tf.set_random_seed(1)
                fetch = program(tf, tf.as_dtype(dtype))
            with tf.Session(graph=graph) as sess:
                for _ in range(3):   # asks for its chains' kernels, then for those writing
                    sess.run(fetch)  # over an input, and runs them once
                    fused.wait_idle()
    return len(fused._ready) - before
