"""Generated numba modules: functions' source and their constants written into one file named
by the hash of its text, imported from there, so numba's on-disk cache (keyed on a file) of
what it compiles depends on nothing outside that file: an edit of a function it inlines
changes the text, so the file, and no stale machine code survives it.

>>> import numpy as np
>>> constants_source({"_ONE": np.float32(1.0), "_NAN": np.float32(np.nan),
...                   "_TABLE": np.array([1, 2], np.int32), "x": 3})
['_ONE = np.float32(1.0)', "_NAN = np.float32(float('nan'))", '_TABLE = np.array([1, 2], np.int32)']
"""

import hashlib
import importlib.util
import inspect
import os
import sys
import tempfile

import numpy as np

from engine.kernels.compiled import warm_cache

_SCALARS = (np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)


def constants_source(namespace):
    """Assignments recreating a namespace's private NumPy constants (scalars, 1-D arrays)."""
    lines = []
    for name, value in namespace.items():
        if not name.startswith("_"):
            continue
        if isinstance(value, _SCALARS):
            number = repr(int(value)) if isinstance(value, np.integer) else _float(value)
            lines.append(f"{name} = np.{type(value).__name__}({number})")
        elif isinstance(value, np.ndarray) and value.ndim == 1:
            lines.append(f"{name} = np.array({value.tolist()!r}, np.{value.dtype.name})")
    return lines


def _float(value):
    """A float's source; inf and nan as float('inf'), float('nan')."""
    value = float(value)
    return repr(value) if np.isfinite(value) else f"float({str(value)!r})"


def functions_source(namespace, names):
    """The source of numba functions `names` of a namespace, decorators included."""
    return "\n\n".join(inspect.getsource(namespace[name].py_func) for name in names)


def cache_dir(folder):
    return os.path.join(warm_cache.cache_root(), folder)


def _stem(text, prefix):
    return f"{prefix}_{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def _marker(text, folder, prefix):
    return os.path.join(cache_dir(folder), _stem(text, prefix) + ".compiled")


def is_compiled(text, folder, prefix):
    """Whether `mark_compiled` said so of `text` under the cache's present key: numba then
    loads its machine code from the cache (milliseconds) instead of compiling (seconds)."""
    try:
        with open(_marker(text, folder, prefix), encoding="utf-8") as f:
            return warm_cache.cache_key() in f.read().split()
    except OSError:
        return False


def mark_compiled(text, folder, prefix):
    """Note that numba has compiled (and cached) what `text` defines, under the present key."""
    path = _marker(text, folder, prefix)
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(warm_cache.cache_key() + "\n")
    except OSError:  # a read-only cache: the next process compiles in the background again
        pass


def import_text(text, folder, prefix):
    """The module of `text`, written (once: numba's cache is keyed on the file's mtime) to
    <cache>/<folder>/<prefix>_<hash>.py and imported under a name made of that hash."""
    folder = cache_dir(folder)
    os.makedirs(folder, exist_ok=True)
    stem = _stem(text, prefix)
    path = os.path.join(folder, stem + ".py")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    name = f"_graph_inspector_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # Registered by name: numba's cached code refers to its module by that name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
