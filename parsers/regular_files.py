"""The files the readers open: regular files only, by the engine's check, refused as InputError.

A named pipe would block the reader forever and /dev/zero never ends; only regular files,
whose size is known before reading, are read. The check and the non-blocking open are the
engine's (engine/lib_io/file_io.py), so the engine's readers and these refuse the same files.
"""

from engine.framework import errors
from engine.lib_io import file_io
from parsers.errors import InputError

# The engine words OS errors as TensorFlow does; the command line, in lower case.
_OS_WORDS = {"No such file or directory": "no such file or directory",
             "Permission denied": "permission denied", "Is a directory": "is a directory"}


def _input_error(path, error):
    """InputError for the engine's OpError about `path` (its "PATH; " prefix dropped)."""
    what = error.message.removeprefix(f"{path}; ")
    if what.startswith("not a regular file"):
        what += "; give a file or directory"
    return InputError(path, _OS_WORDS.get(what, what))


def check_regular_file(path):
    """InputError unless `path` is a regular file (after links); nothing is opened."""
    try:
        file_io.check_regular_file(path)
    except errors.OpError as error:
        raise _input_error(path, error) from None


def open_file(path):
    """`path` opened to read, if it is a regular file (opened without blocking on a pipe)."""
    try:
        return file_io.open_input(path)
    except errors.OpError as error:
        raise _input_error(path, error) from None
