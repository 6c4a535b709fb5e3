"""tf.logging: the "tensorflow" Python logger, printing `LEVEL:tensorflow:message` on stderr.

As TensorFlow does, the logger gets its own stderr handler only when the root logger has none
(a program that configured logging keeps its own format), and only on first use.
"""

import logging as _logging
import sys as _sys
import threading as _threading

DEBUG, ERROR, FATAL, INFO, WARN = (_logging.DEBUG, _logging.ERROR, _logging.FATAL,
                                    _logging.INFO, _logging.WARN)
_logger = None
_lock = _threading.Lock()
_counts_per_call_site = {}


def get_logger():
    """The "tensorflow" logger, with a stderr handler in BASIC_FORMAT if nothing logs yet."""
    global _logger
    with _lock:
        if _logger is None:
            logger = _logging.getLogger("tensorflow")
            if not _logging.getLogger().handlers:
                handler = _logging.StreamHandler(_sys.stderr)
                handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
                logger.addHandler(handler)
            _logger = logger
    return _logger


def _log(level, msg, args, kwargs, depth=1):
    # stacklevel: the record names the user's line (logging.py:NN in absl's format), not ours.
    get_logger().log(level, msg, *args, stacklevel=depth + 2, **kwargs)


def log(level, msg, *args, **kwargs):
    _log(level, msg, args, kwargs)


def debug(msg, *args, **kwargs):
    _log(DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    _log(INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    _log(WARN, msg, args, kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _log(ERROR, msg, args, kwargs)


def fatal(msg, *args, **kwargs):
    _log(FATAL, msg, args, kwargs)


def TaskLevelStatusMessage(msg):  # noqa: N802  (TensorFlow's name)
    """A task's status, logged as an error (tf.logging.TaskLevelStatusMessage)."""
    _log(ERROR, msg, (), {})


def vlog(level, msg, *args, **kwargs):
    _log(level, msg, args, kwargs)


def get_verbosity():
    return get_logger().getEffectiveLevel()


def set_verbosity(v):
    get_logger().setLevel(v)


def _call_site():
    frame = _sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


def _next_count(site):
    _counts_per_call_site[site] = _counts_per_call_site.get(site, -1) + 1
    return _counts_per_call_site[site]


def log_if(level, msg, condition, *args):
    if condition:
        _log(level, msg, args, {})


def log_every_n(level, msg, n, *args):
    """Logs the 1st, (n+1)th, (2n+1)th ... call from one line of code."""
    if not _next_count(_call_site()) % n:
        _log(level, msg, args, {})


def log_first_n(level, msg, n, *args):
    """Logs the first n calls from one line of code."""
    if _next_count(_call_site()) < n:
        _log(level, msg, args, {})


def flush():
    raise NotImplementedError()  # as TensorFlow's
