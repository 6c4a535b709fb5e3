"""The process-wide settings TensorFlow's eager context keeps and a tf.Session made without a
config takes (context.context().config): here only log_device_placement, which
tf.debugging.set_log_device_placement sets."""

from engine.proto import config_pb2

_log_device_placement = False


def set_log_device_placement(enabled):
    global _log_device_placement
    _log_device_placement = bool(enabled)


def get_log_device_placement():
    return _log_device_placement


def default_config():
    """The ConfigProto of a session built with config=None."""
    return config_pb2.ConfigProto(log_device_placement=_log_device_placement)
