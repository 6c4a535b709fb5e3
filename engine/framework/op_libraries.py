"""tf.load_op_library, tf.load_library and tf.load_file_system_library: TensorFlow loads a
custom-op or file-system .so into its process; the engine runs no TensorFlow C++ code, so a
library that is there is refused with NotSupportedError naming it, and one that is not gives
TensorFlow's own error (what dlopen says, or load_library's FileNotFoundError)."""

import errno
import os

from engine.framework import errors
from engine.framework.api_namespace import NotSupportedError


def _refuse(api, path):
    return NotSupportedError(f"{api}({path!r}): the engine runs TensorFlow programs on NumPy "
                             f"and cannot load TensorFlow's compiled op or file-system "
                             f"libraries; the ops in {path} are not available")


def _dlopen_error(path):
    # dlopen's words for a file that is not there, as TensorFlow passes them on
    return errors.NotFoundError(None, None,
                                f"{path}: cannot open shared object file: No such file or "
                                f"directory")


def load_op_library(library_filename):
    """tf.load_op_library: refused (see the module); NotFoundError for a missing file."""
    if not os.path.exists(library_filename):
        raise _dlopen_error(library_filename)
    raise _refuse("tf.load_op_library", library_filename)


def load_file_system_library(library_filename):
    """tf.load_file_system_library: refused (see the module); NotFoundError for a missing
    file."""
    if not os.path.exists(library_filename):
        raise _dlopen_error(library_filename)
    raise _refuse("tf.load_file_system_library", library_filename)


def load_library(library_location):
    """tf.load_library: a .so, or a folder of them; refused (see the module) where it is there,
    FileNotFoundError as TensorFlow's where it is not."""
    if not os.path.exists(library_location):
        raise FileNotFoundError(errno.ENOENT, "The file or folder to load kernel libraries "
                                              "from does not exist.", library_location)
    raise _refuse("tf.load_library", library_location)
