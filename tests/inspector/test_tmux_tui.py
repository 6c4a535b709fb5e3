"""A new user's first minute, in a real terminal: tmux at 160x48 runs graph-inspector on an MLP
training graph, types /ApplyGradientDescent and Enter, reads the NodeDef, and quits with q."""

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from tests.views.tui_conftest import MLP_SGD, ROOT

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

APPLY = "train/update_layer1/weights/ApplyGradientDescent"


SOCKET = f"gi-test-{uuid.uuid4().hex[:8]}"  # a server of our own: no other client sizes the window


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *args], capture_output=True,
                          text=True, timeout=20, check=check)


def capture(session):
    return tmux("capture-pane", "-p", "-t", session).stdout


def wait_for(session, predicate, timeout=20.0):
    """The pane's text once `predicate` holds, polling; fails with the last screen otherwise."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = capture(session)
        if predicate(text):
            return text
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout}s; the screen was:\n{text}")


@pytest.fixture
def session():
    name = f"gi-test-{uuid.uuid4().hex[:8]}"
    yield name
    tmux("kill-server", check=False)


def test_open_find_read_and_quit(session):
    command = f"{sys.executable} -m inspector {MLP_SGD}; echo EXITED $?; sleep 60"
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "48", "-c", str(ROOT),
         "env", "-u", "COLUMNS", "-u", "LINES", "TERM=xterm-256color", "bash", "-c", command)
    tmux("resize-window", "-t", session, "-x", "160", "-y", "48", check=False)
    start = time.monotonic()
    opened = wait_for(session, lambda text: "layer1/ 16" in text and "gradients/ 60" in text)
    open_seconds = time.monotonic() - start
    assert open_seconds < 10, f"the scope tree took {open_seconds:.1f}s"  # the goal is 1-2 s

    tmux("send-keys", "-t", session, "/")
    wait_for(session, lambda text: "name, op or device" in text)
    tmux("send-keys", "-t", session, "-l", "ApplyGradientDescent")
    tmux("send-keys", "-t", session, "Enter")
    shown = wait_for(session, lambda text: f'name: "{APPLY}"' in text)
    assert 'op: "ApplyGradientDescent"' in shown
    assert "inputs (3): layer1/weights, train/learning_rate" in shown
    assert 'input: "layer1/weights"' in shown

    tmux("send-keys", "-t", session, "q")
    wait_for(session, lambda text: "EXITED 0" in text)
    print(opened, shown, sep="\n")
