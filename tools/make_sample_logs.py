"""Write sample_logs/: real VLOG output of real TensorFlow for small TF1-style programs.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_sample_logs.py [NAME...]`.
Each program runs in its own process with TF_CPP_VMODULE naming the modules whose VLOG lines
explain a run (TF 2.21 levels, found by trying):
  function_utils=5   `||` graph dumps after "Graph <label> #nodes" (DumpGraph)
  function=5         "Instantiate function definition" and `||` FunctionDef prints
  executor=2         "Process node:" (level 1) and "Synchronous/Async kernel done" (level 2)
  optimization_registry=1, meta_optimizer=1   passes and grappler "Graph size after"
  placer=1           "<node>(<op>) placed on: <device>"
  log_memory=2       __LOG_MEMORY__ allocations and deallocations
(mlp_train leaves log_memory out. TF_CPP_MAX_VLOG_LEVEL=5 instead gives everything: ~500 KB for the counter program alone.)
Logs over MAX_BYTES are cut at a step boundary: everything before the first line of the
first step that would not fit is kept, byte for byte; lines are never edited.

`--onex` also writes counter_tf1x.log: TF 1.x cannot be installed here, so it takes
counter.log and rewrites only each absl prefix into TF 1.x's glog prefix.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "sample_logs"
MAX_BYTES = 450_000

VMODULE = ",".join(
    [
        "function_utils=5",
        "function=5",
        "executor=2",
        "optimization_registry=1",
        "meta_optimizer=1",
        "placer=1",
        "log_memory=2",
    ]
)

# The MLP's allocations alone are 270 KB; without them its log keeps all three training steps.
WITHOUT_MEMORY = {"mlp_train"}

PROLOGUE = """
import tensorflow as tf
tf1 = tf.compat.v1
tf1.disable_eager_execution()
"""

PROGRAMS = {
    # Seed 000's counter: a ref Variable, a constant, add, assign; run three times.
    "counter": """
tf1.disable_v2_behavior()
state = tf1.Variable(0, name="counter")
one = tf1.constant(1)
new_value = tf1.add(state, one)
update = tf1.assign(state, new_value)
init = tf1.initialize_all_variables()
with tf1.Session() as sess:
    sess.run(init)
    print(sess.run(state))
    for _ in range(3):
        sess.run(update)
        print(sess.run(state))
""",
    # A two-layer MLP trained by gradient descent for three steps on fixed data.
    "mlp_train": """
tf1.disable_v2_behavior()
import numpy as np
rng = np.random.RandomState(0)
x = tf1.placeholder(tf.float32, [None, 4], name="x")
y = tf1.placeholder(tf.int64, [None], name="y")
w1 = tf1.Variable(rng.randn(4, 8).astype("float32"), name="w1")
b1 = tf1.Variable(tf1.zeros([8]), name="b1")
w2 = tf1.Variable(rng.randn(8, 3).astype("float32"), name="w2")
b2 = tf1.Variable(tf1.zeros([3]), name="b2")
hidden = tf1.nn.relu(tf1.matmul(x, w1) + b1, name="hidden")
logits = tf1.add(tf1.matmul(hidden, w2), b2, name="logits")
loss = tf1.reduce_mean(
    tf1.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
feed = {x: rng.randn(5, 4).astype("float32"), y: rng.randint(0, 3, 5)}
with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, loss], feed)
        print(step, value)
""",
    # tf.while_loop in control flow v1: Enter/Merge/Switch/Exit/NextIteration in the graph.
    "while_v1": """
tf1.disable_v2_behavior()
tf1.disable_control_flow_v2()
i = tf1.constant(0, name="i")
acc = tf1.constant(1.0, name="acc")
result = tf1.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [i, acc])
with tf1.Session() as sess:
    print(sess.run(result))
""",
    # The same loop in control flow v2: a While op with cond/body FunctionDefs.
    "while_v2": """
tf1.enable_control_flow_v2()
i = tf1.constant(0, name="i")
acc = tf1.constant(1.0, name="acc")
result = tf1.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [i, acc])
with tf1.Session() as sess:
    print(sess.run(result))
""",
    # One graph over two logical CPUs: pinned ops, so the executor runs one partition each
    # and _Send/_Recv carry the tensors between them.
    "two_cpus": """
tf1.disable_v2_behavior()
with tf1.device("/cpu:0"):
    x = tf1.placeholder(tf.float32, [2], name="x")
    s = tf1.add(x, tf1.constant([3.0, 4.0], name="b"), name="s")
with tf1.device("/cpu:1"):
    m = tf1.multiply(s, s, name="m")
    total = tf1.reduce_sum(m, name="total")
