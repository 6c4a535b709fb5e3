"""A TF1 training loop with tf.train.ProfilerHook, for TensorFlow
(tools/make_profiler_hook_fixtures.py) and the engine (test_profiler_hook.py)."""

import json
import os


def run(tf, output_dir, steps=5, save_steps=2):
    """Trains `steps` steps in a MonitoredSession with a ProfilerHook; returns the losses."""
    losses = []
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        loss = tf.reduce_sum(tf.square(w - 3.0), name="loss")
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        hook = tf.train.ProfilerHook(save_steps=save_steps, output_dir=output_dir)
        with tf.train.MonitoredSession(hooks=[hook]) as session:
            for _ in range(steps):
                losses.append(float(session.run([train, loss])[1]))
    return losses


TRACED = ("w", "sub", "loss", "GradientDescent/update_w/ApplyGradientDescent")


def summarize(output_dir):
    """{file: {processes, ops: sorted [op type, node name] of the X events, event kinds}}."""
    found = {}
    for name in sorted(os.listdir(output_dir)):
        if not name.startswith("timeline-"):
            continue
        with open(os.path.join(output_dir, name)) as f:
            text = f.read()
        events = json.loads(text)["traceEvents"]
        found[name] = {
            "processes": [e["args"]["name"].split(" ")[-1] for e in events if e["ph"] == "M"],
            "ops": sorted([e["name"], e["args"]["name"]] for e in events if e["ph"] == "X"
                          and e["args"]["name"] in TRACED),
            # Flow events ("s", "t") join lanes of overlapping ops: TensorFlow runs ops in
            # parallel, the engine one after another (one lane, no flows).
            "kinds": sorted({e["ph"] for e in events} - {"s", "t"}),
            "keys": sorted({key for e in events if e["ph"] == "X" for key in e}),
            "indent": text.splitlines()[1],
        }
    return found


def fixed_step_stats(step_stats_pb2):
    """A StepStats with fixed times, labels and outputs, for Timeline's exact JSON."""
    stats = step_stats_pb2.StepStats()
    device = stats.dev_stats.add(device="/job:localhost/replica:0/task:0/device:CPU:0")
    for name, label, start, duration in (
            ("x", "x = Const()", 10, 2), ("y", "y = Const()", 11, 3),
            ("add", "add = AddV2(x, y)", 15, 4), ("out", "out = Neg(add)", 20, 1)):
        node = device.node_stats.add(node_name=name, timeline_label=label,
                                     all_start_micros=start, all_end_rel_micros=duration)
        output = node.output.add(slot=0)
        output.tensor_description.allocation_description.requested_bytes = 8
        output.tensor_description.allocation_description.allocator_name = "cpu"
    return stats
