"""Benchmark: where fusing an elementwise chain pays, the measurement behind remapping's
DEFAULT (engine/optimizer/remapping.py fuses a CPU chain by default from
DEFAULT_MIN_ELEMENTS elements).

One chain, sum(sqrt(x*x + 1) * 0.5 - x <= 0.25) on a fed float32 vector, run by the engine
fused (remapping ON, its kernel compiled before timing) and op by op (remapping OFF) at
sizes around the threshold, interleaved in one process: `fused_over_unfused_N` below 1 means
fusion wins at N elements.
"""

from __future__ import annotations

import os
import time

import numpy as np

import bench

SIZES = (1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20)


def _session(graph, mode):
    import engine as tf

    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = mode
    return tf.Session(graph=graph, config=config)


def run(repeats: int = 15) -> dict:
    import engine as tf
    from engine.kernels import compiled
    from engine.kernels.cpu.fused import COMPILE_MIN_RUNS
    from engine.optimizer import remapping
    from engine.proto.rewriter_config_pb2 import RewriterConfig

    fused_module = compiled.module("fused", wait=True)
    if fused_module is None:
        raise bench.Skipped(f"no compiled kernels: {compiled.why_not('fused')}")
    values = {"threshold_elements": remapping.DEFAULT_MIN_ELEMENTS}
    for size in SIZES:
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, [size])
            hits = tf.reduce_sum(tf.cast(tf.sqrt(x * x + 1.0) * 0.5 - x <= 0.25, tf.int32))
        feed = {x: np.random.default_rng(size).random(size, np.float32)}
        fused, unfused = (_session(graph, RewriterConfig.ON), _session(graph, RewriterConfig.OFF))
        assert fused.run(hits, feed) == unfused.run(hits, feed)
        for _ in range(COMPILE_MIN_RUNS):  # a small chain asks for its kernel only then
            fused.run(hits, feed)
        fused_module.wait_idle()  # the chain's kernel compiled: steady state is timed
        result = bench.measure(bench.Case(f"fused chain {size}",
                                          lambda: fused.run(hits, feed),
                                          lambda: unfused.run(hits, feed)), repeats=repeats)
        values[f"fused_us_{size}"] = round(result.engine_s * 1e6, 1)
        values[f"unfused_us_{size}"] = round(result.numpy_s * 1e6, 1)
        values[f"fused_over_unfused_{size}"] = round(result.ratio, 2)
        fused.close()
        unfused.close()
    values["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    values["load_average_1min"] = round(os.getloadavg()[0], 1)
    return values


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))
