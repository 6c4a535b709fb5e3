"""tf.flags / tf.app.flags: absl's flags, as TensorFlow 1.x re-exported them.

Two TensorFlow touches over plain absl: the define functions still take the pre-absl keyword
names (flag_name, default_value, docstring), and reading a flag before anything parsed the
command line parses sys.argv first instead of raising. And one of the engine's: a --flagfile
(nested ones too) is read only when it is a regular file of a flag file's size, else absl's
CantOpenFlagFileError, before absl reads it whole (a named pipe would block, /dev/zero fill
memory).
"""

import functools
import logging
import os
import sys

from absl.flags import *  # noqa: F401,F403 (tf.flags is absl.flags)
# absl.app defines absl's own flags (--log_dir, ...), as importing TensorFlow does.
from absl import app as _absl_app  # noqa: F401
from absl import flags as _absl_flags

from engine.framework import errors as _errors
from engine.framework.api_namespace import module_getattr as _module_getattr
from engine.lib_io import file_io as _file_io

# A flag file holds a few flags a line; one of megabytes is not one.
MAX_FLAG_FILE_BYTES = 16 << 20

# Flags defined through this module belong to the module that called it (absl's --help lists
# them under the program's name, as TensorFlow's).
_absl_flags.disclaim_key_flags()

_RENAMED_ARGUMENTS = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _accepting_old_names(define):
    @functools.wraps(define)
    def wrapper(*args, **kwargs):
        old = [key for key in _RENAMED_ARGUMENTS if key in kwargs]
        for key in old:
            kwargs[_RENAMED_ARGUMENTS[key]] = kwargs.pop(key)
        if old:
            logging.warning("Use of the keyword argument names (flag_name, default_value, "
                            "docstring) is deprecated, please use (name, default, help) instead.")
        return define(*args, **kwargs)
    return wrapper


DEFINE_string = _accepting_old_names(_absl_flags.DEFINE_string)
DEFINE_integer = _accepting_old_names(_absl_flags.DEFINE_integer)
DEFINE_float = _accepting_old_names(_absl_flags.DEFINE_float)
DEFINE_boolean = DEFINE_bool = _accepting_old_names(_absl_flags.DEFINE_boolean)
DEFINE_enum = _accepting_old_names(_absl_flags.DEFINE_enum)
DEFINE_list = _accepting_old_names(_absl_flags.DEFINE_list)
DEFINE_multi_string = _accepting_old_names(_absl_flags.DEFINE_multi_string)
DEFINE_multi_integer = _accepting_old_names(_absl_flags.DEFINE_multi_integer)


def _flag_files(args):
    """The files --flagfile=F, -flagfile=F, --flagfile F and -flagfile F name in `args`."""
    files, args = [], list(args)
    for i, arg in enumerate(args):
        if arg in ("--flagfile", "-flagfile") and i + 1 < len(args):
            files.append(os.path.expanduser(args[i + 1]))
        elif arg.startswith(("--flagfile=", "-flagfile=")):
            files.append(os.path.expanduser(arg.split("=", 1)[1]))
    return [name for name in files if name]


def check_flag_files(argv, seen=()):
    """absl's CantOpenFlagFileError for a --flagfile in argv (or nested in one) that is not a
    regular file of at most MAX_FLAG_FILE_BYTES; each file read is bounded."""
    for name in _flag_files(argv[1:] if not seen else argv):
        if name in seen or not os.path.lexists(name):
            continue  # absl warns of a circle, and words a missing file itself
        try:
            text = _file_io.read_file(name, MAX_FLAG_FILE_BYTES).decode("utf-8", "replace")
        except _errors.OpError as error:
            raise _absl_flags.CantOpenFlagFileError(
                f"ERROR:: Unable to open flagfile: {error.message}") from None
        check_flag_files([line.strip() for line in text.splitlines()], (*seen, name))


class _ParsingOnFirstRead:
    """absl's FLAGS, but a flag read before parsing parses sys.argv (TF 1.x programs did so)."""

    def __init__(self, flag_values):
        self.__dict__["_wrapped"] = flag_values

    def __getattr__(self, name):
        wrapped = self.__dict__["_wrapped"]
        if not wrapped.is_parsed():
            check_flag_files(sys.argv)
            wrapped(sys.argv, known_only=True)
        return getattr(wrapped, name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_wrapped"], name, value)

    def __delattr__(self, name):
        delattr(self.__dict__["_wrapped"], name)

    def __call__(self, argv, *args, **kwargs):
        check_flag_files(argv)
        return self.__dict__["_wrapped"](argv, *args, **kwargs)

    def __dir__(self):
        return dir(self.__dict__["_wrapped"])

    def __getitem__(self, name):
        return self.__dict__["_wrapped"][name]

    def __setitem__(self, name, flag):
        self.__dict__["_wrapped"][name] = flag

    def __contains__(self, name):
        return name in self.__dict__["_wrapped"]

    def __len__(self):
        return len(self.__dict__["_wrapped"])

    def __iter__(self):
        return iter(self.__dict__["_wrapped"])


FLAGS = _ParsingOnFirstRead(_absl_flags.FLAGS)

__getattr__ = _module_getattr("tf.flags")
