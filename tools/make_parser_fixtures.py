"""Write tests/fixtures/parsers/: the parsers' extra containers, made by real TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_parser_fixtures.py`.
Each fixture gets a `<name>.tf.json` saying how TensorFlow's own classes read it back:
  {"graphs": [{"label", "nodes": [{"name", "op", "inputs", "device", "attr_keys"}],
               "functions": [names]}],
   "run_metadata": [{"tag", "devices": {device: [node names]}, "partition_graphs": int}],
   "meta_graphs": [{"tags": [...], "signatures": {key: {"inputs": {..}, "outputs": {..}}}}],
   "events": [event kind, ...]}
Fixtures stay small (KBs): a few ops per graph.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "parsers"


def graph_json(graph_def, label):
    """A GraphDef as the .tf.json `graphs` entry."""
    return {
        "label": label,
        "nodes": [
            {
                "name": node.name,
                "op": node.op,
                "inputs": list(node.input),
                "device": node.device,
                "attr_keys": sorted(node.attr.keys()),
            }
            for node in graph_def.node
        ],
        "functions": [function.signature.name for function in graph_def.library.function],
    }


def run_json(run_metadata, tag):
    devices = {}
    for dev_stats in run_metadata.step_stats.dev_stats:
        devices.setdefault(dev_stats.device, []).extend(n.node_name for n in dev_stats.node_stats)
    return {
        "tag": tag,
        "devices": devices,
        "partition_graphs": len(run_metadata.partition_graphs),
        "partition_graph_nodes": [[n.name for n in g.node] for g in run_metadata.partition_graphs],
    }


def write_json(name, payload):
    (OUT / f"{name}.tf.json").write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")


def small_program(tf):
    """A TF1 program: a placeholder, a ref variable, a resource variable, a matmul."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2], name="x")
        w = tf.compat.v1.Variable([[1.0, 2.0], [3.0, 4.0]], name="w", use_resource=False)
        b = tf.compat.v1.Variable([0.5, -0.5], name="b", use_resource=True)
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        total = tf.reduce_sum(y, name="total")
        init = tf.compat.v1.global_variables_initializer()
    return graph, x, y, total, init


def make_run_metadata(tf):
    """A FULL_TRACE RunMetadata with partition graphs, in binary and text."""
    from google.protobuf import text_format

    graph, x, y, total, init = small_program(tf)
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init)
        options = tf.compat.v1.RunOptions(
            trace_level=tf.compat.v1.RunOptions.FULL_TRACE, output_partition_graphs=True
        )
        run_metadata = tf.compat.v1.RunMetadata()
        session.run(total, {x: [[1.0, 1.0]]}, options=options, run_metadata=run_metadata)
    (OUT / "run_metadata.pb").write_bytes(run_metadata.SerializeToString())
    (OUT / "run_metadata.pbtxt").write_text(text_format.MessageToString(run_metadata))
    payload = {
        "graphs": [graph_json(g, f"partition {i}") for i, g in enumerate(run_metadata.partition_graphs)],
        "run_metadata": [run_json(run_metadata, "")],
    }
    write_json("run_metadata", payload)
    return graph, run_metadata


def make_events_dir(tf, graph, run_metadata):
    """An events directory with two files: graph + run metadata, then meta graph + scalars."""
    from tensorflow.python.framework import meta_graph

    directory = OUT / "events_dir"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir()
    events = []
    writer = tf.compat.v1.summary.FileWriter(str(directory), graph=graph, filename_suffix=".a")
    writer.add_run_metadata(run_metadata, "step_1", global_step=1)
    writer.close()
    events.append(str(next(directory.glob("*.a"))))
    time.sleep(1.1)  # events file names carry the second they were made in
    writer = tf.compat.v1.summary.FileWriter(str(directory), filename_suffix=".b")
    writer.add_meta_graph(meta_graph.create_meta_graph_def(graph=graph))
    summary = tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(tag="loss", simple_value=0.25)])
    writer.add_summary(summary, global_step=2)
    writer.add_run_metadata(run_metadata, "step_2", global_step=2)
    writer.close()

    # What TensorFlow's own reader sees, file by file, record by record.
    files = sorted(p for p in directory.iterdir())
    per_file = []
    graphs, runs = [], []
    for path in files:
        kinds = []
        for event in tf.compat.v1.train.summary_iterator(str(path)):
            kind = event.WhichOneof("what")
            kinds.append(kind)
            if kind == "graph_def":
                graph_def = tf.compat.v1.GraphDef.FromString(event.graph_def)
                graphs.append(graph_json(graph_def, f"{path.name}: graph_def"))
            elif kind == "meta_graph_def":
                meta = tf.compat.v1.MetaGraphDef.FromString(event.meta_graph_def)
                graphs.append(graph_json(meta.graph_def, f"{path.name}: meta_graph_def"))
            elif kind == "tagged_run_metadata":
                rm = tf.compat.v1.RunMetadata.FromString(event.tagged_run_metadata.run_metadata)
                runs.append(run_json(rm, event.tagged_run_metadata.tag))
        per_file.append({"file": path.name, "events": kinds})
    write_json("events_dir", {"files": per_file, "graphs": graphs, "run_metadata": runs})


