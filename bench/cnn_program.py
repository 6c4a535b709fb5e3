"""A CNN training program's compute time on the engine against TensorFlow 2.21's, the same file
run on both (bench/programs/, bench/tensorflow_side.py): shared by bench.mnist_deep_cnn and
bench.raw_conv_net. Each side runs as its own process, the two alternating, REPEATS times at
each thread setting (intra_op_parallelism_threads 1, and 0: every core, TensorFlow's default).
The figures are medians of the training loop's seconds, wall and CPU, the import, the graph's
construction and the variables' initialisation left out on both sides: the whole loop (the
row's figure: for the engine it includes loading numba and its kernels on first use), and
the steps after the program's WARM_UP first (the steady state)."""

import re
import statistics

from bench import tensorflow_side

REPEATS = 3
THREADS = (1, 0)
_FIGURES = re.compile(r"seconds ([0-9.]+) cpu ([0-9.]+) after \d+ seconds ([0-9.]+) cpu ([0-9.]+)")
_NAMES = ("s", "cpu_s", "steady_s", "steady_cpu_s")


def _figures(output):
    return [float(x) for x in _FIGURES.search(output).groups()]


def compare(program, steps, row):
    """The measurements and targets-table row of `program` at `steps` training steps."""
    measured = tensorflow_side.python() is not None
    values, ratios = {"steps": steps, "repeats": REPEATS}, []
    for threads in THREADS:
        label = f"{threads}_thread" if threads else "default_threads"
        runs = {"engine": [], "tensorflow": []}
        for _ in range(REPEATS):  # alternating, so the machine's drift hits both alike
            runs["engine"].append(_figures(tensorflow_side.run(program, [steps, threads], False)))
            if measured:
                runs["tensorflow"].append(
                    _figures(tensorflow_side.run(program, [steps, threads], True)))
        for side, figures in runs.items():
            for k, name in enumerate(_NAMES if figures else ()):
                median = statistics.median(f[k] for f in figures)
                values[f"{label}_{side}_{name}"] = round(median, 3)
        if measured:
            ratios.append((label, values[f"{label}_engine_s"] / values[f"{label}_tensorflow_s"],
                           values[f"{label}_engine_steady_s"]
                           / values[f"{label}_tensorflow_steady_s"]))
    values.update(row=row, target="≤ TensorFlow's time (1 thread and default threads)")
    if not measured:
        values.update(value=f"{values['1_thread_engine_s']} s",
                      tensorflow=tensorflow_side.NOT_MEASURED, met=False)
        return values
    values.update(
        value="; ".join(f"{label.replace('_', ' ')}: {whole:.2f}x TF ({steady:.2f}x after "
                        "warm-up)" for label, whole, steady in ratios),
        tensorflow=", ".join(f"{values[f'{label}_tensorflow_s']} s" for label, _, _ in ratios),
        met=all(whole <= 1.0 for _, whole, _ in ratios))
    return values
