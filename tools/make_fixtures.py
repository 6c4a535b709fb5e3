"""Writes tests/fixtures/ with real TensorFlow: program outputs, graphs, runs and containers.

Run with TensorFlow's own venv (tools/README.md):  .venv-tf/bin/python tools/make_fixtures.py
`--only PART` redoes one part (programs, graphs, runs, containers, dump). Parts that import
TensorFlow run in their own subprocess, because the graph mode (GI_TF_MODE, see tools/tf_shim)
and TF_DUMP_GRAPH_PREFIX are fixed per process. The programs in tests/programs/ are run through
tools/tf_shim, so `import engine as tf` in them means tensorflow.compat.v1.
"""

import argparse
import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
SHIM = REPO / "tools" / "tf_shim"
PROGRAMS = REPO / "tests" / "programs"
FIXTURES = REPO / "tests" / "fixtures"
PARTS = ("programs", "graphs", "runs", "containers", "dump")

# Fixture values come from one inter-op and one intra-op thread: the same order every time.
SINGLE_THREAD = {"inter_op_parallelism_threads": 1, "intra_op_parallelism_threads": 1}


@dataclass
class GraphSpec:
    """A graph fixture: which program's build() makes it and how the manifest runs it.

    fetches/targets/before name entries of build()'s dict (or pick them with a function);
    feeds maps an entry to a value, read from the program module by a function.
    """

    name: str
    program: str
    fetches: list | Callable
    feeds: Callable = lambda module: {}
    before: list = field(default_factory=list)
    targets: list = field(default_factory=list)
    steps: int = 1
    modes: tuple = ("v1",)
    device_count: dict | None = None
    error_runs: list = field(default_factory=list)


GRAPHS = [
    GraphSpec("counter", "counter", ["update"], before=["init"], steps=3, modes=("v1", "v2")),
    GraphSpec("identity_assign", "identity_assign", ["b", "b_i"], before=["init"], steps=2),
    GraphSpec("placeholder_square", "placeholder_square", ["y"],
              feeds=lambda m: {"x": [1.0, 2.0, 3.0]},
              error_runs=[{}, {"x": 37.0}]),
    GraphSpec("matmul_softmax", "matmul_softmax_trace", ["y", "output"], before=["init"]),
    GraphSpec("name_scopes", "name_scopes",
              lambda g: [g["c_0"], g["c_5"], g["c_6"], g["add_named"], g["scoped"], *g["split"]]),
    GraphSpec("monte_carlo_pi", "monte_carlo_pi",
              lambda g: [t for pair in g.values() for t in pair]),
    GraphSpec("mlp_forward", "mlp_forward", ["logits", "probs"], feeds=lambda m: {"x": m.INPUT},
              before=["init"], modes=("v1", "v2")),
    GraphSpec("while_loop", "while_loop", ["i", "a"], modes=("v1", "v2"),
              feeds=lambda m: {"a_in": [0.0] * 10}),
    GraphSpec("cond", "cond", ["positive", "negative"], feeds=lambda m: {"x": 3.0},
              modes=("v1", "v2")),
    GraphSpec("nested_while", "nested_while", ["i", "total"]),
    GraphSpec("mlp_train_sgd", "mlp_train_sgd", ["loss"], targets=["train"], before=["init"],
              feeds=lambda m: {"x": m.INPUTS, "labels": m.LABELS}, steps=3),
    GraphSpec("mlp_train_adam", "mlp_train_adam", ["loss"], targets=["train"], before=["init"],
              feeds=lambda m: {"x": m.INPUTS, "labels": m.LABELS}, steps=3),
    GraphSpec("cnn_train", "cnn_train", ["loss"], targets=["train"], before=["init"],
              feeds=lambda m: {"images": m.IMAGES, "labels": m.LABELS}, steps=2),
    GraphSpec("two_cpu", "two_cpu", ["doubled", "total"], feeds=lambda m: {"a": m.A},
              device_count={"CPU": 2}),
]


