"""The embedded engine: `import engine as tf` gives TensorFlow 1.x's graph-building API.

The API itself is engine/api.py, loaded on first use: the readers import `engine.proto`
alone (the messages) without paying for NumPy and the whole API at start-up.
"""

import importlib as _importlib
import os as _os

from engine.framework.api_namespace import not_supported as _not_supported

_HERE = _os.path.dirname(__file__)


def _load_api():
    api = _importlib.import_module("engine.api")
    globals().update({name: value for name, value in vars(api).items()
                      if not (name.startswith("__") and name.endswith("__"))})
    return api


def _is_submodule(name):
    return (_os.path.isfile(_os.path.join(_HERE, name + ".py"))
            or _os.path.isfile(_os.path.join(_HERE, name, "__init__.py")))


def __getattr__(name):
    if name == "__all__":  # `from engine import *`
        return [key for key in vars(_load_api()) if not key.startswith("_")]
    if (name.startswith("__") and name.endswith("__")) or name == "api":
        raise AttributeError(name)
    if _is_submodule(name):
        # `from engine import dtypes` inside the engine: the module alone, not the whole API.
        return _importlib.import_module(f"engine.{name}")
    try:
        return getattr(_load_api(), name)
    except AttributeError:
        if name.startswith("_"):
            raise AttributeError(f"module 'engine' has no attribute {name!r}") from None
        raise _not_supported(f"tf.{name}") from None


def __dir__():
    return sorted(set(globals()) | set(dir(_load_api())))
