"""The command line under hostile input: a name scope hundreds of levels deep, a checkpoint
shard that is a named pipe, a cycle of non-loop nodes to optimize, numbers that are not
numbers, a full device for stdout, endless stdin with little room to spool it. Each is one
`error: <file>: <what>` line and exit 2 (or the drawing asked for), never a traceback or a
hang, and nothing left behind."""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import engine as tf
from engine.proto import graph_pb2
from inspector import cli

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ROOT / "tests/fixtures/graphs/counter.pb"
CHECKPOINTS = ROOT / "tests/fixtures/checkpoints"
CYCLE = """
node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: "a" op: "AddV2" input: "c" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "b" op: "AddV2" input: "a" input: "c" attr { key: "T" value { type: DT_FLOAT } } }
"""


def run(capsys, *argv):
    status = cli.main([*map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def command(*argv, **kwargs):
    """The installed command in a process of its own (stdin, stdout, limits of its own)."""
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, argv)],
                          capture_output=kwargs.pop("capture_output", True), cwd=ROOT,
                          timeout=kwargs.pop("timeout", 300), **kwargs)


# ---- dot: a name scope 600 levels deep ------------------------------------------------------

def deep_scope_graph(depth, per_level=3):
    """layer1/layer1/.../Add, Add_1, Add_2 at every level: numbered scopes, so each level's
    children are weighed as a series."""
    graph, scope, previous = graph_pb2.GraphDef(), "", None
    for _ in range(depth):
        scope = f"{scope}/layer1" if scope else "layer1"
        for k in range(per_level):
            node = graph.node.add(name=f"{scope}/Add_{k}" if k else f"{scope}/Add", op="AddV2")
            if previous:
                node.input.append(previous)
            previous = node.name
    return graph


def test_dot_of_an_events_file_with_a_name_scope_600_deep(capsys, tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path / "logs"), graph_def=deep_scope_graph(600))
    writer.close()
    out = tmp_path / "deep.dot"
    status, _, err = run(capsys, "dot", tmp_path / "logs", "-o", out)
    assert status == 0, err
    text = out.read_text()
    assert "1800 nodes" in text
    # Folding is bounded by the drawing: at most 64 clusters deep, whatever the scope depth.
    assert 0 < text.count("subgraph cluster_") <= 64


def test_series_signatures_read_each_name_once(monkeypatch):
    # The planner's series signatures cost one look per node, not one per node and level
    # (each open scope re-reading every full name below it took minutes at 500+ levels).
    from views.dot import series
    from views.graph_index import GraphIndex

    index = GraphIndex.of_graph(deep_scope_graph(300))
    looked_up = []

    class Counting(dict):
        def __getitem__(self, key):
            looked_up.append(key)
            return super().__getitem__(key)

    series.shape_signatures(index.scope_tree(), Counting(index.nodes))
    assert len(looked_up) == 2 * len(index.nodes)  # its name and its op, once each


# ---- info CKPT_DIR: a data shard that is a named pipe -----------------------------------------

@pytest.mark.timeout(60)
def test_a_checkpoint_shard_that_is_a_named_pipe_is_refused(capsys, tmp_path):
    directory = tmp_path / "dtypes"
    shutil.copytree(CHECKPOINTS / "dtypes", directory)
    shard = directory / "model.ckpt-7.data-00000-of-00001"
    shard.unlink()
    os.mkfifo(shard)  # nobody writes it: opening it to read would block forever
    status, out, err = run(capsys, "info", directory)
    assert (status, out) == (2, "")
    assert err.startswith(f"error: {shard}: ") and err.endswith(": not a regular file (a named pipe)\n")
    assert err.count("\n") == 1


@pytest.mark.timeout(60)
def test_a_checkpoint_index_that_is_a_named_pipe_is_refused(capsys, tmp_path):
    directory = tmp_path / "dtypes"
    shutil.copytree(CHECKPOINTS / "dtypes", directory)
    index = directory / "model.ckpt-7.index"
    index.unlink()
    os.mkfifo(index)
    status, _, err = run(capsys, "info", directory / "model.ckpt-7")
    assert (status, err) == (2, f"error: {index}: not a regular file (a named pipe)\n")


