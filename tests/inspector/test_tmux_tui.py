"""A new user's first minute, in a real terminal: tmux at 160x48 runs graph-inspector on an MLP
training graph, types /ApplyGradientDescent and Enter, reads the NodeDef, and quits with q."""

import sys
import time

import pytest

from tests.inspector.tmux_terminal import Terminal, needs_tmux
from tests.views.tui_conftest import MLP_SGD

pytestmark = needs_tmux

APPLY = "train/update_layer1/weights/ApplyGradientDescent"


@pytest.fixture
def terminal():
    start = time.monotonic()
    term = Terminal(f"{sys.executable} -m inspector {MLP_SGD}")
    term.started = start
    yield term
    term.close()


def test_open_find_read_and_quit(terminal):
    opened = terminal.wait_for(lambda text: "layer1/ 16" in text and "gradients/ 60" in text)
    open_seconds = time.monotonic() - terminal.started
    assert open_seconds < 10, f"the scope tree took {open_seconds:.1f}s"  # the goal is 1-2 s

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
