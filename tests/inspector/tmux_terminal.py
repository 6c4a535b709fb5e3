"""A real terminal for tests: a tmux server of our own running one command at 160x48."""

import shutil
import subprocess
import time
import uuid

import pytest

from tests.views.tui_conftest import ROOT

needs_tmux = [pytest.mark.tmux,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


class Terminal:
    """`command` run by bash in a detached tmux session; keys in, screen text out."""

    def __init__(self, command, width=160, height=48):
        # A server of our own: no other client sizes the window.
        self.socket = f"gi-test-{uuid.uuid4().hex[:8]}"
        self.session = self.socket
        # Textual obeys COLUMNS/LINES, which would shrink the screen: the pane decides.
        self.tmux("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
                  "-c", str(ROOT), "env", "-u", "COLUMNS", "-u", "LINES", "TERM=xterm-256color",
                  "bash", "-c", f"{command}; echo EXITED $?; sleep 60")
        self.tmux("resize-window", "-t", self.session, "-x", str(width), "-y", str(height),
                  check=False)

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=20, check=check)

    def keys(self, *keys, literal=False):
        self.tmux("send-keys", "-t", self.session, *(["-l"] if literal else []), *keys)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", self.session).stdout

    def wait_for(self, predicate, timeout=20.0):
        """The screen once `predicate` holds, polling; fails with the last screen otherwise."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            time.sleep(0.1)
        pytest.fail(f"timed out after {timeout}s; the screen was:\n{text}")

    def close(self):
        self.tmux("kill-server", check=False)
