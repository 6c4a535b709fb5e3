"""A CNN training program's compute time on the engine against TensorFlow 2.21's, the same file
run on both (bench/programs/, bench/tensorflow_side.py): shared by bench.mnist_deep_cnn and
bench.raw_conv_net. Each side runs as its own process, the two alternating, REPEATS times at
each thread setting (intra_op_parallelism_threads 1, and 0: every core, TensorFlow's default);
the figures are medians of the training loop's seconds, wall and CPU, the import, the graph's
construction and the variables' initialisation left out on both sides."""

import re
import statistics

from bench import tensorflow_side

REPEATS = 3
THREADS = (1, 0)


def _seconds(output):
    match = re.search(r"seconds ([0-9.]+) cpu ([0-9.]+)", output)
    return float(match.group(1)), float(match.group(2))


def compare(program, steps, row):
    """The measurements and targets-table row of `program` at `steps` training steps."""
    measured = tensorflow_side.python() is not None
    values, ratios = {"steps": steps, "repeats": REPEATS}, []
    for threads in THREADS:
        label = f"{threads}_thread" if threads else "default_threads"
        engine, tensorflow = [], []
        for _ in range(REPEATS):  # alternating, so the machine's drift hits both alike
            engine.append(_seconds(tensorflow_side.run(program, [steps, threads], False)))
            if measured:
                tensorflow.append(_seconds(tensorflow_side.run(program, [steps, threads], True)))
        for side, runs in (("engine", engine), ("tensorflow", tensorflow)):
            if runs:
                values[f"{label}_{side}_s"] = round(statistics.median(w for w, _ in runs), 3)
                values[f"{label}_{side}_cpu_s"] = round(statistics.median(c for _, c in runs), 3)
        if measured:
            ratios.append((label, values[f"{label}_engine_s"] / values[f"{label}_tensorflow_s"]))
    values.update(row=row, target="≤ TensorFlow's time (1 thread and default threads)")
    if not measured:
        values.update(value=f"{values['1_thread_engine_s']} s",
                      tensorflow=tensorflow_side.NOT_MEASURED, met=False)
        return values
    values.update(
        value=", ".join(f"{label.replace('_', ' ')}: {r:.2f}x TF" for label, r in ratios),
        tensorflow=", ".join(f"{values[f'{label}_tensorflow_s']} s" for label, _ in ratios),
        met=all(r <= 1.0 for _, r in ratios))
    return values
