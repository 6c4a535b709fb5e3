"""A program's frame: tf.app, tf.flags, tf.logging, the version strings (tf.VERSION,
tf.version), and the TF 2.x switches a TF1 program calls (eager execution, v2 behaviour), which
the graph-only engine answers."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.framework.api_namespace import NotSupportedError as _NotSupported
from engine.framework import versions as _versions
from engine.platform import app as _app, flags, tf_logging as _logging  # noqa: F401

_VERSION_NAMES = ("VERSION", "GIT_VERSION", "COMPILER_VERSION", "GRAPH_DEF_VERSION",
                  "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER")
globals().update({name: getattr(_versions, name) for name in _VERSION_NAMES})
CXX11_ABI_FLAG, MONOLITHIC_BUILD = _versions.CXX11_ABI_FLAG, _versions.MONOLITHIC_BUILD
version = _Namespace("tf.version", **{name: getattr(_versions, name) for name in _VERSION_NAMES})

app = _Namespace("tf.app", run=_app.run, flags=flags)
logging = _Namespace("tf.logging", **{name: getattr(_logging, name) for name in (
    "DEBUG", "ERROR", "FATAL", "INFO", "WARN", "debug", "error", "fatal", "flush",
    "get_verbosity", "info", "log", "log_every_n", "log_first_n", "log_if", "set_verbosity",
    "vlog", "warn", "warning")})


def enable_eager_execution(*args, **kwargs):
    raise _NotSupported("eager execution is not supported: the engine builds graphs and runs "
                        "them in a tf.Session")


def disable_v2_behavior():
    """Already TF 1.x: nothing to do."""


def disable_eager_execution():
    """The engine only builds graphs: nothing to do."""


def executing_eagerly():
    return False
