"""`graph-inspector vlog`: the summary, the exact --json shape, -o DIR files, stdin, --follow."""

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector import cli

ROOT = Path(__file__).resolve().parents[2]
COUNTER = ROOT / "sample_logs" / "counter.log"
TWO_CPUS = ROOT / "sample_logs" / "two_cpus.log"


@pytest.fixture
def vlog(capsys):
    def run(*args):
        code = cli.main(["vlog", *map(str, args)])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_summary(vlog):
    code, out, err = vlog(COUNTER)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{COUNTER}: TensorFlow VLOG log, 659 lines (13 not understood)"
    assert lines[1] == "graph dumps: 23 (0 functions; 22 named from executor traces)"
    assert "Before running MklLayoutRewritePass  [names from step 1]" in lines[2]
    assert any(line.startswith("executions: 9 in 9 steps") for line in lines)
    assert lines[-1].startswith("events: ") and "154 memory" in lines[-1]


def test_json_shape_is_exact(vlog):
    code, out, _ = vlog(TWO_CPUS, "--json")
    assert code == 0
    document = json.loads(out)
    assert list(document) == ["graphs", "executions", "lines", "unparsed_lines"]
    assert isinstance(document["lines"], int) and isinstance(document["unparsed_lines"], int)
    for graph in document["graphs"]:
        assert list(graph) == ["label", "first_line", "nodes"]
        for node in graph["nodes"]:
            assert list(node) == ["name", "op", "inputs", "control_inputs", "device", "attr"]
            assert all(isinstance(v, str) for v in node["attr"].values())
    for execution in document["executions"]:
        assert list(execution) == ["step", "device", "nodes"]
        for node in execution["nodes"]:
            assert list(node) == ["id", "name", "op", "inputs", "thread", "start_us", "dead"]
    assert {e["device"][-5:] for e in document["executions"]} == {"CPU:0", "CPU:1"}
    sends = [n for g in document["graphs"] for n in g["nodes"] if n["op"] == "_Send"]
    assert sends and all(n["name"] == "s/_0" or "/_" in n["name"] for n in sends)


def test_out_dir_has_a_dot_per_graph_and_a_trace_per_step(vlog, tmp_path):
    code, _, err = vlog(COUNTER, "-o", tmp_path)
    assert code == 0 and "wrote 23 graphs and 9 step traces" in err
    dots = sorted(tmp_path.glob("graph_*.dot"))
    assert len(dots) == 23
    assert dots[0].name == "graph_0000_Before_running_MklLayoutRewritePass.dot"
    text = dots[0].read_text()
    # Drawn by views.dot: the dump's label titles the picture; node id = name, op in tooltip.
    assert text.startswith("digraph graph_inspector {")
    assert 'label="Before running MklLayoutRewritePass: 4 nodes, 3 edges;' in text
    assert '"counter/Assign" [label=Assign ' in text
    assert 'tooltip="counter/Assign\\nop: Assign\\n' in text
    traces = sorted(tmp_path.glob("trace_step_*.json"))
    assert len(traces) == 9
    trace = json.loads((tmp_path / "trace_step_3.json").read_text())
    events = trace["traceEvents"]
    assert {e["ph"] for e in events} == {"M", "X"}
    # Written by views.timeline: a "runs" process holding the step's span, then the device.
    assert [e["args"]["name"] for e in events if e["name"] == "process_name"] == [
        "runs", "/job:localhost/replica:0/task:0/device:CPU:0"
    ]
    spans = [e for e in events if e["ph"] == "X" and e["cat"] == "Run"]
    assert [(e["name"], e["args"]["step"]) for e in spans] == [("run step 3", 3)]
    ops = [e for e in events if e["ph"] == "X" and e["cat"] == "Op"]
    assert len(ops) == 7 and all(set(e) >= {"ts", "dur", "pid", "tid", "name"} for e in ops)
    if shutil.which("dot"):
        assert len(list(tmp_path.glob("graph_*.svg"))) == 23


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot binary is not on PATH")
def test_out_dir_renders_svg_for_the_first_dumps_unless_all_svg(vlog, tmp_path, monkeypatch):
    from inspector import cmd_vlog

    monkeypatch.setattr(cmd_vlog, "SVG_LIMIT", 5)
    code, _, err = vlog(COUNTER, "-o", tmp_path / "some")
    assert code == 0
    assert "note: .svg for the first 5 graphs only; --all-svg renders every one" in err
    assert len(list((tmp_path / "some").glob("graph_*.dot"))) == 23
    svgs = sorted(path.stem for path in (tmp_path / "some").glob("graph_*.svg"))
    assert [name[:10] for name in svgs] == [f"graph_{n:04d}" for n in range(5)]
    code, _, err = vlog(COUNTER, "-o", tmp_path / "all", "--all-svg")
    assert code == 0 and "note:" not in err
    assert len(list((tmp_path / "all").glob("graph_*.svg"))) == 23


def test_stdin_reads_the_same_as_the_file():
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "vlog", "-", "--json"],
        stdin=open(TWO_CPUS, "rb"), capture_output=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    from_stdin = json.loads(done.stdout)
    from_file = json.loads(subprocess.run(
        [sys.executable, "-m", "inspector", "vlog", str(TWO_CPUS), "--json"],
        capture_output=True, cwd=ROOT, timeout=60,
    ).stdout)
    assert from_stdin == from_file


def test_bad_paths_are_one_line_errors(vlog, tmp_path):
    code, out, err = vlog(tmp_path / "nope.log")
    assert code == 2 and out == ""
    assert err == f"error: {tmp_path / 'nope.log'}: no such file or directory\n"
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    code, _, err = vlog(empty)
    assert code == 2 and err == f"error: {empty}: empty log\n"


def test_follow_prints_graphs_and_steps_as_the_log_grows(tmp_path):
    log = tmp_path / "growing.log"
    log.write_bytes(b"")
    lines = COUNTER.read_bytes().splitlines(keepends=True)

    def write_slowly():
        with open(log, "ab") as f:
            for start in range(0, len(lines), 100):
                f.write(b"".join(lines[start:start + 100]))
                f.flush()
                time.sleep(0.05)

    writer = threading.Thread(target=write_slowly)
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector", "vlog", str(log), "--follow", "--follow-timeout", "1.5", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    writer.start()
    out, err = process.communicate(timeout=60)
    writer.join()
    assert process.returncode == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    graphs = [r["graph"] for r in records if "graph" in r]
    executions = [r["execution"] for r in records if "execution" in r]
    assert len(graphs) == 23
    assert [e["step"] for e in executions] == [-1, 1, 2, 3, 4, 5, 6, 7, 8]
