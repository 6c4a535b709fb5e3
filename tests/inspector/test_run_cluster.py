"""`graph-inspector run GRAPH --cluster ADDRESS` / `--local-cluster ps=1,worker=2`: a cluster
graph run on Dask tasks, against TensorFlow's answers for the same program
(tests/fixtures/cluster/answers.json, tools/make_cluster_fixtures.py)."""

import io
import json
import re
import socket
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.proto import config_pb2
from inspector.cli import main

pytest.importorskip("distributed")

from engine.cluster import local, task_worker  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ANSWERS = json.loads((REPO / "tests" / "fixtures" / "cluster" / "answers.json").read_text())
sys.path.insert(0, str(REPO / "tests" / "programs"))

import ps_in_graph  # noqa: E402

pytestmark = pytest.mark.slow
TASK_DEVICES = {f"/job:{job}/replica:0/task:{i}/device:CPU:0"
                for job, i in (("ps", 0), ("worker", 0), ("worker", 1))}


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def in_graph_program(tmp_path):
    graph = tf.Graph()
    with graph.as_default():
        ps_in_graph.build()
    path = tmp_path / "ps_in_graph.pbtxt"
    path.write_text(str(graph.as_graph_def()))
    feeds = [f"--feed=tower_{i}/{name}={json.dumps(data[i].tolist())}"
             for i in range(2) for name, data in (("x", ps_in_graph.X), ("y", ps_in_graph.Y))]
    return path, feeds


def test_local_cluster_run_gives_tensorflows_losses_and_traces_every_task(
        capsys, tmp_path, in_graph_program):
    path, feeds = in_graph_program
    trace = tmp_path / "run.pbtxt"
    status, out, err = run(capsys, "run", path, "--local-cluster", "ps=1,worker=2",
                           "--before", "init", "--fetch", "tower_0/loss",
                           "--fetch", "tower_1/loss", "--target", "train", *feeds,
                           "--trace", trace)
    assert status == 0, err
    losses = [float(line.split(" = ")[1]) for line in out.splitlines()]
    np.testing.assert_allclose(losses, ANSWERS["in_graph"]["steps"][0][0], rtol=1e-6)
    metadata = text_format.Parse(trace.read_text(), config_pb2.RunMetadata())
    assert {d.device for d in metadata.step_stats.dev_stats} == TASK_DEVICES
    assert {p.node[0].device for p in metadata.partition_graphs} == TASK_DEVICES

    # The Chrome trace of that run: a process per task.
    chrome = tmp_path / "trace.json"
    status, _, err = run(capsys, "trace", trace, "-o", chrome)
    assert status == 0, err
    processes = {e["args"]["name"] for e in json.loads(chrome.read_text())["traceEvents"]
                 if e.get("ph") == "M" and e["name"] == "process_name"}
    assert TASK_DEVICES <= processes


def test_a_running_cluster_by_its_scheduler_address(capsys, tmp_path):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:worker/task:1"):
            x = tf.placeholder(tf.float32, [None], name="x")
        with tf.device("/job:ps/task:0"):
            tf.reshape(x, [2, 2], name="bad_reshape")
            tf.reduce_sum(x * 2.0, name="total")
    path = tmp_path / "g.pbtxt"
    path.write_text(str(graph.as_graph_def()))
    with local.local_cluster({"ps": 1, "worker": 2}) as cluster:
        status, out, err = run(capsys, "run", path, "--cluster", cluster.scheduler_address,
                               "--feed", "x=[1, 2, 3]", "--fetch", "total")
        assert (status, out, err) == (0, "total:0 = 12.\n", "")
        status, out, err = run(capsys, "run", path, "--cluster", cluster.scheduler_address,
                               "--feed", "x=[1, 2, 3]", "--fetch", "bad_reshape")
    assert status == 1 and err.count("\n") == 1
    assert err.startswith("error: InvalidArgumentError: node 'bad_reshape' (Reshape) on task "
                          "/job:ps/task:0")


def test_no_scheduler_at_the_address_is_unavailable(capsys, in_graph_program):
    path, feeds = in_graph_program
    address = f"tcp://127.0.0.1:{task_worker.free_port()}"
    status, _, err = run(capsys, "run", path, "--cluster", address, "--fetch", "w")
    assert (status, err) == (1, f"error: UnavailableError: No Dask scheduler listens at "
                                f"{address}\n")


@pytest.mark.parametrize("scheme", ["tcp", "grpc"])
def test_an_address_that_accepts_and_never_answers_gives_up_at_the_deadline(
        capsys, in_graph_program, scheme):
    """Something accepts the connection and says nothing (a half-dead host, a wrong port):
    the handshake's deadline, not a hang (it took 200 s)."""
    path, _ = in_graph_program
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"{scheme}://127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        status, _, err = run(capsys, "run", path, "--cluster", address, "--connect-timeout",
                             "0.5", "--fetch", "w")
    assert (status, err) == (1, f"error: UnavailableError: {address} accepted the connection "
                                f"but did not answer Dask's handshake within 0.5 s\n")
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("argv,message", [
    (["--local-cluster", "ps=one"], "--local-cluster: expected JOB=N"),
    (["--local-cluster", "ps=\u00b2"], "--local-cluster: expected JOB=N"),
    (["--local-cluster", "worker=99999"],
     "--local-cluster: 99999 tasks in 'worker=99999': a local cluster runs at most 64"),
    (["--local-cluster", "ps=32,worker=33"], "--local-cluster: 65 tasks in"),
    (["--local-cluster", "ps=1,ps=2"], "--local-cluster: job 'ps' given twice"),
    (["--local-cluster", "a/b=1"], "--local-cluster: job name 'a/b' is not a letter"),
    (["--local-cluster", "job:x=1"], "--local-cluster: job name 'job:x' is not a letter"),
    (["--local-cluster", "ps=1", "--cluster", "tcp://h:1"], "not both"),
    (["--cluster", "h:8786"], "expected tcp://host:port"),
])
def test_bad_cluster_options_are_exit_2(capsys, in_graph_program, argv, message):
    path, _ = in_graph_program
    status, _, err = run(capsys, "run", path, "--fetch", "w", *argv)
    assert status == 2 and message in err and err.count("\n") == 1


def test_local_cluster_run_debugged_at_the_prompt(capsys, monkeypatch, in_graph_program):
    """--debug steps the run on its tasks: events name the task, a breakpoint stops on the
    ps, values computed on a worker are TensorFlow's, and the run ends with its fetches."""
    path, feeds = in_graph_program
    commands = "s 2\nw tower_1/loss:0\nb op=ApplyGradientDescent\nc\np tower_1/loss:0\nc\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(commands))
    status, out, err = run(capsys, "run", path, "--local-cluster", "ps=1,worker=2",
                           "--before", "init", "--fetch", "tower_0/loss",
                           "--fetch", "tower_1/loss", "--target", "train", *feeds, "--debug")
    assert status == 0, err
    assert re.search(r"#2 \S+ \(\w+\) on /job:(ps|worker)/task:\d/CPU:0  -- stepped", out)
    assert re.search(r"\(ApplyGradientDescent\) on /job:ps/task:0/CPU:0  -- breakpoint \d+", out)
    theirs = ANSWERS["in_graph"]["steps"][0][0]
    held = float(re.search(r"\(gi-debug\) tower_1/loss:0 = (\S+)", out).group(1))
    np.testing.assert_allclose(held, theirs[1], rtol=1e-6)
    fetched = [float(line.split(" = ")[1]) for line in out.splitlines()
               if line.startswith("tower_")]
    np.testing.assert_allclose(fetched, theirs, rtol=1e-6)
