"""A new user's first minute, in a real terminal: tmux at 160x48 runs graph-inspector on an MLP
training graph, types /ApplyGradientDescent and Enter, reads the NodeDef, and quits with q."""

import sys

import pytest

from tests.inspector.tmux_terminal import Terminal, needs_tmux
from tests.views.tui_conftest import MLP_SGD, ROOT

pytestmark = needs_tmux

APPLY = "train/update_layer1/weights/ApplyGradientDescent"


@pytest.fixture
def terminal():
    term = Terminal(f"{sys.executable} -m inspector {MLP_SGD}")
    yield term
    term.close()


def test_open_find_read_and_quit(terminal):
    opened = terminal.wait_for(lambda text: "layer1/ 16" in text and "gradients/ 60" in text)

    terminal.keys("/")
    terminal.wait_for(lambda text: "name, op or device" in text)
    terminal.keys("ApplyGradientDescent", literal=True)
    terminal.keys("Enter")
    shown = terminal.wait_for(lambda text: f'name: "{APPLY}"' in text)
    assert 'op: "ApplyGradientDescent"' in shown
    assert "inputs (3): layer1/weights, train/learning_rate" in shown
    assert 'input: "layer1/weights"' in shown

    terminal.keys("q")
    terminal.wait_for(lambda text: "EXITED 0" in text)
    print(opened, shown, sep="\n")


def test_without_a_terminal_the_tui_never_starts(tmp_path):
    """In a terminal, but with stdin and stdout redirected as a script does: info, exit 0."""
    out, err = tmp_path / "out", tmp_path / "err"
    term = Terminal(f"{sys.executable} -m inspector {MLP_SGD} </dev/null >{out} 2>{err}")
    try:
        term.wait_for(lambda text: "EXITED 0" in text)
    finally:
        term.close()
    assert out.read_text().startswith(f"{MLP_SGD}: GraphDef\n") and "\x1b" not in out.read_text()
    assert "no terminal" in err.read_text()


def test_a_file_that_does_not_open_is_one_error_line_and_exit_2(tmp_path):
    bad = tmp_path / "truncated.pb"
    bad.write_bytes((ROOT / MLP_SGD).read_bytes()[:300])
    term = Terminal(f"{sys.executable} -m inspector {bad}")
    try:
        shown = term.wait_for(lambda text: "EXITED 2" in text)
    finally:
        term.close()
    assert f"error: {bad}: " in shown and "Traceback" not in shown
