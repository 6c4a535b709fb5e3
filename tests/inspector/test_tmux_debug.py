"""A new user debugging a small program in a real terminal: tmux at 160x48 runs
`graph-inspector debug` on a script, steps three nodes, reads the values, continues to the
end and quits."""

import shutil
import subprocess
import sys
import time
import uuid

import pytest

from tests.views.tui_conftest import ROOT

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

SCRIPT = "tests/inspector/scripts/debug_small.py"
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


def test_debug_a_script_step_three_times_and_continue(session):
    command = (f"{sys.executable} -m inspector debug {SCRIPT} 1 -1 3; echo EXITED $?; "
               f"sleep 60")
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "48", "-c", str(ROOT),
         "env", "-u", "COLUMNS", "-u", "LINES", "TERM=xterm-256color", "bash", "-c", command)
    tmux("resize-window", "-t", session, "-x", "160", "-y", "48", check=False)
    opened = wait_for(session, lambda text: "paused (start of the run" in text)
    assert "Session.run #1: y:0" in opened

    shown = []
    for number, expected in ((1, "scaled/y:0 = 3."), (2, "y/y:0 = 1."),
                             (3, "x:0 = [ 1. -1.  3.]")):
        tmux("send-keys", "-t", session, "s")
        shown.append(wait_for(session, lambda text: expected in text))
    third = shown[-1]
    assert "_arg_x_0_0 (_Arg) on CPU:0" in third and "ready: scaled" in third
    assert "waiting: y on scaled" in third

    tmux("send-keys", "-t", session, "c")
    ended = wait_for(session, lambda text: "debug_small.py: finished" in text)
    assert "z = [1.3862944       nan 2.3025851]" in ended
    tmux("send-keys", "-t", session, "q")
    after = wait_for(session, lambda text: "EXITED 0" in text)
    assert "y = [ 4. -2. 10.]" in after          # the program's output, printed at exit
    print(third, ended, after, sep="\n")