# ---------------------------------------------------------------- orchestration (no TensorFlow)

def tf_env(mode="v1", **extra):
    env = dict(os.environ)
    env.update(PYTHONPATH=str(SHIM), TF_CPP_MIN_LOG_LEVEL="3", TF_ENABLE_ONEDNN_OPTS="0",
               GI_TF_MODE=mode, PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="")
    env.update(extra)
    return env


def fresh_dir(path, keep=None):
    """`path` emptied (but for the files the glob `keep` matches: another tool's)."""
    kept = {p: p.read_bytes() for p in path.glob(keep)} if keep and path.is_dir() else {}
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    for kept_path, data in kept.items():
        kept_path.write_bytes(data)
    return path


# A program whose printed floats depend on how Eigen splits work across threads says so with
# a line "# fixture threads: 1 2 4": it runs once per intra-op thread count (tools/tf_shim reads
# GI_TF_INTRA_OP_THREADS), NAME.stdout from the first, NAME.threadsN.stdout from the others
# where they differ, and tests/engine/test_programs.py accepts any number within that spread.
# "# fixture args NAME: ARGS" runs it again with those arguments into NAME.NAME.stdout, the
# exit status on its last line.
THREADS_LINE = re.compile(r"^# fixture threads: ([\d ]+)$", re.M)
# A program run as a cluster's processes has its fixtures written by another tool.
OTHER_TOOL_LINE = re.compile(r"^# fixtures: tools/", re.M)
ARGS_LINE = re.compile(r"^# fixture args (\w+): (.*)$", re.M)


def run_program(program, args=(), threads=None, check=True):
    extra = {} if threads is None else {"GI_TF_INTRA_OP_THREADS": str(threads)}
    result = subprocess.run([sys.executable, str(program.relative_to(REPO)), *args], cwd=REPO,
                            env=tf_env(**extra), capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"{program.name} failed:\n{result.stderr[-3000:]}")
    return result


def run_programs(names=None):
    """Runs tests/programs/*.py (or those named) under real TensorFlow; keeps what they printed."""
    out = FIXTURES / "programs"
    if names:
        missing = set(names) - {p.stem for p in PROGRAMS.glob("*.py")}
        if missing:
            sys.exit(f"no such program: {sorted(missing)}")
    else:
        fresh_dir(out, keep="distributed_*.stdout")  # tools/make_distributed_fixtures.py's
    for program in sorted(PROGRAMS.glob("*.py")):
        if names and program.stem not in names:
            continue
        source = program.read_text()
        if OTHER_TOOL_LINE.search(source):
            continue
        mark = THREADS_LINE.search(source)
        counts = [int(n) for n in mark.group(1).split()] if mark else [None]
        outputs = [run_program(program, threads=n).stdout for n in counts]
        (out / f"{program.stem}.stdout").write_text(outputs[0])
        print(f"programs/{program.stem}.stdout")
        for n, text in zip(counts[1:], outputs[1:]):
            variant = out / f"{program.stem}.threads{n}.stdout"
            variant.unlink(missing_ok=True)
            if text != outputs[0]:
                variant.write_text(text)
                print(f"programs/{variant.name}")
        for name, args in ARGS_LINE.findall(source):
            result = run_program(program, shlex.split(args), counts[0], check=False)
            path = out / f"{program.stem}.{name}.stdout"
            path.write_text(f"{result.stdout}exit status: {result.returncode}\n")
            print(f"programs/{path.name}")


def run_part(part, mode="v1", **env):
    """Runs one part in a fresh process; its stderr (TensorFlow's logs) shows only on failure."""
    command = [sys.executable, str(Path(__file__).resolve()), "--part", part]
    result = subprocess.run(command, cwd=REPO, env=tf_env(mode, **env), stdout=None,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"{result.stderr[-5000:]}\nmake_fixtures: part {part} ({mode}) failed")


