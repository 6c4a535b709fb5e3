"""Compiled CPU kernels (numba), loaded in the background so no run waits for a compiler.

The NumPy kernels stay the reference; a compiled kernel is a faster way to the same values,
tested equal to them. Importing numba and loading a kernel from its on-disk cache takes
0.3-0.6 s (seconds under load, and more the first time a kernel is compiled on a machine), so
`module(name)` never makes a caller wait: the first request starts a daemon thread that
imports the module and runs its `warm()`, and returns None (take the NumPy path) until that
has finished. `module(name, wait=True)` waits (tests, benchmarks).

That thread is not free: importing numba is Python code, and while it runs the caller's
thread waits for the GIL between kernels. Measured on a 2-core machine (2026-11-26), a small
conv-net's first 20 training steps took 0.43-0.55 s while numba loaded beside them and 0.11 s
without. So callers ask for a module only where it will pay back (`worth_loading`): a large
piece of work, or the same small work many times.

GRAPH_INSPECTOR_COMPILED=0 turns every compiled kernel off; =sync loads them in the caller's
thread instead (to time a first run with them).
"""

import importlib
import os
import threading

_MODULES = {"philox": "engine.kernels.compiled.philox_numba",
            "fused": "engine.kernels.compiled.fused_numba",
            "conv": "engine.kernels.compiled.conv_numba",
            "pool": "engine.kernels.compiled.pool_numba",
            "loops": "engine.kernels.compiled.loop_numba",
            "training": "engine.kernels.compiled.training_numba",
            "activation": "engine.kernels.compiled.activation_numba",
            "depthwise": "engine.kernels.compiled.depthwise_numba",
            "eigen": "engine.kernels.compiled.eigen_arrays"}
# Modules whose functions' source the compiled modules write into generated files (fused
# chains, the float loops): the cached machine code depends on them too.
_GENERATED_FROM = ("eigen_numba.py", "eigen_erf_numba.py")
_loaded = {}      # name -> module, or None where it could not be loaded
_loading = {}     # name -> threading.Event set when loading finished
_errors = {}      # name -> why it could not be loaded
_lock = threading.Lock()


def names():
    """Every compiled module's name (what `graph-inspector warm` loads and compiles)."""
    return tuple(_MODULES)


def source_files():
    """The file of each compiled module: what its cached machine code depends on."""
    return (tuple(_MODULES[name].rsplit(".", 1)[1] + ".py" for name in _MODULES)
            + _GENERATED_FROM)


def enabled():
    return os.environ.get("GRAPH_INSPECTOR_COMPILED", "1").lower() not in ("0", "off", "no")


def loaded(name):
    """The module `name` if it is loaded already, else None; never starts loading it."""
    return _loaded.get(name)


class Demand:
    """Counts the requests a compiled module could serve, and says when loading it pays:
    at once for a piece of work of `large` items or more, else from the `often`-th request."""

    def __init__(self, large, often):
        self.large, self.often, self.requests = large, often, 0

    def worth_loading(self, items):
        self.requests += 1  # (a lost count under threads only delays the load a little)
        return items >= self.large or self.requests >= self.often


def module(name, wait=False):
    """The compiled module `name` once loaded and warm, else None (the caller takes NumPy)."""
    if name in _loaded:
        return _loaded[name]
    if not enabled():
        return None
    with _lock:
        event = _loading.get(name)
        start = event is None
        if start:
            event = _loading[name] = threading.Event()
    if start:
        if wait or os.environ.get("GRAPH_INSPECTOR_COMPILED", "").lower() == "sync":
            _load(name, event)
        else:
            threading.Thread(target=_load, args=(name, event), daemon=True,
                             name=f"compile-{name}").start()
            return None
    if wait:
        event.wait()
    return _loaded.get(name)


def why_not(name):
    """Why module `name` could not be loaded ('' when it was, or has not been tried)."""
    return _errors.get(name, "")


def _load(name, event):
    try:
        loaded = importlib.import_module(_MODULES[name])
        loaded.warm()
    except Exception as error:  # no numba, or it failed: the NumPy path serves
        _errors[name] = f"{type(error).__name__}: {error}"
        loaded = None
    _loaded[name] = loaded
    event.set()