def make_saved_model(tf):
    """A SavedModel with two meta graphs (serve, train), each with a signature."""
    directory = OUT / "saved_model_two"
    shutil.rmtree(directory, ignore_errors=True)
    graph, x, y, total, init = small_program(tf)
    builder = tf.compat.v1.saved_model.Builder(str(directory))
    signature = tf.compat.v1.saved_model.predict_signature_def({"x": x}, {"y": y})
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init)
        builder.add_meta_graph_and_variables(
            session, ["serve"], signature_def_map={"serving_default": signature}
        )
        train_signature = tf.compat.v1.saved_model.predict_signature_def({"x": x}, {"total": total})
        builder.add_meta_graph(["train", "gpu"], signature_def_map={"sum": train_signature})
    builder.save()
    shutil.rmtree(directory / "variables", ignore_errors=True)  # the parsers never read them

    from tensorflow.core.protobuf import saved_model_pb2

    saved_model = saved_model_pb2.SavedModel.FromString((directory / "saved_model.pb").read_bytes())
    metas, graphs = [], []
    for meta in saved_model.meta_graphs:
        tags = list(meta.meta_info_def.tags)
        signatures = {
            key: {
                "method_name": sig.method_name,
                "inputs": {k: v.name for k, v in sig.inputs.items()},
                "outputs": {k: v.name for k, v in sig.outputs.items()},
            }
            for key, sig in meta.signature_def.items()
        }
        metas.append({"tags": tags, "signatures": signatures})
        graphs.append(graph_json(meta.graph_def, ",".join(tags)))
    write_json("saved_model_two", {"meta_graphs": metas, "graphs": graphs})


def make_function_library(tf):
    """A TF1 graph whose cond and while loop become functions (control flow v2)."""
    tf.compat.v1.enable_control_flow_v2()
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0, name="branch")
        _, z = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v + y), [0, y], name="loop")
        tf.identity(z, name="out")
    graph_def = graph.as_graph_def()
    (OUT / "functions.pb").write_bytes(graph_def.SerializeToString())
    write_json("functions", {"graphs": [graph_json(graph_def, "functions.pb")]})
    tf.compat.v1.disable_control_flow_v2()


def make_debug_info(tf):
    """A GraphDef carrying GraphDebugInfo: where in Python each node was made."""
    from google.protobuf import text_format
    from tensorflow.python.framework import error_interpolation

    graph, *_ = small_program(tf)
    graph_def = graph.as_graph_def()
    debug_info = error_interpolation.create_graph_debug_info_def(
        [("", op) for op in graph.get_operations()]
    )
    graph_def.debug_info.CopyFrom(debug_info)
    (OUT / "debug_info.pbtxt").write_text(text_format.MessageToString(graph_def))
    payload = graph_json(graph_def, "debug_info.pbtxt")
    payload["debug_info_traces"] = sorted(graph_def.debug_info.traces.keys())
    write_json("debug_info", {"graphs": [payload]})


DUMP_SCRIPT = """
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
y = tf.identity(x * 2.0 + 1.0, name="y")
with tf.compat.v1.Session() as session:
    session.run(y, {x: [1.0, 2.0]})
"""


def make_dump_dir():
    """A TF_DUMP_GRAPH_PREFIX directory: the graph as each pass of a Session.run left it.

    Also keeps the head of that run's VLOG output as vlog.txt. Git does not keep mtimes, so
    the true pass order (by mtime when TensorFlow wrote them) goes into dump_dir.tf.json.
    """
    directory = OUT / "dump_dir"
    shutil.rmtree(directory, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        # Dumps are written only with VLOG on; the name filter adds the numbered per-group dumps.
        env = dict(
            os.environ,
            TF_DUMP_GRAPH_PREFIX=scratch,
            TF_DUMP_GRAPH_NAME_FILTER="*",
            TF_CPP_MIN_LOG_LEVEL="0",
            TF_CPP_MAX_VLOG_LEVEL="1",
        )
        log = subprocess.run(
            [sys.executable, "-c", DUMP_SCRIPT], env=env, check=True, capture_output=True, text=True
        ).stderr
        (OUT / "vlog.txt").write_text("".join(log.splitlines(keepends=True)[:60]))
        files = sorted(Path(scratch).iterdir(), key=lambda p: p.stat().st_mtime_ns)
        directory.mkdir()
        # Keep pass order through the copy: mtimes one second apart, in the order written.
        base = time.time() - len(files)
        order = []
        for index, path in enumerate(files):
            target = directory / path.name
            shutil.copyfile(path, target)
            os.utime(target, (base + index, base + index))
            order.append(path.name)
    import tensorflow as tf
    from google.protobuf import text_format

    graphs = [
        graph_json(text_format.Parse((directory / name).read_text(), tf.compat.v1.GraphDef()), name)
        for name in order
    ]
    write_json("dump_dir", {"files_in_order": order, "graphs": graphs})


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    OUT.mkdir(parents=True, exist_ok=True)
    graph, run_metadata = make_run_metadata(tf)
    make_events_dir(tf, graph, run_metadata)
    make_saved_model(tf)
    make_function_library(tf)
    make_debug_info(tf)
    make_dump_dir()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