def orchestrate(parts):
    if "programs" in parts:
        run_programs()
    if "graphs" in parts:
        fresh_dir(FIXTURES / "graphs")
        run_part("graphs", "v1")
        run_part("graphs", "v2")
    if "runs" in parts:
        fresh_dir(FIXTURES / "runs")
        run_part("runs")
    if "containers" in parts:
        (FIXTURES / "containers").mkdir(parents=True, exist_ok=True)
        for path in (FIXTURES / "containers").glob("*"):
            if path.name != "dump_dir" and not path.name.startswith("dump_dir."):
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        run_part("containers")
    if "dump" in parts:
        with tempfile.TemporaryDirectory() as prefix:
            run_part("dump", TF_DUMP_GRAPH_PREFIX=prefix, TF_CPP_MAX_VLOG_LEVEL="2",
                     TF_CPP_MIN_LOG_LEVEL="0", GI_DUMP_PREFIX=prefix)


# ---------------------------------------------------------------- in-process parts (TensorFlow)

def import_tf():
    sys.path[:0] = [str(SHIM), str(PROGRAMS)]
    import engine as tf  # the shim: tensorflow.compat.v1 in the mode GI_TF_MODE names

    return tf


def relative_file(path):
    """Stack-trace file names without this machine's prefixes: repo-relative, or from site-packages."""
    marker = "/site-packages/"
    if marker in path:
        return path[path.index(marker) + len(marker):]
    return path[len(str(REPO)) + 1:] if path.startswith(str(REPO) + "/") else path


def graph_def_with_debug_info(graph):
    from tensorflow.python.framework import error_interpolation

    graph_def = graph.as_graph_def()
    info = error_interpolation.create_graph_debug_info_def(
        [("", op) for op in graph.get_operations()])
    files = [relative_file(f) for f in info.files]
    del info.files[:]
    info.files.extend(files)
    graph_def.debug_info.CopyFrom(info)
    return graph_def


def node_json(node):
    entry = {"name": node.name, "op": node.op, "inputs": list(node.input), "device": node.device,
             "attr_keys": sorted(node.attr)}
    if node.op in ("_Send", "_Recv", "_HostSend", "_HostRecv"):
        for key in ("tensor_name", "send_device", "recv_device"):
            entry[key] = node.attr[key].s.decode()
    return entry


def graph_json(graph_def):
    """How TensorFlow's own GraphDef class reads a graph: nodes in order, library function names."""
    return {"nodes": [node_json(n) for n in graph_def.node],
            "functions": [f.signature.name for f in graph_def.library.function]}


def write_json(path, data):
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")


def write_text_proto(path, message):
    from google.protobuf import text_format

    path.write_text(text_format.MessageToString(message))


def session_config(tf, device_count=None, single_thread=True):
    options = dict(SINGLE_THREAD) if single_thread else {}
    if device_count:
        options["device_count"] = device_count
    return tf.ConfigProto(**options)


def graph_element_name(graph, piece):
    element = graph.as_graph_element(piece, allow_tensor=True, allow_operation=True)
    return element.name


def npz_key(tensor_name):
    return tensor_name.replace(":", "__")


def feed_entry(stem, tensor_name, value, np):
    """Small feeds inline in the manifest, bigger ones as .npy next to it."""
    array = np.asarray(value)
    if array.size <= 8 and array.ndim <= 1:
        return array.tolist()
    file = f"{stem}.feed_{tensor_name.split(':')[0].replace('/', '_')}.npy"
    np.save(FIXTURES / "graphs" / file, array.astype(np.float32 if array.dtype == np.float64
                                                     else array.dtype))
    return {"npy": file}


def first_line(error):
    lines = str(error).splitlines() or [""]
    if lines[0].startswith("Graph execution error"):
        for before, line in zip(lines, lines[1:]):
            if before.startswith("Node: "):
                return line
    return lines[0]


