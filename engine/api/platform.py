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
    "vlog", "warn", "warning", "TaskLevelStatusMessage")})


def enable_eager_execution(*args, **kwargs):
    raise _NotSupported("eager execution is not supported: the engine builds graphs and runs "
                        "them in a tf.Session")


def disable_v2_behavior():
    """Already TF 1.x: nothing to do."""


def disable_eager_execution():
    """The engine only builds graphs: nothing to do."""


def executing_eagerly():
    return False


def executing_eagerly_outside_functions():
    """False: the engine's outermost context is always a graph."""
    return False


get_logger = _logging.get_logger


def enable_control_flow_v2():
    raise _NotSupported("control flow v2 is not supported: the engine builds TF 1.x control "
                        "flow (Switch, Merge, Enter, Exit, NextIteration), never If or While")


def disable_control_flow_v2():
    """The engine always builds v1 control flow: nothing to do."""


def control_flow_v2_enabled():
    """False: tf.cond and tf.while_loop build v1 control flow (as TF 1.x's default)."""
    return False


def enable_v2_tensorshape():
    raise _NotSupported("the v2 TensorShape behaviour is not supported: the engine's "
                        "TensorShape indexes and iterates as Dimension objects, TF 1.x's way")


def disable_v2_tensorshape():
    """The engine's TensorShape already behaves as TF 1.x's (Dimension objects): nothing to
    do."""
