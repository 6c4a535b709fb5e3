"""glibc's malloc thresholds, set once per process unless the user tuned malloc
(engine/runtime/heap.py)."""

import pytest

from engine.runtime import heap, threads


@pytest.fixture
def fresh(monkeypatch):
    calls = []
    monkeypatch.setattr(heap, "_done", False)
    monkeypatch.setattr(heap, "_mallopt", lambda: lambda option, value: calls.append(
        (option, value)) or 1)
    for name in ("GRAPH_INSPECTOR_MALLOC", "GLIBC_TUNABLES", "MALLOC_MMAP_THRESHOLD_",
                 "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"):
        monkeypatch.delenv(name, raising=False)
    return calls


def test_set_once_by_the_first_session(fresh):
    threads.configure(0)
    threads.configure(0)
    assert fresh == [(heap._M_MMAP_THRESHOLD, heap.MMAP_THRESHOLD),
                     (heap._M_TRIM_THRESHOLD, heap.TRIM_THRESHOLD)]
    assert heap.keep_freed_blocks() is False


@pytest.mark.parametrize("name,value", [("GRAPH_INSPECTOR_MALLOC", "default"),
                                        ("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1"),
                                        ("MALLOC_TRIM_THRESHOLD_", "1000")])
def test_a_users_own_malloc_tuning_stands(fresh, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    assert heap.keep_freed_blocks() is False
    assert fresh == []


def test_without_glibc_nothing_is_set(fresh, monkeypatch):
    monkeypatch.setattr(heap, "_mallopt", lambda: None)
    assert heap.keep_freed_blocks() is False


def test_glibc_is_found_here():
    # (this machine's C library is glibc: the real mallopt, not called)
    import platform
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not glibc")
    assert heap._mallopt() is not None