def make_graph(tf, spec, mode):
    import numpy as np

    module = importlib.import_module(spec.program)
    stem = spec.name if mode == "v1" else f"{spec.name}_v2"
    out = FIXTURES / "graphs"
    graph = tf.Graph()
    with graph.as_default():
        pieces = module.build()
    graph_def = graph_def_with_debug_info(graph)
    tf.io.write_graph(graph_def, str(out), f"{stem}.pb", as_text=False)
    tf.io.write_graph(graph_def, str(out), f"{stem}.pbtxt", as_text=True)

    def element(key):
        return pieces[key] if isinstance(key, str) else key

    fetch_pieces = spec.fetches(pieces) if callable(spec.fetches) else [pieces[k] for k in spec.fetches]
    fetches = [graph_element_name(graph, p) for p in fetch_pieces]
    targets = [graph_element_name(graph, element(k)) for k in spec.targets]
    before = [graph_element_name(graph, element(k)) for k in spec.before]
    feed_values = {graph_element_name(graph, pieces[k]): v for k, v in spec.feeds(module).items()}

    rows = []
    with tf.Session(graph=graph, config=session_config(tf, spec.device_count)) as sess:
        for op in before:
            sess.run(op)
        for _ in range(spec.steps):
            rows.append(sess.run(fetches + targets, feed_values)[:len(fetches)])
        errors = [error_case(sess, graph, pieces, fetches, feeds) for feeds in spec.error_runs]
    values = {npz_key(name): np.stack([np.asarray(row[i]) for row in rows]) if spec.steps > 1
              else np.asarray(rows[0][i]) for i, name in enumerate(fetches)}
    np.savez(out / f"{stem}.values.npz", **values)

    manifest = {"fetches": fetches,
                "feeds": {n: feed_entry(stem, n, v, np) for n, v in feed_values.items()},
                "before": before, "targets": targets, "mode": mode, "values": f"{stem}.values.npz"}
    if spec.steps > 1:
        manifest["steps"] = spec.steps
    if spec.device_count:
        manifest["config"] = {"device_count": spec.device_count}
    if errors:
        manifest["errors"] = errors
    write_json(out / f"{stem}.json", manifest)

    parsed = tf.GraphDef()
    parsed.ParseFromString((out / f"{stem}.pb").read_bytes())
    write_json(out / f"{stem}.tf.json", graph_json(parsed))
    print(f"graphs/{stem}: {len(parsed.node)} nodes, fetches {fetches}")


def error_case(sess, graph, pieces, fetches, feeds):
    """Runs the fetches with wrong feeds; records TensorFlow's error class, first line and node."""
    feed_dict = {graph_element_name(graph, pieces[k]): v for k, v in feeds.items()}
    try:
        sess.run(fetches, feed_dict)
    except Exception as error:  # noqa: BLE001 - recording whichever error TensorFlow raises
        case = {"fetches": fetches, "feeds": feed_dict, "error": type(error).__name__,
                "message": first_line(error)}
        if getattr(error, "op", None) is not None:
            case["node"] = error.op.name
        return case
    raise AssertionError(f"expected an error for feeds {feeds}")


def part_graphs(tf):
    mode = tf.MODE
    for spec in GRAPHS:
        if mode in spec.modes:
            make_graph(tf, spec, mode)


def traced_run(tf, program, feeds=None, device_count=None):
    """Builds a program's graph and runs its fetches once under FULL_TRACE; returns RunMetadata."""
    module = importlib.import_module(program)
    graph = tf.Graph()
    with graph.as_default():
        pieces = module.build()
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, output_partition_graphs=True)
    metadata = tf.RunMetadata()
    config = session_config(tf, device_count, single_thread=False)
    with tf.Session(graph=graph, config=config) as sess:
        if "init" in pieces:
            sess.run(pieces["init"])
        feed_dict = {pieces[k]: v for k, v in (feeds or {}).items()}
        sess.run(fetches_of(program, pieces), feed_dict, options=options, run_metadata=metadata)
    return graph, metadata


def fetches_of(program, pieces):
    spec = next(s for s in GRAPHS if s.program == program)
    return [pieces[k] for k in spec.fetches]


