"""Compiled CPU kernels (numba), loaded so that no run waits for a compiler.

The NumPy kernels stay the reference; a compiled kernel is a faster way to the same values,
tested equal to them. `module(name)` loads a module and runs its `warm()` (compiling its
kernels, or loading them from numba's on-disk cache) on the first request, where:
- the cache is warm (`graph-inspector warm` stamped it: compiled/warm_cache.py): in the
  caller's thread. Importing numba and loading the cached kernels then costs the first run
  that needs them 0.15-0.4 s once; loading them beside the runs costs more (measured
  2026-11-28, 2-core machine at load 2.7-2.9, a Monte-Carlo pi of 10^6 points: its first 20
  runs took 0.26-0.43 s with numba loaded in the caller's thread, 0.71-1.05 s with it loaded
  in a background thread, the runs on NumPy's path meanwhile: Python's lock goes back and
  forth between the loader and the runs);
- the cache is cold: on one background thread (compiling takes seconds to a minute), the
  NumPy path serving until then (`module` returns None).
`module(name, wait=True)` always waits (tests, benchmarks); GRAPH_INSPECTOR_COMPILED=sync
loads in the caller's thread even with a cold cache (to time a first run with them), =0
turns every compiled kernel off.

Callers ask for a module only where it pays back (`Demand.worth_loading`): a large piece of
work, or the same small work many times, or, once numba and a module are loaded from a warm
cache, the second request (another module then costs 5-40 ms).
"""

import importlib
import os
import queue
import threading

_MODULES = {"philox": "engine.kernels.compiled.philox_numba",
            "fused": "engine.kernels.compiled.fused_numba",
            "conv": "engine.kernels.compiled.conv_numba",
            "pool": "engine.kernels.compiled.pool_numba",
            "loops": "engine.kernels.compiled.loop_numba",
            "training": "engine.kernels.compiled.training_numba",
            "activation": "engine.kernels.compiled.activation_numba",
            "bias": "engine.kernels.compiled.bias_numba",
            "reduce": "engine.kernels.compiled.reduce_numba",
            "depthwise": "engine.kernels.compiled.depthwise_numba",
            "eigen": "engine.kernels.compiled.eigen_arrays",
            "pow": "engine.kernels.compiled.eigen_pow_numba",
            "atan2": "engine.kernels.compiled.eigen_atan2_numba",
            "eigen_reduce": "engine.kernels.compiled.eigen_reduce_numba",
            # NumPy's array data on 64-byte boundaries (aligned_memory.py): loaded before any
            # other compiled module, as the kernels it serves are
            "memory": "engine.kernels.compiled.aligned_memory"}
# Modules whose functions' source the compiled modules write into generated files (fused
# chains, the float loops), or that they import compiled (the allocator's cfuncs): the cached
# machine code depends on them too.
_GENERATED_FROM = ("eigen_numba.py", "eigen_erf_numba.py", "eigen_trig_numba.py",
                   "allocator_numba.py")
_loaded = {}      # name -> module, or None where it could not be loaded
_loading = {}     # name -> threading.Event set when loading finished
_errors = {}      # name -> why it could not be loaded
_lock = threading.Lock()
_background = queue.SimpleQueue()  # (name, event) for the loader thread, one after another
_loader = None    # that thread, started by the first background load
_warm = None      # whether the cache's stamp said warm, asked once per process
# Once a module is loaded from a warm cache, another is worth loading at its n-th request.
OFTEN_ONCE_LOADED = 2


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


def cache_is_warm():
    """Whether `graph-inspector warm` stamped the on-disk cache for these kernels."""
    global _warm
    if _warm is None:
        from engine.kernels.compiled import warm_cache
        _warm = warm_cache.is_warm()
    return _warm


def any_loaded():
    """Whether numba is loaded and serving: some compiled module has loaded."""
    return any(module is not None for module in list(_loaded.values()))


class Demand:
    """Counts the requests a compiled module could serve, and says when loading it pays:
    at once for a piece of work of `large` items or more, else from the `often`-th request,
    or from the OFTEN_ONCE_LOADED-th where numba is loaded already from a warm cache."""

    def __init__(self, large, often):
        self.large, self.often, self.requests = large, often, 0

    def worth_loading(self, items):
        self.requests += 1  # (a lost count under threads only delays the load a little)
        if items >= self.large or self.requests >= self.often:
            return True
        return self.requests >= OFTEN_ONCE_LOADED and any_loaded() and cache_is_warm()


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
        if wait or loads_in_caller():
            _load(name, event)
        else:
            _load_in_background(name, event)
            return None
    if wait:
        event.wait()
    return _loaded.get(name)


def loads_in_caller():
    """Whether a load runs in the caller's thread (the module's docstring says why)."""
    return os.environ.get("GRAPH_INSPECTOR_COMPILED", "").lower() == "sync" or cache_is_warm()


def _load_in_background(name, event):
    """Queue a load for the one loader thread: modules load one after another, never racing
    each other for Python's lock and the import lock."""
    global _loader
    _background.put((name, event))
    with _lock:
        if _loader is None:
            _loader = threading.Thread(target=_load_queued, daemon=True, name="compile")
            _loader.start()


def _load_queued():
    while True:
        _load(*_background.get())


def _forget_loader_after_fork():
    """A forked child has no loader thread: what the parent had not finished loading is asked
    for anew, and the child's first background load starts a thread of its own."""
    global _loader, _lock, _background
    _loader, _lock, _background = None, threading.Lock(), queue.SimpleQueue()
    for name in [name for name in _loading if name not in _loaded]:
        del _loading[name]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_loader_after_fork)


def why_not(name):
    """Why module `name` could not be loaded ('' when it was, or has not been tried)."""
    return _errors.get(name, "")


def _load(name, event):
    if name != "memory":
        module("memory", wait=True)
    try:
        loaded = importlib.import_module(_MODULES[name])
        loaded.warm()
    except Exception as error:  # no numba, or it failed: the NumPy path serves
        _errors[name] = f"{type(error).__name__}: {error}"
        loaded = None
    _loaded[name] = loaded
    event.set()
