"""API namespaces (tf.train, tf.nn, ...) whose missing names say "not supported yet".

A TF1 program that reaches for something the engine lacks should learn which API that is, not
meet a bare AttributeError. The error is still an AttributeError, so hasattr() stays False.

>>> train = Namespace("tf.train", Optimizer=object)
>>> train.Saver
Traceback (most recent call last):
...
engine.framework.api_namespace.NotSupportedError: tf.train.Saver is not supported by the engine yet
>>> hasattr(train, "Saver"), hasattr(train, "Optimizer")
(False, True)
"""

from types import SimpleNamespace


class NotSupportedError(AttributeError):
    """A TensorFlow API the engine does not offer (yet)."""


def not_supported(qualified_name):
    """The error for a missing TensorFlow name, such as "tf.train.Saver"."""
    if qualified_name == "tf.contrib" or qualified_name.startswith("tf.contrib."):
        return NotSupportedError(
            f"{qualified_name} is not supported: the engine has TensorFlow 1.x's core API, "
            "not tf.contrib")
    return NotSupportedError(f"{qualified_name} is not supported by the engine yet")


def _is_special(name):
    # Python's and tools' probes (__wrapped__, _ipython_display_, ...) get a plain AttributeError.
    return name.startswith("_")


class Namespace(SimpleNamespace):
    """A SimpleNamespace that knows its TensorFlow name, for the error on a missing member."""

    __slots__ = ("_qualified_name",)

    def __init__(self, qualified_name, /, **members):
        super().__init__(**members)
        object.__setattr__(self, "_qualified_name", qualified_name)

    def __getattr__(self, name):
        if _is_special(name):
            raise AttributeError(name)
        raise not_supported(f"{self._qualified_name}.{name}")

    def __repr__(self):
        return f"<namespace {self._qualified_name}>"


def module_getattr(qualified_name):
    """A module-level __getattr__ for the module that is `qualified_name` (e.g. "tf.nn")."""
    def __getattr__(name):
        if _is_special(name):
            raise AttributeError(f"module {qualified_name!r} has no attribute {name!r}")
        raise not_supported(f"{qualified_name}.{name}")
    return __getattr__
