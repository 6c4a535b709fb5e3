"""`graph-inspector tensorboard INPUT... --logdir DIR`: inputs as TensorBoard runs."""

from pathlib import Path

import pytest

import parsers
from inspector import cli

ROOT = Path(__file__).resolve().parents[2]
TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"
GRAPH = ROOT / "tests/fixtures/graphs/counter.pb"
LOG = ROOT / "sample_logs/engine_counter.log"


def run(capsys, *argv):
    status = cli.main(["tensorboard", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_graph_a_run_and_a_log(capsys, tmp_path):
    status, _, stderr = run(capsys, GRAPH, TWO_CPU_RUN, LOG, "--logdir", tmp_path)
    assert status == 0, stderr
    assert stderr.startswith("wrote 5 TensorBoard runs (5 graphs, 9 run metadata) to ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter.pb", "engine_counter.log",
                                                          "two_cpu.pb"]
    graph = parsers.load(tmp_path / "counter.pb")
    expected = parsers.load(GRAPH).graphs[0].graph_def
    assert [n.name for n in graph.graphs[0].graph_def.node] == [n.name for n in expected.node]
    run_dir = parsers.load(tmp_path / "two_cpu.pb")
    merged = run_dir.graphs[0].graph_def
    partitions = parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata.partition_graphs
    assert len(merged.node) == sum(len(p.node) for p in partitions)
    assert [r.run_metadata.step_stats for r in run_dir.run_metadata] == [
        parsers.load(TWO_CPU_RUN).run_metadata[0].run_metadata.step_stats]
    log_dir = parsers.load(tmp_path / "engine_counter.log")
    assert [r.tag for r in log_dir.run_metadata][:2] == ["step 1", "step 2"]
    assert len([p for p in (tmp_path / "engine_counter.log").iterdir() if p.is_dir()]) == 2


def test_bad_input_is_one_error_line(capsys, tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xff not a graph")
    status, _, stderr = run(capsys, bad, "--logdir", tmp_path / "out")
    assert status == 2 and stderr.startswith(f"error: {bad}: ") and stderr.count("\n") == 1


def test_tensorboard_reads_the_directory(capsys, tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing import event_accumulator

    assert run(capsys, TWO_CPU_RUN, "--logdir", tmp_path)[0] == 0
    accumulator = event_accumulator.EventAccumulator(str(tmp_path / "two_cpu.pb"))
    accumulator.Reload()
    assert accumulator.Tags()["run_metadata"] == ["run 0"]
    assert len(accumulator.Graph().node) == 15