# ---- optimize: a cycle through non-loop nodes ---------------------------------------------------

def test_optimize_refuses_a_cycle_as_tensorflow_and_writes_nothing(capsys, tmp_path):
    graph = tmp_path / "cycle.pbtxt"
    graph.write_text(CYCLE)
    out = tmp_path / "out.pbtxt"
    status, stdout, err = run(capsys, "optimize", graph, "-o", out)
    assert (status, stdout) == (2, "")
    assert err == (f"error: {graph}: Graph is invalid, contains a cycle with 2 nodes, "
                   f"including: a, b\n")
    assert sorted(os.listdir(tmp_path)) == ["cycle.pbtxt"]


# ---- numbers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, option", [
    (["vlog", "--follow", "--follow-timeout", "nan", "x.log"], "--follow-timeout"),
    (["vlog", "--follow", "--follow-timeout", "inf", "x.log"], "--follow-timeout"),
    (["vlog", "--follow", "--follow-timeout", "-1", "x.log"], "--follow-timeout"),
    (["vlog", "--follow", "--follow-timeout", "0", "x.log"], "--follow-timeout"),
    (["dot", "--budget", "0", "x.pb", "-o", "x.dot"], "--budget"),
    (["dot", "--radius", "-1", "x.pb", "-o", "x.dot"], "--radius"),
    (["dot", "--collapse", "1e9", "x.pb", "-o", "x.dot"], "--collapse"),
    (["run", "x.pb", "--cluster", "tcp://h:1", "--connect-timeout", "0"], "--connect-timeout"),
    (["run", "x.pb", "--cluster", "tcp://h:1", "--connect-timeout", "nan"],
     "--connect-timeout"),
])
def test_numbers_are_checked_by_argparse(capsys, argv, option):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert f": error: argument {option}: '{argv[argv.index(option) + 1]}' is not " in err


def test_a_device_count_past_what_a_session_holds_is_refused(capsys):
    status, _, err = run(capsys, "run", GRAPH, "--devices", "CPU=99999999999999999999",
                         "--fetch", "x:0")
    assert status == 2 and err.endswith("at most 1024 devices of a type\n")


# ---- stdout on a full device ---------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["--print-completion", "bash"], ["info", GRAPH],
                                  ["info", "--json", GRAPH], ["help", "formats"],
                                  ["dot", GRAPH, "-o", "-"], ["optimize", GRAPH, "-o", "-"]])
def test_stdout_on_a_full_device_is_one_error_line(argv):
    with open("/dev/full", "w") as full:
        done = command(*argv, stdout=full, stderr=subprocess.PIPE, capture_output=False)
    assert done.returncode == 2
    assert done.stderr.decode() == "error: <stdout>: No space left on device\n"


def test_a_reader_that_leaves_early_is_no_error():
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = command("info", "--ops", stdout=reader.stdin, stderr=subprocess.PIPE,
                   capture_output=False)
    reader.stdin.close()
    reader.wait()
    assert (done.returncode, done.stderr.decode()) == (0, "")


# ---- stdin: endless, or more than the disk holds ---------------------------------------------

@pytest.mark.timeout(120)
def test_endless_zeros_on_stdin_are_refused_at_once(tmp_path):
    with open("/dev/zero", "rb") as zeros:
        done = command("info", "-", stdin=zeros, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert done.returncode == 2
    assert done.stderr.decode() == ("error: -: not a GraphDef, MetaGraphDef, SavedModel, "
                                    "RunMetadata or TensorBoard events file: as a GraphDef, "
                                    "field number 0 at byte 0\n")
    assert os.listdir(tmp_path) == []


def _small_files():
    # Files of at most 256 KiB, as a nearly full disk: a longer write fails (EFBIG), and
    # SIGXFSZ ignored makes it an error rather than the end of the process.
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, 256 << 10))


