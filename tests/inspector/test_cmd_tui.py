"""`graph-inspector [tui] PATH...` and `graph-inspector demo` from the command line."""

import subprocess
import sys

import pytest

from inspector import cli, cmd_tui

from tests.views.tui_conftest import MLP_SGD, ROOT


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
