"""`graph-inspector dot`: files TensorFlow wrote, drawn to .dot and .svg; bad input in one line."""

import shutil
from pathlib import Path

import pytest

from inspector import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# tests/views/conftest.py skips needs_dot tests there; this file may run on its own.
requires_dot = pytest.mark.skipif(shutil.which("dot") is None,
                                  reason="Graphviz's dot binary is not on PATH (`make setup` installs it)")


def fixture(relative):
    path = FIXTURES / relative
    if not path.exists():
        pytest.skip(f"fixture {relative} not made yet (tools/make_fixtures.py writes it)")
    return str(path)


def run(capsys, *argv):
    status = cli.main(["dot", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_dot_file_from_a_graphdef(capsys, tmp_path):
    out = tmp_path / "counter.dot"
    status, stdout, stderr = run(capsys, fixture("graphs/counter.pb"), "-o", out)
    assert (status, stdout) == (0, "")  # results on stdout; "wrote ..." is a status line
    assert stderr == f"wrote {out}: counter.pb, 8 nodes\n"
    text = out.read_text()
    assert text.startswith("digraph graph_inspector {")
    assert '"counter/Assign" -> init [color="#8c8c8c" style=dashed' in text


@pytest.mark.needs_dot
@requires_dot
def test_svg_from_a_text_graphdef(capsys, tmp_path):
    out = tmp_path / "loop.svg"
    status, stdout, stderr = run(capsys, fixture("graphs/while_loop.pbtxt"), "-o", out)
    assert (status, stdout) == (0, "") and stderr.startswith(f"wrote {out}: ")
    svg = out.read_text()
    assert svg.startswith("<?xml") and '<g id="while/NextIteration" class="node">' in svg


def test_a_run_draws_its_partitions_with_its_own_stats(capsys, tmp_path):
    out = tmp_path / "two_cpu.dot"
    status, _, stdout = run(capsys, fixture("runs/two_cpu.pb"), "-o", out, "--color", "device")
    assert status == 0
    assert stdout == f"wrote {out}: 2 partitions, 15 nodes, 9 with step stats\n"
    text = out.read_text()
    for device in ("CPU:0", "CPU:1"):
        assert f'subgraph "cluster_/job:localhost/replica:0/task:0/device:{device}:" {{' in text
    assert "time 75.3 us" in text  # product's MatMul, from the run's own step stats


def test_stats_from_another_file_match_by_name(capsys, tmp_path):
    out = tmp_path / "two_cpu.dot"
    status, _, stdout = run(capsys, fixture("graphs/two_cpu.pb"), "-o", out,
                            "--stats", fixture("runs/two_cpu.pb"))
    assert status == 0 and stdout.endswith(", 7 nodes, 6 with step stats\n")
    assert ">op time<" in out.read_text()


def test_stats_that_match_nothing_warn(capsys, tmp_path):
    status, _, stderr = run(capsys, fixture("graphs/placeholder_square.pb"), "-o",
                            tmp_path / "c.dot", "--stats", fixture("runs/two_cpu.pb"),
                            "--color", "memory")
    assert status == 0
    assert stderr.startswith(f"warning: {fixture('runs/two_cpu.pb')}: none of its")


def test_graph_by_number_and_label(capsys, tmp_path):
    path = fixture("runs/two_cpu.pb")
    status, _, stdout = run(capsys, path, "-o", tmp_path / "p.dot", "--graph", "1")
    assert status == 0 and ": partition 1 (/job:localhost/replica:0/task:0/device:CPU:" in stdout
    label = stdout.split(": ", 1)[1].rsplit(", ", 2)[0]
    status, _, stdout2 = run(capsys, path, "-o", tmp_path / "q.dot", "--graph", label)
    assert status == 0 and label in stdout2


def test_unknown_graph_label_names_the_labels_there_are(capsys, tmp_path):
    path = fixture("runs/two_cpu.pb")
    status, stdout, stderr = run(capsys, path, "-o", tmp_path / "x.dot", "--graph", "nope")
    assert (status, stdout) == (2, "")
    assert stderr.count("\n") == 1
    assert stderr.startswith(f"error: {path}: no graph 'nope'; graphs here are 0: partition 0 (")
    assert "1: partition 1 (" in stderr


@pytest.mark.parametrize("argv, message", [
    (["-o", "{tmp}/x.dot"], "error: {bad}: "),
    (["-o", "{tmp}/x.txt"], "error: {tmp}/x.txt: unknown output format .txt (must be one of .dot"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, message):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\xff\xff garbage")
    argv = [arg.format(tmp=tmp_path) for arg in argv]
    status, stdout, stderr = run(capsys, bad, *argv)
    assert (status, stdout) == (2, "")
    assert stderr.startswith(message.format(bad=bad, tmp=tmp_path))
    assert stderr.count("\n") == 1 and "Traceback" not in stderr


@pytest.mark.parametrize("options, message", [
    (["--expand", "nothing"], "no scope matches --expand 'nothing' (top-level scopes: counter)"),
    (["--focus", "nothing"], "no node named 'nothing' to --focus on"),
    (["--color", "time"], "--color time needs step stats: this file has none;"),
])
def test_options_that_name_nothing_exit_2(capsys, tmp_path, options, message):
    path = fixture("graphs/counter.pb")
    status, _, stderr = run(capsys, path, "-o", tmp_path / "c.dot", *options)
    assert status == 2
    assert stderr.startswith(f"error: {path}: {message}") and stderr.count("\n") == 1


def test_missing_dot_binary_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    status, _, stderr = run(capsys, fixture("graphs/counter.pb"), "-o", tmp_path / "c.svg")
    assert status == 2
    assert stderr.startswith(f"error: {tmp_path / 'c.svg'}: Graphviz's dot binary is not on PATH")