def run_metadata_json(metadata):
    return {"devices": [{"device": d.device,
                         "nodes": [{"node_name": n.node_name, "timeline_label": n.timeline_label}
                                   for n in d.node_stats]}
                        for d in metadata.step_stats.dev_stats],
            "partition_graphs": [graph_json(g) for g in metadata.partition_graphs]}


def write_run(tf, name, metadata):
    out = FIXTURES / "runs"
    (out / f"{name}.pb").write_bytes(metadata.SerializeToString())
    write_text_proto(out / f"{name}.pbtxt", metadata)
    parsed = tf.RunMetadata()
    parsed.ParseFromString((out / f"{name}.pb").read_bytes())
    write_json(out / f"{name}.tf.json", run_metadata_json(parsed))
    print(f"runs/{name}: {len(parsed.partition_graphs)} partition graphs, "
          f"{[d.device for d in parsed.step_stats.dev_stats]}")


def part_runs(tf):
    import two_cpu

    _, metadata = traced_run(tf, "matmul_softmax_trace")
    write_run(tf, "matmul_softmax", metadata)
    _, metadata = traced_run(tf, "two_cpu", {"a": two_cpu.A}, device_count={"CPU": 2})
    write_run(tf, "two_cpu", metadata)


def meta_graph_json(meta_graph):
    return {"tags": list(meta_graph.meta_info_def.tags),
            "signatures": sorted(meta_graph.signature_def),
            "collections": sorted(meta_graph.collection_def),
            "stripped_ops": sorted(op.name for op in meta_graph.meta_info_def.stripped_op_list.op),
            **graph_json(meta_graph.graph_def)}


def part_containers(tf):
    import mlp_forward
    from tensorflow.core.protobuf import meta_graph_pb2, saved_model_pb2

    out = FIXTURES / "containers"

    # A MetaGraphDef as Saver writes it next to a checkpoint.
    graph = tf.Graph()
    with graph.as_default():
        mlp_forward.build()
        saver = tf.train.Saver()
        saver.export_meta_graph(str(out / "mlp.meta"))
        saver.export_meta_graph(str(out / "mlp.meta.pbtxt"), as_text=True)
    meta = meta_graph_pb2.MetaGraphDef()
    meta.ParseFromString((out / "mlp.meta").read_bytes())
    write_json(out / "mlp.meta.tf.json", meta_graph_json(meta))
    print(f"containers/mlp.meta: {len(meta.graph_def.node)} nodes")

    # A SavedModel with a serving signature; its variables are a few hundred bytes.
    graph = tf.Graph()
    with graph.as_default():
        pieces = mlp_forward.build()
        signature = tf.saved_model.predict_signature_def(
            inputs={"x": pieces["x"]}, outputs={"probs": pieces["probs"], "logits": pieces["logits"]})
        builder = tf.saved_model.Builder(str(out / "saved_model_mlp"))
        with tf.Session(graph=graph, config=session_config(tf)) as sess:
            sess.run(pieces["init"])
            builder.add_meta_graph_and_variables(
                sess, [tf.saved_model.tag_constants.SERVING],
                signature_def_map={"serving_default": signature})
        builder.save()
    saved = saved_model_pb2.SavedModel()
    saved.ParseFromString((out / "saved_model_mlp" / "saved_model.pb").read_bytes())
    write_json(out / "saved_model_mlp.tf.json", {
        "saved_model_schema_version": saved.saved_model_schema_version,
        "files": sorted(str(p.relative_to(out / "saved_model_mlp"))
                        for p in (out / "saved_model_mlp").rglob("*") if p.is_file()),
        "meta_graphs": [{**meta_graph_json(m), "signature_defs": signature_json(m)}
                        for m in saved.meta_graphs]})
    print("containers/saved_model_mlp")

    write_events(tf, out)


