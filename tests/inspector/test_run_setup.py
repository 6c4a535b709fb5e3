"""`graph-inspector run` (issue 18): --devices and --soft-placement for a graph TensorFlow
placed on two CPUs (values as TensorFlow fetched them), feeds checked before the import,
progress on big graphs, run errors printable."""

import os
from pathlib import Path

import numpy as np
import pytest

import engine
from engine.proto import graph_pb2
from inspector import run_setup
from inspector.cli import main

GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"
TWO_CPU = str(GRAPHS / "two_cpu.pb")
FEED = f"a={GRAPHS / 'two_cpu.feed_a.npy'}"
VALUES = np.load(GRAPHS / "two_cpu.values.npz")


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("flags", [["--devices", "CPU=2"], ["--soft-placement"]])
def test_a_graph_placed_on_two_cpus_runs(capsys, flags):
    status, out, err = run(capsys, "run", TWO_CPU, "--feed", FEED, "--fetch", "total:0", *flags)
    assert (status, err) == (0, "")
    assert float(out.split("=")[1]) == float(VALUES["total__0"])


def test_without_the_devices_the_placement_error_names_the_node(capsys):
    status, _, err = run(capsys, "run", TWO_CPU, "--feed", FEED, "--fetch", "total:0")
    assert status == 1 and err.startswith("error: InvalidArgumentError: node 'doubled' (Mul)")
    assert "Cannot assign a device for operation doubled" in err


@pytest.mark.parametrize("devices", ["CPU", "CPU=x", "=2"])
def test_bad_devices_flag(capsys, devices):
    status, _, err = run(capsys, "run", TWO_CPU, "--fetch", "total:0", "--devices", devices)
    assert status == 2 and err.startswith(f"error: {TWO_CPU}: --devices ")


def test_a_wrong_feed_shape_is_reported_before_the_import(capsys, monkeypatch):
    def no_import(*args, **kwargs):
        raise AssertionError("imported before the feeds were checked")
    monkeypatch.setattr(engine, "import_graph_def", no_import)
    status, _, err = run(capsys, "run", TWO_CPU, "--feed", "a=[1, 2, 3]", "--fetch", "total:0")
    # Session.run's own words (engine/runtime/session.py, as TensorFlow's).
    assert (status, err) == (2, f"error: {TWO_CPU}: Cannot feed value of shape (3,) for Tensor a:0,"
                                " which has shape (2, 2)\n")
    status, _, err = run(capsys, "run", TWO_CPU, "--feed", "nope=[1]", "--fetch", "total:0")
    assert (status, err) == (2, f"error: {TWO_CPU}: --feed nope:0: the graph has no node 'nope'\n")


def test_the_session_words_the_same_shape_error():
    graph_def = graph_pb2.GraphDef()
    graph_def.ParseFromString(Path(TWO_CPU).read_bytes())
    with engine.Graph().as_default():
        engine.import_graph_def(graph_def, name="")
        with engine.Session(config=engine.ConfigProto(device_count={"CPU": 2})) as sess:
            with pytest.raises(ValueError) as raised:
                sess.run("total:0", {"a:0": [1, 2, 3]})
    assert str(raised.value) == "Cannot feed value of shape (3,) for Tensor a:0, which has shape (2, 2)"


def test_progress_only_for_big_graphs_on_a_terminal(capsys, monkeypatch):
    big = graph_pb2.GraphDef()
    for i in range(run_setup.BIG_GRAPH + 1):
        big.node.add(name=f"n{i}", op="NoOp")
    small = graph_pb2.GraphDef()
    small.node.add(name="n", op="NoOp")
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    run_setup.progress(small, "importing the graph")
    run_setup.progress(big, "importing the graph")
    assert capsys.readouterr().err == f"importing the graph ({run_setup.BIG_GRAPH + 1} nodes)...\n"


@pytest.mark.timeout(20)
def test_a_pipe_as_feed_does_not_block(capsys, tmp_path):
    pipe = tmp_path / "x.npy"
    os.mkfifo(pipe)
    status, _, err = run(capsys, "run", TWO_CPU, "--feed", f"a={pipe}", "--fetch", "total:0")
    assert status == 2 and "not a regular file" in err