def test_a_spool_that_does_not_fit_is_one_line_and_leaves_nothing(tmp_path):
    data = b'node { name: "x" op: "NoOp" }\n' + b"# padding\n" * 100_000  # 1 MB of text proto
    source = tmp_path / "big.pbtxt"
    source.write_bytes(data)
    spool = tmp_path / "tmp"
    spool.mkdir()
    with open(source, "rb") as stdin:
        done = command("info", "-", stdin=stdin, env=dict(os.environ, TMPDIR=str(spool)),
                       preexec_fn=_small_files)
    assert done.returncode == 2
    assert done.stderr.decode() == f"error: -: cannot keep stdin in {spool}: File too large\n"
    assert os.listdir(spool) == []


def test_a_map_key_that_is_not_utf8_is_refused_not_written_as_text(capsys, tmp_path):
    # The protobuf runtime lets a bad key through in GraphDebugInfo's map<string, fixed64>
    # (and no other map of ours); written as text it was a TypeError in protobuf's printer.
    graph = graph_pb2.GraphDef()
    graph.node.add(name="x", op="NoOp")
    graph.debug_info.name_to_trace_id["kk"] = 1
    path = tmp_path / "bad_key.pb"
    path.write_bytes(graph.SerializeToString().replace(b"kk", b"k\xff"))
    status, out, err = run(capsys, "optimize", path, "-o", tmp_path / "out.pbtxt")
    assert (status, out) == (2, "")
    assert err.startswith(f"error: {path}: not a GraphDef") and "is not valid UTF-8" in err
    assert sorted(os.listdir(tmp_path)) == ["bad_key.pb"]


def test_a_function_body_that_cannot_be_instantiated_is_one_error(capsys, tmp_path):
    # A while loop's body reading an input that is not there: lowering the loop before the
    # passes fails as TensorFlow's run would, InvalidArgumentError, here one error line.
    graph = graph_pb2.GraphDef.FromString((ROOT / "tests/fixtures/parsers/functions.pb").read_bytes())
    body = next(f for f in graph.library.function if f.signature.name == "loop_body_95")
    node = next(n for n in body.node_def if n.name == "add_0")
    node.input[0] = "plakeholder"
    path = tmp_path / "bad_body.pb"
    path.write_bytes(graph.SerializeToString())
    status, _, err = run(capsys, "optimize", path)
    assert (status, err) == (2, f"error: {path}: function loop_body_95, node add_0: input "
                                f"plakeholder is not found\n")


# ---- output paths holding terminal escapes: every "wrote ..." line escapes them -------------

@pytest.mark.parametrize("argv", [
    ["dot", GRAPH, "-o", "{out}.dot"],
    ["optimize", GRAPH, "-o", "{out}.pb"],
    ["trace", ROOT / "tests/fixtures/runs/two_cpu.pb", "-o", "{out}.json"],
    ["tensorboard", GRAPH, "--logdir", "{out}"],
    ["vlog", ROOT / "sample_logs/mlp_train.log", "-o", "{out}"],
    ["run", GRAPH, "--before", "init", "--fetch", "Add:0", "--save", "{out}.npz"],
])
def test_an_output_path_with_terminal_escapes_is_echoed_escaped(capsys, tmp_path, argv):
    # tensorboard's and vlog's "wrote ... to DIR" printed ESC [2J and an RTL mark raw
    out = str(tmp_path / "x\x1b[2J\u202e")
    status, stdout, err = run(capsys, *[str(a).format(out=out) for a in argv])
    assert status == 0, err
    assert "\x1b" not in stdout + err and "\u202e" not in stdout + err
    assert [p.name for p in tmp_path.iterdir()] and all(p.name.startswith("x\x1b[2J\u202e")
                                                        for p in tmp_path.iterdir())