def signature_json(meta_graph):
    return {name: {"method_name": sig.method_name,
                   "inputs": {k: v.name for k, v in sorted(sig.inputs.items())},
                   "outputs": {k: v.name for k, v in sorted(sig.outputs.items())}}
            for name, sig in sorted(meta_graph.signature_def.items())}


EVENTS_NAME = "events.out.tfevents.1700000000.graph-inspector"


def write_events(tf, out):
    """A TensorBoard log: the graph, a FULL_TRACE run as tagged run metadata, one scalar."""
    logdir = fresh_dir(out / "events")
    graph, metadata = traced_run(tf, "matmul_softmax_trace")
    writer = tf.summary.FileWriter(str(logdir), graph)
    writer.add_run_metadata(metadata, "step1", global_step=1)
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.25)]), 1)
    writer.close()
    # The writer names the file after the clock and this host; one stable name instead.
    (written,) = logdir.glob("events.out.tfevents.*")
    written.rename(logdir / EVENTS_NAME)

    events = []
    for event in tf.train.summary_iterator(str(logdir / EVENTS_NAME)):
        what = event.WhichOneof("what")
        entry = {"wall_time": event.wall_time, "step": event.step, "what": what}
        if what == "graph_def":
            graph_def = tf.GraphDef()
            graph_def.ParseFromString(event.graph_def)
            entry["graph"] = graph_json(graph_def)
        elif what == "tagged_run_metadata":
            run = tf.RunMetadata()
            run.ParseFromString(event.tagged_run_metadata.run_metadata)
            entry["tag"] = event.tagged_run_metadata.tag
            entry["run_metadata"] = run_metadata_json(run)
        elif what == "summary":
            entry["tags"] = [v.tag for v in event.summary.value]
        elif what == "file_version":
            entry["file_version"] = event.file_version
        events.append(entry)
    write_json(out / "events.tf.json", {"file": f"events/{EVENTS_NAME}", "events": events})
    print(f"containers/events: {[e['what'] for e in events]}")


DUMP_KEEP = ("partition_", "after_MetaOptimizer", "EnsureMemoryTypes", "before_replicate")


def part_dump(tf):
    """Runs two_cpu with TF_DUMP_GRAPH_PREFIX and VLOG 2 set; keeps a handful of the dumps."""
    from google.protobuf import text_format

    import two_cpu

    prefix = Path(os.environ["GI_DUMP_PREFIX"])
    graph = tf.Graph()
    with graph.as_default():
        pieces = two_cpu.build()
    with tf.Session(graph=graph, config=two_cpu.config()) as sess:
        sess.run([pieces["doubled"], pieces["total"]], {pieces["a"]: two_cpu.A})
    written = sorted(p.name for p in prefix.iterdir())
    out = fresh_dir(FIXTURES / "containers" / "dump_dir")
    files = []
    for name in written:
        if name.startswith(DUMP_KEEP):
            shutil.copy(prefix / name, out / name)
            graph_def = text_format.Parse((prefix / name).read_text(), tf.GraphDef())
            files.append({"file": name, **graph_json(graph_def)})
    write_json(FIXTURES / "containers" / "dump_dir.tf.json", {
        "how": "two_cpu.py run with TF_DUMP_GRAPH_PREFIX=<dir> TF_CPP_MAX_VLOG_LEVEL=2",
        "written": written, "kept": files})
    print(f"containers/dump_dir: kept {[f['file'] for f in files]} of {len(written)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=PARTS, help="redo only this part")
    parser.add_argument("--program", action="append",
                        help="with --only programs: redo only this program's fixtures")
    parser.add_argument("--part", choices=PARTS, help=argparse.SUPPRESS)  # the subprocess side
    args = parser.parse_args()
    if args.part:
        tf = import_tf()
        {"graphs": part_graphs, "runs": part_runs, "containers": part_containers,
         "dump": part_dump}[args.part](tf)
    elif args.program:
        run_programs(args.program)
    else:
        orchestrate(args.only or PARTS)


if __name__ == "__main__":
    main()