config = tf1.ConfigProto(device_count={"CPU": 2}, allow_soft_placement=False)
with tf1.Session(config=config) as sess:
    for step in range(2):
        print(sess.run(total, {x: [1.0, 2.0 + step]}))
""",
}

# Logs of the same programs with other VLOG settings, for `make bench`'s mixes
# (bench/vlog_awk.py): name -> (program, environment over the default one).
VARIANTS = {
    # Everything at level 5 (Grappler's text-format GraphDefs and NodeDefs, allocator lines)
    # but the ~3,000 op registration lines every process prints at start.
    "counter_level5": ("counter", {"TF_CPP_MAX_VLOG_LEVEL": "5",
                                   "TF_CPP_VMODULE": "xla_op_registry=0,op=0"}),
    # Graph dumps and the executor's Process node lines only: mostly `||` lines.
    "mlp_train_dumps": ("mlp_train", {"TF_CPP_VMODULE": "function_utils=5,function=5,executor=1"}),
}

PROCESS_STEP = re.compile(r"(?:Process node|Synchronous kernel done|Async kernel done): \d+ step (-?\d+) ")


def run_program(name):
    program, settings = VARIANTS.get(name, (name, {}))
    env = dict(
        os.environ,
        TF_CPP_MIN_LOG_LEVEL="0",
        TF_CPP_MAX_VLOG_LEVEL="0",
        TF_CPP_VMODULE=VMODULE.replace(",log_memory=2", "") if name in WITHOUT_MEMORY else VMODULE,
        PYTHONUNBUFFERED="1",
    )
    env.update(settings)
    source = PROLOGUE + PROGRAMS[program]
    # stdout and stderr into one stream, as a user redirecting `2>&1` gets them.
    done = subprocess.run(
        [sys.executable, "-c", source], env=env, check=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    return done.stdout.decode("utf-8", "replace").splitlines(keepends=True)


def cut_at_step(lines, max_bytes):
    """The longest prefix of lines under max_bytes that ends just before a step's first line."""
    total = sum(len(line.encode()) for line in lines)
    if total <= max_bytes:
        return lines
    seen_steps = set()
    cut = 0
    size = 0
    for index, line in enumerate(lines):
        match = PROCESS_STEP.search(line)
        if match and match.group(1) not in seen_steps:
            seen_steps.add(match.group(1))
            if size > max_bytes:
                break
            cut = index
        size += len(line.encode())
    return lines[:cut] if cut else lines


ABSL_PREFIX = re.compile(r"^([IWEF])(\d{4}) (\d\d):(\d\d):(\d+)\.(\d{6}) +(\d+) ([^:\]]+):(\d+)\] ")
# Where each file lived in TF 1.x's tree, for the rewritten prefixes.
TF1_DIRS = {
    "executor.cc": "tensorflow/core/common_runtime",
    "function.cc": "tensorflow/core/common_runtime",
    "function_utils.cc": "tensorflow/core/common_runtime",
    "optimization_registry.cc": "tensorflow/core/common_runtime",
    "placer.cc": "tensorflow/core/common_runtime",
    "log_memory.cc": "tensorflow/core/framework",
    "meta_optimizer.cc": "tensorflow/core/grappler/optimizers",
}


def to_tf1x(line):
    """An absl-prefixed 2.x line with its prefix in TF 1.x's glog form; other lines as they are.

    2.21 prints `I0000 00:00:<epoch seconds>.<micros> <tid> file.cc:N] `; 1.x printed
    `2018-01-29 12:00:00.123456: I tensorflow/core/.../file.cc:N] ` (no thread id).
    """
    match = ABSL_PREFIX.match(line)
    if not match:
        return line
    severity, _date, _h, _m, seconds, micros, _tid, path, lineno = match.groups()
    when = datetime.datetime(2018, 1, 29, 12, 0, 0) + datetime.timedelta(
        seconds=int(seconds) % 3600
    )
    directory = TF1_DIRS.get(path, "tensorflow/core/platform")
    prefix = f"{when:%Y-%m-%d %H:%M:%S}.{micros}: {severity} {directory}/{path}:{lineno}] "
    return prefix + line[match.end():]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(PROGRAMS) + list(VARIANTS))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    for name in args.names:
        lines = cut_at_step(run_program(name), MAX_BYTES)
        (OUT / f"{name}.log").write_text("".join(lines))
        print(f"{name}.log: {len(lines)} lines, {sum(map(len, lines))} characters")
        if name == "counter":
            onex = [to_tf1x(line) for line in lines]
            (OUT / "counter_tf1x.log").write_text("".join(onex))
            print(f"counter_tf1x.log: {len(onex)} lines")


if __name__ == "__main__":
    main()
