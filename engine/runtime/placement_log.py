"""What log_device_placement=True makes TensorFlow 2.x print: each placed node's line
`name: (Op): device` on stdout (placer.cc's printf) and again on stderr as an INFO line
with absl's prefix (its LOG(INFO), `placer.cc:162`); the device mapping at session
creation only on stderr (`direct_session.cc:382`). INFO lines are shown unless
TF_CPP_MIN_LOG_LEVEL is 1 or more, as TensorFlow's logging decides."""

import os
import sys

from engine.runtime import vlog


def info_enabled(environ=os.environ):
    """Whether TensorFlow would print INFO lines (TF_CPP_MIN_LOG_LEVEL unset, or 0)."""
    try:
        return int(environ.get("TF_CPP_MIN_LOG_LEVEL", "0") or 0) <= 0
    except ValueError:
        return True


def log_device_mapping(message, stream=None):
    """The session's `Device mapping: ...` INFO line(s)."""
    if info_enabled():
        vlog.write_lines([vlog.prefix("direct_session", 382) + message], stream)


def log_placement(entries, stream=None, err=None):
    """`name: (Op): device` per placed node: printed, then logged."""
    entries = list(entries)
    stream = stream or sys.stdout
    for name, op_type, device in entries:
        print(f"{name}: ({op_type}): {device}", file=stream)
    if info_enabled() and entries:
        vlog.write_lines([vlog.prefix("placer", 162) + f"{name}: ({op_type}): {device}"
                          for name, op_type, device in entries], err)
