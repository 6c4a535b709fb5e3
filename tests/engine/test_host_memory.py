"""A session tells glibc's malloc to keep freed memory (engine/runtime/host_memory.py), once
per process, unless GRAPH_INSPECTOR_MALLOC=system; elsewhere it does nothing."""

import os
import subprocess
import sys

import pytest

from engine.runtime import host_memory

_PROGRAM = """
import engine as tf
from engine.runtime import host_memory
assert not host_memory._done
tf.Session()
assert host_memory._done
print(host_memory.keep_freed_memory())  # a second call: nothing more
"""


def _run(env):
    done = subprocess.run([sys.executable, "-c", _PROGRAM], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_session_sets_the_thresholds_once():
    assert _run({}) == ["False"]
    assert _run({"GRAPH_INSPECTOR_MALLOC": "system"}) == ["False"]


@pytest.mark.skipif(host_memory.glibc() is None, reason="not glibc")
def test_glibc_takes_the_thresholds(monkeypatch):
    monkeypatch.setattr(host_memory, "_done", False)
    monkeypatch.setenv("GRAPH_INSPECTOR_MALLOC", "system")
    assert host_memory.keep_freed_memory() is False
    monkeypatch.setattr(host_memory, "_done", False)
    monkeypatch.delenv("GRAPH_INSPECTOR_MALLOC")
    assert host_memory.keep_freed_memory() is True  # (the values this process runs with)
    assert host_memory.keep_freed_memory() is False
