"""The rest of TF1 programs' API: tf.app, tf.flags, tf.gfile, tf.logging, tf.metrics, schedules.

engine/api.py star-imports this module (`__all__` below) and adds TRAIN_TF1 to tf.train.
"""

from engine.framework.api_namespace import Namespace, NotSupportedError
from engine.ops import learning_rate_decay as _decay, metrics as _metrics, train as _train
from engine.ops.clip_ops import clip_by_global_norm, clip_by_norm, global_norm
from engine.ops.norm_ops import norm
from engine.platform import app as _app, flags, gfile as _gfile, tf_logging as _logging
from engine.proto.event_pb2 import Event, SessionLog
from engine.proto.summary_pb2 import Summary
from engine.summary.reader import summary_iterator as _summary_iterator
from engine.training import basic_hooks as _hooks, monitored_session as _monitored
from engine.training import checkpoint_hooks as _checkpoint_hooks
from engine.training import session_run_hook as _run_hook
from engine.summary.legacy import (audio_summary, histogram_summary, image_summary,
                                   scalar_summary)

__all__ = ["app", "flags", "gfile", "logging", "metrics", "enable_eager_execution",
           "clip_by_global_norm", "clip_by_norm", "global_norm", "norm", "TRAIN_TF1",
           "audio_summary", "histogram_summary", "image_summary", "scalar_summary",
           "Event", "SessionLog", "Summary"]

app = Namespace("tf.app", run=_app.run, flags=flags)
gfile = Namespace("tf.gfile", **{name: getattr(_gfile, name) for name in (
    "Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory",
    "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk")})
logging = Namespace("tf.logging", **{name: getattr(_logging, name) for name in (
    "DEBUG", "ERROR", "FATAL", "INFO", "WARN", "debug", "error", "fatal", "flush",
    "get_verbosity", "info", "log", "log_every_n", "log_first_n", "log_if", "set_verbosity",
    "vlog", "warn", "warning")})


def enable_eager_execution(*args, **kwargs):
    raise NotSupportedError("eager execution is not supported: the engine builds graphs and "
                            "runs them in a tf.Session")


metrics = Namespace("tf.metrics", mean=_metrics.mean, accuracy=_metrics.accuracy)

# Added to tf.train by engine/api.py.
TRAIN_TF1 = {name: getattr(_decay, name) for name in (
    "cosine_decay", "exponential_decay", "inverse_time_decay", "natural_exp_decay",
    "piecewise_constant", "piecewise_constant_decay", "polynomial_decay")}
TRAIN_TF1.update({name: getattr(_hooks, name) for name in (
    "LoggingTensorHook", "NanLossDuringTrainingError", "NanTensorHook", "SecondOrStepTimer",
    "StepCounterHook", "StopAtStepHook", "SummarySaverHook")})
TRAIN_TF1.update({name: getattr(_run_hook, name) for name in (
    "SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues")})
TRAIN_TF1.update({name: getattr(_monitored, name) for name in (
    "MonitoredSession", "MonitoredTrainingSession", "Scaffold", "SingularMonitoredSession")})
TRAIN_TF1["CheckpointSaverHook"] = _checkpoint_hooks.CheckpointSaverHook
TRAIN_TF1["summary_iterator"] = _summary_iterator
TRAIN_TF1["global_step"] = _train.global_step
