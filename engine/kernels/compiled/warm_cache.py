"""Whether the compiled kernels' on-disk cache is warm: a stamp that `graph-inspector warm`
writes once it has compiled them, keyed by everything that would make numba compile anew.

The cache lives under $GRAPH_INSPECTOR_CACHE_DIR, else $XDG_CACHE_HOME/graph-inspector, else
~/.cache/graph-inspector. A run that falls back to NumPy for a large piece of work while the
kernels compile says so once on stderr, and only while the stamp is missing or stale: the
line names the command that ends it, and a warm machine never prints it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import platform
import sys
import threading

from engine.kernels import compiled

# Below this many elements the NumPy path costs too little for a note to be worth reading.
NOTICE_MIN_ITEMS = 1 << 18
STAMPED_KEYS = 8
_noticed = threading.Event()
_key = None


def cache_root() -> str:
    return os.environ.get("GRAPH_INSPECTOR_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "graph-inspector")


def stamp_path() -> str:
    # (One key a line; the single-key "warm-stamp" of earlier versions is theirs.)
    return os.path.join(cache_root(), "warm-stamps")


def cache_key() -> str:
    """What the cached machine code depends on: the kernels' sources (their text, and where
    and when they were written: numba keeps a module's cache beside it, or under
    NUMBA_CACHE_DIR by its path, and compiles anew when its mtime changes), numba's and
    NumPy's versions, the Python and the CPU, and where numba keeps its own cache."""
    global _key
    if _key is None:
        digest = hashlib.sha256()
        here = os.path.dirname(os.path.abspath(__file__))
        digest.update(here.encode())
        for name in compiled.source_files():
            path = os.path.join(here, name)
            with open(path, "rb") as f:
                digest.update(f.read())
            digest.update(str(os.stat(path).st_mtime).encode())
        for package in ("numba", "numpy", "llvmlite"):
            try:
                digest.update(importlib.metadata.version(package).encode())
            except importlib.metadata.PackageNotFoundError:
                digest.update(b"-")
        digest.update(f"{sys.version}|{platform.machine()}|{platform.processor()}|"
                      f"{os.environ.get('NUMBA_CACHE_DIR', '')}".encode())
        _key = digest.hexdigest()
    return _key


def _stamped_keys() -> list[str]:
    try:
        with open(stamp_path(), encoding="utf-8") as f:
            return f.read().split()
    except OSError:
        return []


def is_warm() -> bool:
    return cache_key() in _stamped_keys()


def write_stamp() -> None:
    """Stamp the cache warm for these sources; the stamp keeps the last STAMPED_KEYS keys, so
    checkouts sharing one cache (git worktrees) each stay warm."""
    os.makedirs(cache_root(), exist_ok=True)
    path = stamp_path()
    keys = [key for key in _stamped_keys() if key != cache_key()][-(STAMPED_KEYS - 1):]
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(f"{key}\n" for key in keys + [cache_key()]))
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):  # a full disk leaves no half-written stamp behind
            os.remove(tmp)
        raise


def quiet() -> None:
    """No note from this process (`graph-inspector warm` compiles on purpose)."""
    _noticed.set()


def note_cold_fallback(items: int) -> None:
    """A piece of `items` elements took the NumPy path while its kernel compiles: say so on
    stderr, once per process, when it is large and the cache is cold."""
    if items < NOTICE_MIN_ITEMS or _noticed.is_set():
        return
    _noticed.set()
    if is_warm():
        return  # loading from the cache: a fraction of a second, not worth a line
    sys.stderr.write("graph-inspector: compiling the engine's kernels in the background "
                     "(their cache is empty): this run takes the slower NumPy path until they "
                     "are ready; `graph-inspector warm` compiles them once\n")
    sys.stderr.flush()
