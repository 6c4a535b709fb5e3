"""Files opened and written as TensorFlow's file system does: OS errors become TensorFlow's
errors naming the file, and a write lands whole or not at all.

>>> os_error(OSError(28, "No space left on device"), "/ckpt/model.index")
ResourceExhaustedError('/ckpt/model.index; No space left on device')
>>> os_error(IsADirectoryError(21, "Is a directory"), "records")
FailedPreconditionError('records; Is a directory')
"""

import errno
import os

from engine.framework import errors

# TensorFlow's ErrnoToCode (tsl/platform/errors.cc), for the errnos a file operation meets.
_CODES = {
    errno.ENOENT: errors.NotFoundError, errno.ENXIO: errors.NotFoundError,
    errno.EACCES: errors.PermissionDeniedError, errno.EPERM: errors.PermissionDeniedError,
    errno.EROFS: errors.PermissionDeniedError,
    errno.EEXIST: errors.AlreadyExistsError,
    errno.ENOSPC: errors.ResourceExhaustedError, errno.EDQUOT: errors.ResourceExhaustedError,
    errno.EMFILE: errors.ResourceExhaustedError, errno.ENFILE: errors.ResourceExhaustedError,
    errno.EFBIG: errors.ResourceExhaustedError,
    errno.EISDIR: errors.FailedPreconditionError, errno.ENOTDIR: errors.FailedPreconditionError,
    errno.EBUSY: errors.FailedPreconditionError,
    errno.ENAMETOOLONG: errors.InvalidArgumentError, errno.EINVAL: errors.InvalidArgumentError,
}


def os_error(error, path, node_def=None):
    """The OpError TensorFlow raises for OSError `error` on `path`: "PATH; STRERROR"."""
    cls = _CODES.get(error.errno, errors.UnknownError)
    return cls(node_def, None, f"{path}; {error.strerror or error}")


def open_input(path, node_def=None):
    """`path` opened for binary reading; an OS error is TensorFlow's error naming the file."""
    try:
        return open(path, "rb")
    except OSError as error:
        raise os_error(error, path, node_def) from None
    except ValueError:  # a NUL in the name: no file has that name
        raise errors.NotFoundError(node_def, None, f"{path!r}; No such file or directory") \
            from None


def write_atomically(path, data, node_def=None):
    """Write `data` (bytes or str) to a temporary file beside `path` and rename it into place:
    a failed write (a full disk) leaves the old `path` as it was and no temporary file behind,
    and raises TensorFlow's error naming `path`."""
    path = os.fspath(path)
    temporary = f"{path}.tempstate{os.getpid()}"
    try:
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        with open(temporary, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temporary, path)
    except OSError as error:
        try:
            os.remove(temporary)
        except OSError:
            pass  # never made, or already gone: nothing left behind either way
        raise os_error(error, path, node_def) from None
