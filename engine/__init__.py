"""The embedded engine: `import engine as tf` gives TensorFlow 1.x's graph-building API.

The API itself is engine/api/, loaded on first use: the readers import `engine.proto` alone (the
messages) without paying for NumPy and the whole API at start-up. The engine's own layers are
engine/framework/ (what a graph is), engine/runtime/ (what runs it) and engine/api/ (the
namespace); docs/ARCHITECTURE.md draws them.
"""

import importlib as _importlib
import os as _os

from engine.framework.api_namespace import not_supported as _not_supported
from engine.framework.versions import (VERSION as __version__,  # noqa: F401
                                       GIT_VERSION as __git_version__,
                                       COMPILER_VERSION as __compiler_version__)

_HERE = _os.path.dirname(__file__)


def _is_api_part(value):
    # engine/api/core.py and its siblings are how the namespace is written, not names in it.
    return isinstance(value, type(_os)) and value.__name__.startswith("engine.api.")


def _api_names(api):
    return {name: value for name, value in vars(api).items()
            if not (name.startswith("__") and name.endswith("__")) and not _is_api_part(value)}


def _load_api():
    api = _importlib.import_module("engine.api")
    globals().update(_api_names(api))
    return api


def _is_submodule(name):
    return (_os.path.isfile(_os.path.join(_HERE, name + ".py"))
            or _os.path.isfile(_os.path.join(_HERE, name, "__init__.py")))


def __getattr__(name):
    if name == "__all__":  # `from engine import *`
        return [key for key in _api_names(_load_api()) if not key.startswith("_")]
    if (name.startswith("__") and name.endswith("__")) or name == "api":
        raise AttributeError(name)
    if _is_submodule(name):
        # `from engine import dtypes` inside the engine: the module alone, not the whole API.
        return _importlib.import_module(f"engine.{name}")
    names = _api_names(_load_api())
    if name in names:
        return names[name]
    if name.startswith("_"):
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    raise _not_supported(f"tf.{name}")


def __dir__():
    return sorted(set(globals()) | set(_api_names(_load_api())))
