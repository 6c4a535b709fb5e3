"""Every file the tool writes: checked before any work, written beside its target, renamed in.

A write goes to a temporary file in the target's directory and is renamed over the target
only once it is complete, so a write that fails half-way (a full disk, a file-size limit)
leaves the old file byte-identical. Paths are checked first: an output that is one of the
inputs, a missing directory, or a directory where a file goes is refused before anything is
read or run. Failures are OutputErrors naming the output path (`error: <path>: ...`, exit 2).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> check_output(folder / "g.svg", inputs=[folder / "g.svg"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
views.outputs.OutputError: ...g.svg: the output is the input file; choose another output
>>> write_bytes(folder / "g.svg", b"<svg/>")
6
>>> sorted(p.name for p in folder.iterdir())
['g.svg']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile

from parsers.errors import InputError

STDOUT = "-"
_fdopen = os.fdopen  # tests put a failing disk here


class OutputError(InputError, OSError):
    """An output that cannot be written as asked: an InputError to the CLI (`error: <path>:
    ...`, exit 2), an OSError to callers (the TUI) that catch those."""


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _same_file(a, b):
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links
    except OSError:
        return False


def is_inside(path, folder):
    """Whether `path` is `folder` or lies beneath it, after resolving links."""
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_output(path, inputs=(), allow_stdout=False, stdout_note=""):
    """Refuses, before any work, an output file that cannot be written as asked; returns the
    path as a string ("-" is stdout where `allow_stdout`)."""
    path = os.fspath(path)
    if path == STDOUT:
        if allow_stdout:
            return path
        raise OutputError(path, "cannot write this to stdout" + (f": {stdout_note}" if stdout_note
                                                                else "; give a file name"))
    if not path:
        raise OutputError("''", "empty output path")
    for source in inputs:
        if source != STDOUT and _same_file(path, os.fspath(source)):
            raise OutputError(path, "the output is the input file; choose another output")
    if os.path.isdir(path):
        raise OutputError(path, "is a directory; give a file name")
    if not _is_device(path):
        _check_parent(path)
    return path


def _is_device(path):
    """A character device or a pipe (/dev/null, /dev/stdout): written in place, never renamed
    over (a rename would replace the device with a file)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def check_output_dir(path, inputs=()):
    """Refuses an output directory that cannot hold our files, or that is an input."""
    path = os.fspath(path)
    if path == STDOUT:
        raise OutputError(path, "a directory is needed here, not stdout")
    if not path:
        raise OutputError("''", "empty output path")
    if os.path.lexists(path) and not os.path.isdir(path):
        raise OutputError(path, "exists and is not a directory")
    if not os.path.exists(path):
        _check_parent(path)
    elif not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(path, f"not writable ({_why_not_writable(path)})")
    for source in inputs:
        if source != STDOUT and _same_file(path, os.fspath(source)):
            raise OutputError(path, "the output directory is the input; choose another")
    return path


def _check_parent(path):
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise OutputError(path, f"no such directory: {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(path, f"cannot write in {parent} ({_why_not_writable(parent)})")


def _why_not_writable(folder):
    """A folder os.access refused: on a file system mounted read-only (EROFS, which no
    permission fixes), else a permission."""
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        read_only = False
    return "read-only file system" if read_only else "permission denied"


def _cannot_write(path, error):
    return OutputError(path, f"cannot write: {error.strerror or error}")


@contextlib.contextmanager
def replacing(path, mode="wb"):
    """A file object to write `path` through: a temporary file beside it, renamed over `path`
    when the block ends without an exception, removed otherwise. "-" writes stdout directly."""
    path = os.fspath(path)
    if path == STDOUT:
        stream = sys.stdout.buffer if "b" in mode else sys.stdout
        yield stream
        stream.flush()
        return
    if _is_device(path):
        try:
            with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as out:
                yield out
        except OSError as error:
            raise _cannot_write(path, error) from None
        return
    # A link is followed: the file it names is replaced, the link stays.
    target = os.path.realpath(path) if os.path.islink(path) else os.path.abspath(path)
    folder, name = os.path.split(target)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        encoding = None if "b" in mode else "utf-8"
        with _fdopen(handle, mode, encoding=encoding) as out:
            yield out
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except OSError as error:
        _remove(temporary)
        raise _cannot_write(path, error) from None
    except BaseException:
        _remove(temporary)
        raise


def _mode_for(path):
    """The old file's permissions, else what a new file gets (mkstemp's are 0600)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _remove(path):
    with contextlib.suppress(OSError):
        os.unlink(path)


def write_bytes(path, data):
    """Writes `data` to `path` (or stdout for "-") whole or not at all; returns its length."""
    with replacing(path, "wb") as out:
        out.write(data)
    return len(data)


def write_text(path, text):
    """Writes `text` as UTF-8, whole or not at all; returns the number of bytes."""
    return write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def replacing_directory(path, replaceable=lambda folder: False):
    """A temporary directory beside `path` to fill; renamed to `path` when the block ends
    without an exception. An existing `path` is replaced only where `replaceable(path)` says
    so (our own earlier output), else refused; on failure it is left as it was."""
    path = os.fspath(path)
    if os.path.lexists(path) and not (os.path.isdir(path) and not os.path.islink(path)
                                      and replaceable(path)):
        raise OutputError(path, "exists and holds files this command did not write;"
                               " will not replace it (choose another output directory)")
    folder, name = os.path.split(os.path.abspath(path))
    made = first_missing(folder)
    try:
        os.makedirs(folder, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        remove_made(folder, made)
        raise _cannot_write(path, error) from None
    try:
        yield staging
        os.chmod(staging, 0o777 & ~_umask())
        old = None
        if os.path.exists(path):  # a directory cannot be renamed over another: swap them
            old = tempfile.mkdtemp(prefix=f".{name}.", suffix=".old", dir=folder)
            os.replace(path, os.path.join(old, name))
        try:
            os.replace(staging, path)
        except OSError:
            if old is not None:
                os.replace(os.path.join(old, name), path)
                os.rmdir(old)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        remove_made(folder, made)
        raise _cannot_write(path, error) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        remove_made(folder, made)
        raise


def first_missing(folder):
    """The outermost folder on the way to `folder` that does not exist yet (None: it does)."""
    missing = None
    while folder and not os.path.exists(folder):
        missing, folder = folder, os.path.dirname(folder)
        if folder == missing:
            break
    return missing


def remove_made(folder, made):
    """Removes the folders from `folder` up to `made` that this command made, where they are
    still empty (a failed write leaves no empty log directory behind)."""
    if made is None:
        return
    while True:
        try:
            os.rmdir(folder)
        except OSError:
            return
        if folder == made:
            return
        folder = os.path.dirname(folder)
