"""`graph-inspector warm` and the cold-cache note: the stamp that says the kernels are cached,
the one line a large run prints while they compile, and nothing for small runs or warm caches."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.kernels.compiled import warm_cache

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPH_INSPECTOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warm_cache, "_noticed", type(warm_cache._noticed)())
    return tmp_path


def test_a_warm_cache_is_only_reported_without_loading_numba(cache):
    warm_cache.write_stamp()
    code = ("import sys; from inspector import cli; code = cli.main(['warm']); "
            "print('numba loaded' if 'numba' in sys.modules else 'numba not loaded'); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, GRAPH_INSPECTOR_CACHE_DIR=str(cache)))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == [f"compiled kernels: cached already ({cache})",
                                        "numba not loaded"]


def test_the_stamp_is_stale_when_what_numba_compiles_changes(cache, monkeypatch):
    warm_cache.write_stamp()
    assert warm_cache.is_warm()
    (cache / "warm-stamps").write_text("an older key\n")
    assert not warm_cache.is_warm()


def test_compiled_kernels_off_is_said_and_not_an_error(cache, capsys, monkeypatch):
    from inspector import cli
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
    assert cli.main(["warm"]) == 0
    assert capsys.readouterr().out == "compiled kernels: off (GRAPH_INSPECTOR_COMPILED=0); nothing to warm\n"
    assert not (cache / "warm-stamps").exists()


def test_a_large_fallback_on_a_cold_cache_is_said_once(cache, capsys):
    warm_cache.note_cold_fallback(warm_cache.NOTICE_MIN_ITEMS - 1)
    assert capsys.readouterr().err == ""
    warm_cache.note_cold_fallback(warm_cache.NOTICE_MIN_ITEMS)
    warm_cache.note_cold_fallback(10 * warm_cache.NOTICE_MIN_ITEMS)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "`graph-inspector warm` compiles them once" in err


def test_nothing_is_said_when_the_cache_is_warm(cache, capsys):
    warm_cache.write_stamp()
    warm_cache.note_cold_fallback(10 * warm_cache.NOTICE_MIN_ITEMS)
    assert capsys.readouterr().err == ""


def test_the_stamp_keeps_each_checkouts_key(cache, monkeypatch):
    """Git worktrees share one cache: stamping one checkout leaves another's stamp warm."""
    monkeypatch.setattr(warm_cache, "_key", "another-checkouts-key")
    warm_cache.write_stamp()
    monkeypatch.setattr(warm_cache, "_key", "this-checkouts-key")
    warm_cache.write_stamp()
    assert warm_cache.is_warm()
    monkeypatch.setattr(warm_cache, "_key", "another-checkouts-key")
    assert warm_cache.is_warm()
    for n in range(warm_cache.STAMPED_KEYS):
        monkeypatch.setattr(warm_cache, "_key", f"key-{n}")
        warm_cache.write_stamp()
    monkeypatch.setattr(warm_cache, "_key", "another-checkouts-key")
    assert not warm_cache.is_warm()  # the oldest goes


def test_a_generated_kernel_is_marked_compiled_under_the_present_key(cache, monkeypatch):
    from engine.kernels.compiled import numba_source
    text = "def kernel():\n    return 1\n"
    os.makedirs(numba_source.cache_dir("fused-kernels"), exist_ok=True)
    assert not numba_source.is_compiled(text, "fused-kernels", "fused")
    numba_source.mark_compiled(text, "fused-kernels", "fused")
    assert numba_source.is_compiled(text, "fused-kernels", "fused")
    monkeypatch.setattr(warm_cache, "_key", "a-later-key")
    assert not numba_source.is_compiled(text, "fused-kernels", "fused")


def test_a_cache_that_cannot_be_written_is_one_error_before_compiling(tmp_path, capsys, monkeypatch):
    """A cache directory under a file (as a read-only or full disk): exit 2 and one line naming
    it, before minutes of compiling whose cache could not be kept (it was a traceback from
    the stamp, after compiling)."""
    from inspector import cli
    (tmp_path / "file").write_text("x")
    where = tmp_path / "file" / "cache"
    monkeypatch.setenv("GRAPH_INSPECTOR_CACHE_DIR", str(where))
    monkeypatch.setattr(warm_cache, "_noticed", type(warm_cache._noticed)())
    monkeypatch.setattr(warm_cache, "is_warm", lambda: False)
    assert cli.main(["warm", "--force"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {where}: cannot write the compiled kernels' cache: "
                                   "Not a directory")


def test_a_stamp_that_cannot_be_written_leaves_nothing_behind(cache, monkeypatch):
    import builtins
    real_open = builtins.open

    def full_disk(path, mode="r", *args, **kwargs):
        stream = real_open(path, mode, *args, **kwargs)
        if "w" in mode:
            stream.close()
            raise OSError(28, "No space left on device")
        return stream
    monkeypatch.setattr(builtins, "open", full_disk)
    with pytest.raises(OSError):
        warm_cache.write_stamp()
    monkeypatch.undo()
    assert list(cache.iterdir()) == []
