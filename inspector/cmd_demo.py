"""`graph-inspector demo`: run the seed's programs in the engine and open what they made.

Two programs, each traced with FULL_TRACE and output_partition_graphs: the seed's counter
(a Variable, Add and Assign run three times) and an MLP training step (softmax cross entropy,
gradients, GradientDescent), its third step traced. In a terminal the TUI opens on them, with
every tensor the run computed in the Tensor tab; without one (stdout not a tty) the summary
`info` prints is written, and an SVG of each graph through views/dot.
"""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

from parsers.loaded import LabeledGraph, Loaded, TaggedRun
from views import outputs

# Ops not fetched again for the Tensor tab: fetching them would change state or run nothing.
_NOT_REFETCHED = {"Assign", "AssignAdd", "AssignSub", "NoOp", "VariableV2", "Variable",
                  "Placeholder", "ApplyGradientDescent"}
SEED = 7


def add_arguments(parser):
    parser.add_argument("-o", "--out", metavar="DIR",
                        help="without a terminal: where to write the SVGs "
                             "(default: graph-inspector-demo in the temp directory)")
    parser.add_argument("--no-tui", action="store_true", help="print and write SVGs even in a terminal")


def counter_program(tf):
    """The seed's add.py: a counter Variable, Add and Assign, the update run three times."""
    graph = tf.Graph()
    with graph.as_default():
        state = tf.Variable(0, name="counter")
        one = tf.constant(1)
        new_value = tf.add(state, one)
        update = tf.assign(state, new_value)
        init_op = tf.global_variables_initializer()
    return graph, init_op, update, {}, 3, []


def mlp_program(tf):
    """A two-layer perceptron trained by gradient descent on a batch of 4; three steps."""
    rng = np.random.default_rng(SEED)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
        labels = tf.placeholder(tf.float32, shape=[None, 2], name="labels")
        with tf.name_scope("layer1"):
            w1 = tf.Variable(rng.standard_normal((3, 8)).astype(np.float32), name="weights")
            b1 = tf.Variable(np.zeros(8, np.float32), name="biases")
            h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
        with tf.name_scope("layer2"):
            w2 = tf.Variable(rng.standard_normal((8, 2)).astype(np.float32), name="weights")
            b2 = tf.Variable(np.zeros(2, np.float32), name="biases")
            logits = tf.matmul(h1, w2) + b2
        loss = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits), name="loss")
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        init_op = tf.global_variables_initializer()
    feed = {x: rng.standard_normal((4, 3)).astype(np.float32),
            labels: np.eye(2, dtype=np.float32)[[0, 1, 1, 0]]}
    return graph, init_op, loss, feed, 3, [train]


def run_program(tf, name, program):
    """(GraphView, RunView) of one traced run, with the values its tensors had."""
    from engine.framework.traceback import useful_frames
    from views.tui.workspace import GraphView, RunView

    graph, init_op, fetch, feed, steps, targets = program(tf)
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, output_partition_graphs=True)
    metadata = tf.RunMetadata()
    values = {}
    with tf.Session(graph=graph) as sess:
        sess.run(init_op)
        for _ in range(steps - 1):
            sess.run([fetch] + targets, feed_dict=feed or None)
        result = sess.run([fetch] + targets, feed_dict=feed or None, options=options,
                          run_metadata=metadata)[0]
        values[fetch.name if hasattr(fetch, "name") and ":" in fetch.name else f"{fetch.name}:0"] = result
        tensors = [out for op in graph.get_operations() if op.type not in _NOT_REFETCHED
                   for out in op.outputs]
        try:
            for tensor, value in zip(tensors, sess.run(tensors, feed_dict=feed or None)):
                values[tensor.name] = np.asarray(value)
        except Exception:  # noqa: BLE001  (values are a bonus: the graph still shows)
            pass
    graph_def = graph.as_graph_def(add_shapes=True)  # edges drawn with their shapes
    view = GraphView(name, [graph_def], "engine")
    # The frames that matter, as TensorFlow's errors show them: up to the line that made the op.
    view.traces = {op.name: useful_frames(op.traceback) for op in graph.get_operations()}
    view.values = values
    run = RunView(f"{name} run", metadata, "engine")
    if metadata.partition_graphs:
        run.partitions = GraphView(f"{name} run partitions", list(metadata.partition_graphs),
                                   "engine", "partitions", run)
    return view, run


def make_workspace():
    import engine as tf
    from views.tui.workspace import Workspace

    workspace = Workspace()
    for name, program in (("counter", counter_program), ("mlp_train", mlp_program)):
        view, run = run_program(tf, name, program)
        workspace.graphs.append(view)
        workspace.runs.append(run)
        workspace.sources.append(name)
    return workspace


def run(args):
    tui = sys.stdout.isatty() and not args.no_tui
    out_dir = None
    if not tui:
        out_dir = outputs.check_output_dir(
            args.out or os.path.join(tempfile.gettempdir(), "graph-inspector-demo"))
    workspace = make_workspace()
    if tui:
        from views.tui import InspectorApp
        InspectorApp(workspace=workspace).run()
        return 0
    return print_and_draw(workspace, out_dir)


def print_and_draw(workspace, out_dir):
    """The summary of each program on stdout; an SVG (a .dot without Graphviz) of each graph
    in `out_dir`, said on stderr."""
    from inspector.cmd_info import summary_lines
    from views import dot

    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as error:
        raise outputs.OutputError(out_dir, f"cannot create: {error.strerror or error}") from None
    for view, run in zip(workspace.graphs, workspace.runs):
        loaded = Loaded(path=f"engine demo: {view.label}", kind="graphdef",
                        graphs=[LabeledGraph(view.label, view.graph_defs[0], "engine")],
                        run_metadata=[TaggedRun("", run.run_metadata, "engine")])
        print("\n".join(summary_lines(loaded)), flush=True)
        path = os.path.join(out_dir, f"{view.label}.svg")
        try:
            size = dot.export(view.graph_defs[0], path, dot.DotOptions(title=view.label))
            print(f"wrote {path} ({size} bytes)", file=sys.stderr)
        except dot.RenderError as error:
            path = os.path.join(out_dir, f"{view.label}.dot")
            dot.export(view.graph_defs[0], path, dot.DotOptions(title=view.label))
            print(f"wrote {path} (no SVG: {error})", file=sys.stderr)
        print()
    return 0
