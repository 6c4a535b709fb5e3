"""`graph-inspector [tui] PATH...` and `graph-inspector demo` from the command line."""

import subprocess
import sys

import pytest

from inspector import cli, cmd_tui

from tests.views.tui_conftest import MLP_SGD, ROOT, TWO_CPU_RUN


def test_a_path_without_a_command_means_tui(monkeypatch):
    opened = []
    monkeypatch.setattr(cmd_tui, "run", lambda args: opened.append(args.paths) or 0)
    assert cli.main([MLP_SGD, "tests/fixtures/runs/two_cpu.pb"]) == 0
    assert cli.main(["tui", MLP_SGD]) == 0
    assert opened == [[MLP_SGD, "tests/fixtures/runs/two_cpu.pb"], [MLP_SGD]]


def test_only_missing_paths_is_one_error_line(capsys):
    assert cli.main(["no/such/graph.pb"]) == 2
    assert capsys.readouterr().err == "error: no/such/graph.pb: no such file or directory\n"


def test_options_and_known_commands_are_left_alone(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "tui" in capsys.readouterr().out


@pytest.mark.slow
def test_demo_without_a_terminal_prints_the_summary_and_writes_svgs(tmp_path):
    result = subprocess.run([sys.executable, "-m", "inspector", "demo", "-o", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "graph 'counter': 8 nodes" in result.stdout
    assert "graph 'mlp_train'" in result.stdout
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written in (["counter.svg", "mlp_train.svg"], ["counter.dot", "mlp_train.dot"])


def no_terminal(*paths):
    """`graph-inspector PATH... </dev/null >out 2>err`, as a script or CI runs it."""
    return subprocess.run([sys.executable, "-m", "inspector", *paths], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def test_without_a_terminal_prints_what_info_prints_and_exits():
    info = subprocess.run([sys.executable, "-m", "inspector", "info", TWO_CPU_RUN], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    result = no_terminal(TWO_CPU_RUN)
    assert result.returncode == 0, result.stderr
    assert result.stdout == info.stdout and "RunMetadata" in result.stdout
    assert "\x1b[" not in result.stdout                  # no escape codes: no TUI started
    assert result.stderr.count("\n") == 1 and "no terminal" in result.stderr


def test_without_a_terminal_a_file_that_does_not_read_is_one_error_line(tmp_path):
    truncated = tmp_path / "truncated.pb"
    truncated.write_bytes((ROOT / MLP_SGD).read_bytes()[:300])
    result = no_terminal(str(truncated))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {truncated}: ") and result.stderr.count("\n") == 1
    both = no_terminal(TWO_CPU_RUN, str(truncated))
    assert both.returncode == 2 and "RunMetadata" in both.stdout
    assert f"error: {truncated}: " in both.stderr
