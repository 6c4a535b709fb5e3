"""Run a native library's reading of a file in a forked child, so that a damaged file which
crashes the library (libhdf5 segfaults on some, as the Keras fuzz test found) is an InputError
naming the file, not the end of the process.

The child inherits everything (no argument is pickled); its answer comes back pickled through
a pipe. Where there is no fork (not POSIX), the call runs in the process itself.

>>> call("x.h5", lambda: 6 * 7)
42
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import signal
import warnings

from parsers.errors import InputError


def call(path, function):
    """function()'s result, computed in a forked child; InputError when it raised one, when it
    raised anything else (named), or when the child died (by its signal)."""
    if not hasattr(os, "fork"):
        return function()
    read_fd, write_fd = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12 warns of fork in a threaded process (the TUI reads in workers): the
        # child runs no code but `function` and the write, so it needs no other thread's lock.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        _child(read_fd, write_fd, function)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd, "rb") as stream:
            payload = stream.read()
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise InputError(path, f"the reader crashed on it ({name} in the HDF5 library): a damaged file")
    if not payload:
        raise InputError(path, f"the reader stopped without an answer (exit status {os.WEXITSTATUS(status)})")
    kind, value = pickle.loads(payload)
    if kind == "input_error":
        raise InputError(*value)
    if kind == "error":
        raise InputError(path, f"could not be read: {value}")
    return value


def _child(read_fd, write_fd, function):
    """Compute, write the answer, and leave at once (no cleanup of the parent's objects)."""
    status = 0
    # A crash here is the expected answer to a damaged file, reported by the parent: no
    # interpreter dump of it (pytest and `python -X faulthandler` turn the handler on).
    faulthandler.disable()
    try:
        os.close(read_fd)
        try:
            answer = ("value", function())
        except InputError as error:
            answer = ("input_error", (error.path, error.message))
        except Exception as error:  # a library's own error on a damaged file: say what it was
            answer = ("error", f"{type(error).__name__}: {error}")
        payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_fd, "wb") as stream:
            stream.write(payload)
    except BaseException:
        status = 1
    finally:
        os._exit(status)
