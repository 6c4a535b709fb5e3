"""tf.gfile: TensorFlow 1.x's file API over the local file system, with TensorFlow's errors.

Names as tf.compat.v1.gfile has them (Exists, MakeDirs, GFile, ...). Missing files raise
NotFoundError, existing targets AlreadyExistsError, as TensorFlow's file_io does; GFile opens
lazily, so a missing file fails at the first read, not at GFile(...).
"""

import contextlib
import glob as _glob
import os
import shutil
from collections import namedtuple

from engine.framework import errors
from engine.lib_io import file_io


def _not_found(path):
    return errors.NotFoundError(None, None, f"{path}; No such file or directory")


def _already_exists(path):
    return errors.AlreadyExistsError(None, None, "file already exists")


def Exists(filename):  # noqa: N802 (TensorFlow's names)
    return os.path.exists(filename)


def IsDirectory(dirname):  # noqa: N802
    return os.path.isdir(dirname)


def MakeDirs(dirname):  # noqa: N802
    """Creates dirname and its parents; an existing directory is fine."""
    if os.path.exists(dirname) and not os.path.isdir(dirname):
        raise errors.FailedPreconditionError(None, None, f"{dirname} is not a directory")
    file_io.recursively_create_dir(os.fspath(dirname))


def MkDir(dirname):  # noqa: N802
    """Creates one directory; its parent must exist (an existing directory is fine, as TF's)."""
    if os.path.isdir(dirname):
        return
    if os.path.exists(dirname):
        raise _already_exists(dirname)
    if not os.path.isdir(os.path.dirname(os.path.abspath(dirname))):
        raise _not_found(dirname)
    with file_io.tf_errors(dirname):
        os.mkdir(dirname)


def DeleteRecursively(dirname):  # noqa: N802
    if not os.path.exists(dirname):
        raise _not_found(dirname)
    if os.path.isdir(dirname) and not os.path.islink(dirname):
        shutil.rmtree(dirname)
    else:
        os.remove(dirname)


def Remove(filename):  # noqa: N802
    if not os.path.lexists(filename):
        raise _not_found(filename)
    os.remove(filename)


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    if not os.path.exists(oldname):
        raise _not_found(oldname)
    if not overwrite and os.path.exists(newname):
        raise _already_exists(newname)
    with file_io.tf_errors(oldname):  # TensorFlow names the source (EXDEV: UnimplementedError)
        os.replace(oldname, newname)


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802
    if not os.path.exists(oldpath):
        raise _not_found(oldpath)
    if not overwrite and os.path.exists(newpath):
        raise _already_exists(newpath)
    # Through a temporary file beside newpath: a full disk leaves a file overwritten whole
    # (TensorFlow's Copy leaves it cut short), and raises TensorFlow's error naming newpath.
    temporary = f"{newpath}.tempstate{os.getpid()}"
    with file_io.tf_errors(newpath):
        try:
            shutil.copyfile(oldpath, temporary)
            os.replace(temporary, newpath)
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise


def ListDirectory(dirname):  # noqa: N802
    """The entries of dirname (names only, no '.' or '..'); NotFoundError if not a directory."""
    if not os.path.isdir(dirname):
        raise errors.NotFoundError(None, None, "Could not find directory " + dirname)
    return os.listdir(dirname)


def Glob(filename):  # noqa: N802
    """Paths matching a pattern (or each of a list of patterns)."""
    patterns = [filename] if isinstance(filename, (str, bytes, os.PathLike)) else filename
    return [path for pattern in patterns for path in _glob.glob(os.fsdecode(pattern))]


def Walk(top, in_order=True):  # noqa: N802
    """(dirname, subdirectories, files) for top and below; top first unless in_order=False."""
    if not os.path.isdir(top):
        return
    names = os.listdir(top)
    subdirs = [n for n in names if os.path.isdir(os.path.join(top, n))]
    files = [n for n in names if n not in subdirs]
    if in_order:
        yield top, subdirs, files
    for subdir in subdirs:
        yield from Walk(os.path.join(top, subdir), in_order)
    if not in_order:
        yield top, subdirs, files


FileStatistics = namedtuple("FileStatistics", "length mtime_nsec is_directory")


def Stat(filename):  # noqa: N802
    if not os.path.exists(filename):
        raise _not_found(filename)
    st = os.stat(filename)
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(filename))


class GFile:
    """A file: text in 'r'/'w'/'a' modes, bytes with 'b'; opened at the first read or write."""

    def __init__(self, name, mode="r"):
        self._name, self._mode, self._file = os.fspath(name), mode, None
        if "w" in mode or "a" in mode:
            self._open()

    name = property(lambda self: self._name)
    mode = property(lambda self: self._mode)

    def _open(self):
        if self._file is None:
            if "r" in self._mode and not os.path.exists(self._name):
                raise _not_found(self._name)
            binary = "b" in self._mode
            with file_io.tf_errors(self._name):
                self._file = open(self._name, self._mode,  # noqa: SIM115
                                  **({} if binary else {"encoding": "utf-8", "newline": ""}))
        return self._file

    def size(self):
        if not os.path.exists(self._name):
            raise _not_found(self._name)
        return os.path.getsize(self._name)

    def read(self, n=-1):
        return self._open().read(n)

    def readline(self):
        return self._open().readline()

    def readlines(self):
        return self._open().readlines()

    def write(self, file_content):
        file = self._open()
        if "b" not in self._mode and isinstance(file_content, bytes):
            file_content = file_content.decode("utf-8")
        with file_io.tf_errors(self._name):  # a full disk: ResourceExhaustedError, as TF's
            file.write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        self._open().seek(position if offset is None else offset, whence)

    def tell(self):
        return self._open().tell()

    def flush(self):
        if self._file is not None:
            with file_io.tf_errors(self._name):
                self._file.flush()

    def close(self):
        if self._file is not None:
            file, self._file = self._file, None  # closed even when its last flush fails
            with file_io.tf_errors(self._name):
                file.close()

    def __iter__(self):
        return iter(self._open())

    def __next__(self):
        return next(self._open())

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


Open = FastGFile = GFile
