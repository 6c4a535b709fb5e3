"""Convolution-family ops one by one on the engine against TensorFlow 2.21: Conv2D, both its
backprops, MaxPool, MaxPoolGrad, BiasAdd, BiasAddGrad, Relu, ReluGrad at the shapes of the two
CNN programs, and DepthwiseConv2dNative with its backprops (bench/programs/conv_ops.py, which
runs the same graphs on either). TensorFlow runs as a server process (bench/tensorflow_side.py)
and the engine in this one, their samples interleaved in blocks (BLOCKS, below: each side
first in turn, a block's first sample dropped); each figure is the median seconds per run of the op (`sess.run(op)`, inputs in Variables), wall
and CPU: "engine / TF ms (wall): ratio wall, ratio CPU". At 1 intra-op thread and at the
default (every core), the engine's sessions made once numba and its kernels are loaded (the
steady state a training loop is in after its first steps). TensorFlow's malloc is set as the
engine sets its own (tensorflow_side.MALLOC_LIKE_ENGINE says why)."""

import functools
import json
import statistics

import bench
from bench import tensorflow_side

# Samples are taken in blocks, one side's after the other's, each side first in turn, and the
# first sample of a block is dropped: the other side's run leaves the caches to the next
# process cold, and a 12.8 MB MaxPool then read 0.64-0.70 ms a run for a whole sample where it
# takes 0.37 warm (TensorFlow alike), so single interleaved samples measured both sides at
# memory's pace rather than the steady state of a training loop (2026-11-28). Five blocks of
# four: fifteen samples kept a side (with nine, a row within 5% of TensorFlow's time read
# 0.99x in one bench run and 1.04x in the next).
BLOCKS, BLOCK_SAMPLES = 5, 4
THREADS = (1, 0)
SAMPLE_S = 0.02


def _tensorflow_seconds(server, case, number):
    server.stdin.write(json.dumps({"case": case, "number": number}) + "\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


def _block(sample):
    """BLOCK_SAMPLES samples of one side in a row, the first dropped."""
    return [sample() for _ in range(BLOCK_SAMPLES)][1:]


def _phase(threads, cases):
    """{case: (engine wall, engine CPU, TF wall, TF CPU)} at one thread setting."""
    from bench.programs import conv_ops
    runners = conv_ops.runners(threads)
    server = tensorflow_side.serve("conv_ops.py", [threads], malloc_like_engine=True)
    try:
        results = {}
        for name in cases:
            runner = runners[name]
            number = max(1, int(SAMPLE_S / max(runner.seconds(1)[0], 1e-6)))
            engine, tensorflow = [], []
            sides = [(engine, functools.partial(runner.seconds, number)),
                     (tensorflow, functools.partial(_tensorflow_seconds, server, name, number))]
            for block in range(BLOCKS):
                for samples, sample in (sides if block % 2 else sides[::-1]):
                    samples.extend(_block(sample))
            results[name] = tuple(statistics.median(s[k] for s in side)
                                  for side in (engine, tensorflow) for k in (0, 1))
        return results
    finally:
        server.stdin.close()
        server.wait()


def run():
    if tensorflow_side.python() is None:
        raise bench.Skipped(tensorflow_side.NOT_MEASURED)
    from engine.kernels import compiled
    for name in ("conv", "pool", "depthwise", "activation"):
        if compiled.module(name, wait=True) is None:
            raise bench.Skipped(f"numba kernels unavailable: {compiled.why_not(name)}")
    from bench.programs import conv_ops
    cases = [name for name, _, _, _ in conv_ops.CASES]
    values, worst = {}, []
    for threads in THREADS:
        label = "1 thread" if threads == 1 else "default threads"
        for name, (wall, cpu, tf_wall, tf_cpu) in _phase(threads, cases).items():
            key = f"{name}, {label}"
            values[key] = (f"{wall * 1e3:.2f} / {tf_wall * 1e3:.2f} ms: {wall / tf_wall:.2f}x "
                           f"wall, {cpu / tf_cpu:.2f}x CPU")
            # One thread: CPU time, which a busy shared machine disturbs least; every core:
            # wall time, what the threads are for.
            worst.append((cpu / tf_cpu if threads == 1 else wall / tf_wall, key))
    slower = [(r, n) for r, n in worst if r > 1.0]
    values.update(
        row="conv-family ops, each against TensorFlow (1 thread: CPU; default threads: wall)",
        value=f"{len(worst) - len(slower)} of {len(worst)} at or under TF; worst "
              f"{max(worst)[0]:.2f}x ({max(worst)[1]})",
        tensorflow="1.00x", target="each ≤ TensorFlow's time", met=not slower)
    return values


if __name__ == "__main__":
    print(run())
