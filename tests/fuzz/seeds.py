"""The fuzz seed corpus: every container kind (checkpoints, SavedModels and TFRecords among
them), the text formats, and the hostile inputs of issues 18 and 33.

`build(directory, big)` writes the seeds and returns {name: path}. With big=True the bombs are
full size (a 10 MB quoted string, scopes 1,500 deep); otherwise they are scaled down for the
default run. MUTABLE_DIRECTORIES are the directory seeds the fuzzer damages one file of.
"""

import os
import shutil
import struct
import sys
from pathlib import Path

from engine.proto import graph_pb2

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
sys.path.insert(0, str(ROOT / "tests" / "engine"))
import hostile_file_cases  # noqa: E402  (TFRecord framing of hostile lengths)

# Real files TensorFlow wrote: one of every kind the tool reads.
REAL = {
    "graphdef.pb": FIXTURES / "graphs" / "cond.pb",
    "graphdef.pbtxt": FIXTURES / "graphs" / "while_loop.pbtxt",
    "functions.pb": FIXTURES / "parsers" / "functions.pb",
    "metagraph.meta": FIXTURES / "containers" / "mlp.meta",
    "model.keras": FIXTURES / "keras" / "two_inputs.keras",
    "model.h5": FIXTURES / "keras" / "nested.h5",
    "model.tflite": FIXTURES / "keras" / "tiny.tflite",
    "run_metadata.pb": FIXTURES / "parsers" / "run_metadata.pb",
    "run_metadata.pbtxt": FIXTURES / "parsers" / "run_metadata.pbtxt",
    "two_cpu.pb": FIXTURES / "graphs" / "two_cpu.pb",
    "events": sorted((FIXTURES / "parsers" / "events_dir").iterdir())[0],
    "vlog.log": sorted((ROOT / "sample_logs").glob("*.log"))[0],
    "records.tfrecord": FIXTURES / "tf_record" / "records.plain.tfrecord",
    "records.zlib.tfrecord": FIXTURES / "tf_record" / "records.zlib.tfrecord",
}
REAL_DIRECTORIES = {
    "saved_model": FIXTURES / "containers" / "saved_model_mlp",
    "saved_model_builder": FIXTURES / "saved_model" / "builder",
    "dump_dir": FIXTURES / "parsers" / "dump_dir",
    "events_dir": FIXTURES / "parsers" / "events_dir",
    "checkpoint_dir": FIXTURES / "checkpoints" / "dtypes",
    "checkpoint_sharded": FIXTURES / "checkpoints" / "sharded",
    "checkpoint_partitioned": FIXTURES / "checkpoints" / "partitioned",
}
# Directory seeds a case damages one file of (a copy): checkpoints and SavedModels.
MUTABLE_DIRECTORIES = {"saved_model", "saved_model_builder", "checkpoint_dir",
                       "checkpoint_sharded", "checkpoint_partitioned", "checkpoint_prefix"}


def _graph(nodes):
    graph = graph_pb2.GraphDef()
    for name, op, inputs in nodes:
        graph.node.add(name=name, op=op, input=inputs)
    return graph


def _const(graph, name, dtype=1, dims=(), value=None):
    node = graph.node.add(name=name, op="Const")
    node.attr["dtype"].type = dtype
    tensor = node.attr["value"].tensor
    tensor.dtype = dtype
    for size in dims:
        tensor.tensor_shape.dim.add(size=size)
    if value is not None:
        (tensor.string_val if dtype == 7 else tensor.float_val).append(value)
    return node


def _identity(graph, name, source, dtype=1):
    node = graph.node.add(name=name, op="Identity", input=[source])
    node.attr["T"].type = dtype
    return node


def hostile_graphs(big):
    """name -> GraphDef of each hostile class."""
    depth = 3000 if big else 800
    graphs = {}
    deep = _graph([("/".join(f"s{i}" for i in range(depth)), "NoOp", []), ("top", "NoOp", [])])
    graphs["deep_names.pb"] = deep
    chain = graph_pb2.GraphDef()
    _const(chain, "c", value=1.0)
    for i in range(depth):
        _identity(chain, f"id{i}", f"id{i - 1}" if i else "c")
    graphs["identity_chain.pb"] = chain
    loop = graph_pb2.GraphDef()
    _const(loop, "c", value=0.0)
    enter = _identity(loop, "while/Enter", "c")
    enter.op = "Enter"
    enter.attr["frame_name"].s = b"while/while_context"
    merge = loop.node.add(name="while/Merge", op="Merge", input=["while/Enter", "while/NextIteration_1:7"])
    merge.attr["T"].type, merge.attr["N"].i = 1, 2
    _identity(loop, "while/NextIteration_1", "while/Merge").op = "NextIteration"
    graphs["next_iteration_index.pb"] = loop
    superscript = graph_pb2.GraphDef()
    _const(superscript, "x", value=1.0)
    _identity(superscript, "y", "x:\u00b2")
    graphs["superscript_index.pb"] = superscript
    absurd = graph_pb2.GraphDef()
    _const(absurd, "c", dims=(10**6, 10**6))
    _const(absurd, "s", dtype=7, dims=(10**9,), value=b"x")
    graphs["absurd_consts.pb"] = absurd
    names = graph_pb2.GraphDef()
    for name in ["x\\", '<<IMG SRC="/etc/passwd"/>>', "esc\x1b[31mred", "new\nline", "nul\x00z", "a:b:c"]:
        names.node.add(name=name, op="NoOp", device="/device:CPU:\x1b[2J0")
    graphs["escape_names.pb"] = names
    graphs["cycle.pb"] = _cycle()
    return graphs


