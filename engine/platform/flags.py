"""tf.flags / tf.app.flags: absl's flags, as TensorFlow 1.x re-exported them.

Two TensorFlow touches over plain absl: the define functions still take the pre-absl keyword
names (flag_name, default_value, docstring), and reading a flag before anything parsed the
command line parses sys.argv first instead of raising.
"""

import functools
import logging
import sys

from absl.flags import *  # noqa: F401,F403 (tf.flags is absl.flags)
# absl.app defines absl's own flags (--log_dir, ...), as importing TensorFlow does.
from absl import app as _absl_app  # noqa: F401
from absl import flags as _absl_flags

from engine.framework.api_namespace import module_getattr as _module_getattr

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


class _ParsingOnFirstRead:
    """absl's FLAGS, but a flag read before parsing parses sys.argv (TF 1.x programs did so)."""

    def __init__(self, flag_values):
        self.__dict__["_wrapped"] = flag_values

    def __getattr__(self, name):
        wrapped = self.__dict__["_wrapped"]
        if not wrapped.is_parsed():
            wrapped(sys.argv, known_only=True)
        return getattr(wrapped, name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_wrapped"], name, value)

    def __delattr__(self, name):
        delattr(self.__dict__["_wrapped"], name)

    def __call__(self, *args, **kwargs):
        return self.__dict__["_wrapped"](*args, **kwargs)

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
