"""Where compiled.module loads a module: in the caller's thread when the cache is warm (or
GRAPH_INSPECTOR_COMPILED=sync), else on one background thread, one module after another; a
forked child forgets the parent's loader. A stand-in module (no numba) keeps these fast."""

import os
import signal
import sys
import threading
import types

import pytest

from engine.kernels import compiled


@pytest.fixture
def fake(monkeypatch):
    """Two stand-in compiled modules, "fake_a" and "fake_b", recording the thread that ran
    their warm(); the loader's state fresh for the test and restored after it."""
    threads_seen = []
    for name in ("fake_a", "fake_b"):
        module = types.ModuleType(f"_fake_compiled_{name}")
        module.warm = lambda name=name: threads_seen.append((name, threading.current_thread()))
        monkeypatch.setitem(sys.modules, module.__name__, module)
        monkeypatch.setitem(compiled._MODULES, name, module.__name__)
    for attribute, value in (("_loaded", {}), ("_loading", {}), ("_errors", {}),
                             ("_loader", None), ("_lock", threading.Lock())):
        monkeypatch.setattr(compiled, attribute, value)
    monkeypatch.setattr(compiled, "_background", type(compiled._background)())
    monkeypatch.delenv("GRAPH_INSPECTOR_COMPILED", raising=False)
    return threads_seen


def test_a_warm_cache_loads_in_the_callers_thread(fake, monkeypatch):
    monkeypatch.setattr(compiled, "_warm", True)
    assert compiled.module("fake_a") is sys.modules["_fake_compiled_fake_a"]
    assert fake == [("fake_a", threading.current_thread())]
    assert compiled.any_loaded()


def test_sync_loads_in_the_callers_thread_even_with_a_cold_cache(fake, monkeypatch):
    monkeypatch.setattr(compiled, "_warm", False)
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "sync")
    assert compiled.module("fake_a") is not None
    assert fake == [("fake_a", threading.current_thread())]


def test_a_cold_cache_loads_on_one_background_thread_one_module_after_another(fake, monkeypatch):
    monkeypatch.setattr(compiled, "_warm", False)
    assert compiled.module("fake_a") is None  # the NumPy path serves meanwhile
    assert compiled.module("fake_b") is None
    assert compiled.module("fake_a", wait=True) is not None
    assert compiled.module("fake_b", wait=True) is not None
    assert [name for name, _ in fake] == ["fake_a", "fake_b"]
    (_, first), (_, second) = fake
    assert first is second and first is not threading.current_thread()
    assert first.name == "compile" and first.daemon


def test_compiled_off_loads_nothing(fake, monkeypatch):
    monkeypatch.setattr(compiled, "_warm", True)
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
    assert compiled.module("fake_a") is None and compiled.module("fake_a", wait=True) is None
    assert fake == [] and not compiled.any_loaded()


def test_a_forked_child_asks_anew_for_what_the_parent_had_not_loaded(fake, monkeypatch):
    monkeypatch.setattr(compiled, "_warm", True)
    compiled.module("fake_a")
    compiled._loading["fake_b"] = threading.Event()  # as if the parent was loading it
    compiled._loader = threading.current_thread()
    compiled._forget_loader_after_fork()
    assert compiled._loader is None
    assert "fake_b" not in compiled._loading and "fake_a" in compiled._loading
    assert compiled.module("fake_b") is not None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_compiles_fused_chains_on_a_thread_of_its_own():
    """The parent's compiler thread is not in a forked child: waiting on it there would hang."""
    fused_numba = pytest.importorskip("engine.kernels.compiled.fused_numba")
    fused_numba.wait_idle()  # the parent's compiler thread exists now
    pid = os.fork()
    if pid == 0:  # the child: a hang ends in SIGALRM, a failure in exit status 1
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(30)
        code = 1
        try:
            fused_numba.wait_idle()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