def _cycle():
    """a = c + b, b = a + c, d = -b: a cycle through non-loop nodes (TensorFlow refuses it)."""
    graph = graph_pb2.GraphDef()
    _const(graph, "c", value=1.0)
    for name, op, inputs in (("a", "AddV2", ["c", "b"]), ("b", "AddV2", ["a", "c"]),
                             ("d", "Neg", ["b"])):
        graph.node.add(name=name, op=op, input=inputs).attr["T"].type = 1
    return graph


def deep_scopes(depth, per_level=3):
    """layer1/layer1/.../Add_k, per_level nodes a level, each reading the one before: numbered
    scopes hundreds deep, which dot weighs as series level by level."""
    graph, scope, previous = graph_pb2.GraphDef(), "", None
    for _ in range(depth):
        scope = f"{scope}/layer1" if scope else "layer1"
        for k in range(per_level):
            node = graph.node.add(name=f"{scope}/Add_{k}" if k else f"{scope}/Add", op="AddV2")
            node.attr["T"].type = 1
            if previous:
                node.input.append(previous)
            previous = node.name
    return graph


def _events_with_graph(graph):
    """A TensorBoard events file: its file_version event, then the graph."""
    from engine.proto import event_pb2

    events = [event_pb2.Event(wall_time=1.0, file_version="brain.Event:2"),
              event_pb2.Event(wall_time=2.0, step=0, graph_def=graph.SerializeToString())]
    return b"".join(hostile_file_cases.record(event.SerializeToString()) for event in events)


def _text_bombs(big):
    size = 10_000_000 if big else 1_000_000
    return {
        "long_string.pbtxt": 'node { name: "' + "a" * size + '" op: "NoOp" }\n',
        "long_comment.pbtxt": "#" + "c" * size + '\nnode { name: "n" op: "NoOp" }\n',
        "long_word.pbtxt": "w" * size + " { }\n",
    }


def build(directory, big=False):
    """Write every seed under `directory`; {name: path} (directories and special files too)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    seeds = {}
    for name, source in REAL.items():
        seeds[name] = directory / name
        shutil.copy(source, seeds[name])
    for name, source in REAL_DIRECTORIES.items():
        seeds[name] = directory / name
        shutil.copytree(source, seeds[name])
    for name, graph in hostile_graphs(big).items():
        seeds[name] = directory / name
        seeds[name].write_bytes(graph.SerializeToString())
    for name, text in _text_bombs(big).items():
        seeds[name] = directory / name
        seeds[name].write_text(text)
    seeds["deep_scopes.tfevents"] = directory / "deep_scopes.tfevents"
    seeds["deep_scopes.tfevents"].write_bytes(_events_with_graph(deep_scopes(1500 if big else 600)))
    for name in ("length_2_32_plus_1", "length_2_63", "length_2_64_minus_1"):
        seeds[f"{name}.tfrecord"] = directory / f"{name}.tfrecord"
        seeds[f"{name}.tfrecord"].write_bytes(hostile_file_cases.tf_record_file(name))
    seeds["checkpoint_prefix"] = seeds["checkpoint_dir"] / "model.ckpt-7"
    pipe_shard = directory / "checkpoint_pipe_shard"
    shutil.copytree(REAL_DIRECTORIES["checkpoint_dir"], pipe_shard)
    (pipe_shard / "model.ckpt-7.data-00000-of-00001").unlink()
    os.mkfifo(pipe_shard / "model.ckpt-7.data-00000-of-00001")
    seeds["checkpoint_pipe_shard"] = pipe_shard
    cut_shard = directory / "checkpoint_cut_shard"
    shutil.copytree(REAL_DIRECTORIES["checkpoint_dir"], cut_shard)
    shard = cut_shard / "model.ckpt-7.data-00000-of-00001"
    shard.write_bytes(shard.read_bytes()[:40])
    seeds["checkpoint_cut_shard"] = cut_shard
    events = REAL["events"].read_bytes()
    first = 12 + struct.unpack_from("<Q", events)[0] + 4
    seeds["partial_events"] = directory / "partial.tfevents"
    seeds["partial_events"].write_bytes(events[: first + 20])
    mixed = directory / "mixed"
    mixed.mkdir()
    shutil.copy(REAL["graphdef.pbtxt"], mixed)
    shutil.copy(REAL["run_metadata.pb"], mixed)
    shutil.copy(REAL["metagraph.meta"], mixed)
    shutil.copytree(REAL_DIRECTORIES["saved_model"], mixed / "model")
    shutil.copy(REAL["events"], mixed)
    (mixed / "notes.txt").write_text("hello\n")
    os.symlink("/etc/passwd", mixed / "passwd.pbtxt")
    seeds["mixed_dir"] = mixed
    fifo = directory / "pipe.pb"
    os.mkfifo(fifo)
    seeds["fifo"] = fifo
    seeds["dev_zero"] = Path("/dev/zero")
    evil = directory / "evil\n\x1b[2Jname.pb"
    shutil.copy(REAL["graphdef.pb"], evil)
    seeds["evil_file_name"] = evil
    return seeds
