"""`graph-inspector trace INPUT... -o trace.json`: runs from any source as one Chrome trace."""

import json
from pathlib import Path

from inspector import cli

from tests.views.test_timeline_checks import check_chrome_trace

ROOT = Path(__file__).resolve().parents[2]
TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"


def run(capsys, *argv):
    status = cli.main(["trace", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def spans(path):
    trace = json.loads(Path(path).read_text())
    phases = check_chrome_trace(trace)
    return [e for e in phases["X"] if e["cat"] == "Run"]


def test_a_run_metadata_file(capsys, tmp_path):
    out = tmp_path / "trace.json"
    status, stdout, stderr = run(capsys, TWO_CPU_RUN, "-o", out)
    assert status == 0 and stdout == ""
    assert stderr.startswith(f"wrote {out}: 1 runs, ")
    (span,) = spans(out)
    assert span["name"] == "run two_cpu.pb"


def test_many_inputs_of_every_kind_one_after_another(capsys, tmp_path):
    out = tmp_path / "trace.json"
    log = ROOT / "sample_logs/two_cpus.log"
    events = ROOT / "tests/fixtures/parsers/events_dir"
    status, _, stderr = run(capsys, TWO_CPU_RUN, log, events, "-o", out)
    assert status == 0, stderr
    labels = [s["args"]["label"] for s in spans(out)]
    assert labels[0] == "two_cpu.pb"
    assert [label for label in labels if label.startswith("two_cpus.log: ")] == [
        "two_cpus.log: step 1", "two_cpus.log: step 2"]
    assert any(label.startswith("events_dir: ") for label in labels)
    steps = [s["args"].get("step") for s in spans(out) if s["args"]["label"].startswith("two_cpus")]
    assert steps == [1, 2]


def test_engine_runs_written_by_graph_inspector_run(capsys, tmp_path):
    metadata = tmp_path / "run.pb"
    assert cli.main(["run", str(ROOT / "tests/fixtures/graphs/counter.pb"), "--target", "init",
                     "--trace", str(metadata)]) == 0
    capsys.readouterr()
    out = tmp_path / "trace.json"
    status, _, stderr = run(capsys, metadata, "-o", out)
    assert status == 0, stderr
    assert len(spans(out)) == 1


def test_an_input_without_step_stats_is_one_error_line(capsys, tmp_path):
    graph = ROOT / "tests/fixtures/parsers/functions.pb"
    status, _, stderr = run(capsys, graph, "-o", tmp_path / "trace.json")
    assert status == 2
    assert stderr == (f"error: {graph}: no step stats in this graphdef (a RunMetadata traced with"
                      f" FULL_TRACE, events with run metadata, or a VLOG log with executor lines)\n")
    assert not (tmp_path / "trace.json").exists()


def test_missing_input_and_unwritable_output(capsys, tmp_path):
    status, _, stderr = run(capsys, tmp_path / "nope.pb", "-o", tmp_path / "t.json")
    assert status == 2 and stderr.startswith("error: ") and stderr.count("\n") == 1
    status, _, stderr = run(capsys, TWO_CPU_RUN, "-o", tmp_path / "no" / "dir" / "t.json")
    assert status == 2 and stderr.startswith(f"error: {tmp_path / 'no' / 'dir' / 't.json'}: ")
