"""Files opened and written as TensorFlow's file system does: OS errors become TensorFlow's
errors naming the file, and a write lands whole or not at all.

Every reader of a format (checkpoints, TFRecords, the readers' ops, SavedModels, meta graphs)
opens its files here, and only regular files: a named pipe nobody writes would block the open
forever and /dev/zero never ends. Reads are bounded by what the file holds, never by a length
or a line the file claims: `read_exactly` grows its buffer only as bytes arrive, and
`read_lines` refuses a line past a limit. The parsers reuse the same check.

>>> os_error(OSError(28, "No space left on device"), "/ckpt/model.index")
ResourceExhaustedError('/ckpt/model.index; No space left on device')
>>> os_error(IsADirectoryError(21, "Is a directory"), "records")
FailedPreconditionError('records; Is a directory')
"""

import contextlib
import errno
import fcntl
import fnmatch
import os
import stat

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
    errno.EXDEV: errors.UnimplementedError, errno.ENOSYS: errors.UnimplementedError,
    errno.ENOTSUP: errors.UnimplementedError,
}


def os_error(error, path, node_def=None):
    """The OpError TensorFlow raises for OSError `error` on `path`: "PATH; STRERROR"."""
    cls = _CODES.get(error.errno, errors.UnknownError)
    return cls(node_def, None, f"{path}; {error.strerror or error}")


@contextlib.contextmanager
def tf_errors(path, node_def=None):
    """An OSError inside as TensorFlow's OpError naming `path` (a full disk, a read-only
    directory): what its file system raises where the engine's writers call Python's."""
    try:
        yield
    except OSError as error:
        raise os_error(error, path, node_def) from None


_READ_CHUNK = 1 << 20  # a claimed length is read a megabyte at a time, as the bytes arrive
MAX_LINE_BYTES = 256 << 20  # a text line longer than this is not a line of any input read


def file_kind(mode):
    """What a stat mode that is not a regular file is, in words.

    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFCHR)
    ('a named pipe', 'a character device')
    """
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return name
    return "not a file"


def _refuse_unless_regular(mode, path, node_def):
    if stat.S_ISDIR(mode):  # as TensorFlow words reading a directory
        raise os_error(IsADirectoryError(errno.EISDIR, "Is a directory"), path, node_def)
    if not stat.S_ISREG(mode):
        raise errors.FailedPreconditionError(
            node_def, None, f"{path}; not a regular file ({file_kind(mode)})")


def check_regular_file(path, node_def=None):
    """TensorFlow's error (NotFoundError, FailedPreconditionError, ...) naming `path` unless
    it is a regular file (after links); nothing is opened."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise os_error(error, path, node_def) from None
    except ValueError:  # a NUL in the name: no file has that name
        raise _nul_in_name(path, node_def) from None
    _refuse_unless_regular(info.st_mode, path, node_def)


def _nul_in_name(path, node_def):
    return errors.NotFoundError(node_def, None, f"{path!r}; No such file or directory")


def open_input(path, node_def=None):
    """`path` opened for binary reading, if it is a regular file; an OS error or another
    kind of file is TensorFlow's error naming the file. Opened without blocking, then
    checked: opening a named pipe to read would wait for a writer."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise os_error(error, path, node_def) from None
    except ValueError:
        raise _nul_in_name(path, node_def) from None
    try:
        _refuse_unless_regular(os.fstat(fd).st_mode, path, node_def)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def remaining_bytes(stream):
    """How many bytes a regular file opened as `stream` holds past its position (None when
    the stream is not a file)."""
    try:
        return os.fstat(stream.fileno()).st_size - stream.tell()
    except (AttributeError, OSError, ValueError):
        return None


def read_exactly(stream, size):
    """`size` bytes of `stream`, or what it held before its end (fewer). The buffer grows as
    bytes arrive, so a length field claiming 2^62 bytes allocates what the file has."""
    pieces, left = [], size
    while left > 0:
        piece = stream.read(min(left, _READ_CHUNK))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def read_lines(stream, path, limit=MAX_LINE_BYTES, node_def=None):
    """The lines of binary `stream` (each with its line end); a line longer than `limit`
    bytes is ResourceExhaustedError naming `path` and the line, read no further."""
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            raise errors.ResourceExhaustedError(
                node_def, None, f"{path}; line {number} is longer than {limit} bytes")
        yield line


def read_file(path, limit, node_def=None):
    """The bytes of the regular file `path`, at most `limit` of them (ResourceExhaustedError
    past it): for small files read whole, such as a checkpoint state file."""
    with open_input(path, node_def) as stream:
        data = read_exactly(stream, limit + 1)
    if len(data) > limit:
        raise errors.ResourceExhaustedError(
            node_def, None, f"{path}; larger than the {limit} bytes such a file holds")
    return data


def recursively_create_dir(path, node_def=None):
    """TensorFlow's RecursivelyCreateDir: every missing directory of `path` made; a part that
    is a file is FailedPreconditionError "PART is not a directory", other OS errors
    TensorFlow's naming the path."""
    path = os.fspath(path)
    parts, current = [], path
    while current and not os.path.isdir(current):
        if os.path.lexists(current):
            raise errors.FailedPreconditionError(node_def, None,
                                                 f"{current} is not a directory")
        parts.append(current)
        parent = os.path.dirname(current.rstrip(os.sep)) if current != os.sep else ""
        if parent == current:
            break
        current = parent
    for part in reversed(parts):
        try:
            os.mkdir(part)
        except FileExistsError:
            if not os.path.isdir(part):
                raise errors.FailedPreconditionError(node_def, None,
                                                     f"{part} is not a directory") from None
        except OSError as error:
            raise os_error(error, part, node_def) from None


def list_directory(path, node_def=None):
    """The names in directory `path`; TensorFlow's NotFoundError "Could not find directory
    PATH" when it is none (a file, or missing)."""
    try:
        return os.listdir(path)
    except (FileNotFoundError, NotADirectoryError):
        raise errors.NotFoundError(node_def, None, f"Could not find directory {path}") from None
    except OSError as error:
        raise os_error(error, path, node_def) from None


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


def _dirname(path):
    """tsl's io::Dirname: everything before the last "/" ("/" for a top-level path)."""
    cut = path.rfind("/")
    if cut == -1:
        return ""
    return "/" if cut == 0 else path[:cut]


def _join(directory, name):
    """tsl's io::JoinPath of two parts: one "/" between them."""
    if not directory:
        return name
    return directory.rstrip("/") + "/" + name.lstrip("/")


def _component_match(name, pattern):
    # fnmatch(3)'s "[^...]" is fnmatchcase's "[!...]".
    return fnmatch.fnmatchcase(name, pattern.replace("[^", "[!"))


def path_matches(path, pattern):
    """fnmatch(pattern, path, FNM_PATHNAME): wildcards never match a "/".

    >>> path_matches("/d/a.txt", "/d/*.txt"), path_matches("/d/e/a.txt", "/d/*.txt")
    (True, False)
    """
    names, patterns = path.split("/"), pattern.split("/")
    return len(names) == len(patterns) and all(
        _component_match(n, p) for n, p in zip(names, patterns))


def get_matching_paths(pattern):
    """The paths matching a glob pattern, as TensorFlow's GetMatchingPaths finds them: the
    directories below the pattern's fixed prefix explored level by level, a wildcard matching
    within one path component (names starting with "." too), unsorted; a pattern without
    wildcards is the path itself where it exists."""
    if not pattern:
        return []
    cut = min([pattern.find(c) for c in "*?[\\" if c in pattern] or [len(pattern)])
    if cut == len(pattern):  # no wildcard: the path itself, as written, where it exists
        return [pattern] if os.path.exists(pattern) else []
    fixed_prefix, eval_pattern = pattern[:cut], pattern
    top = _dirname(fixed_prefix)
    if not top:
        top = "."
        fixed_prefix, eval_pattern = _join(top, fixed_prefix), _join(top, eval_pattern)
    dirs = [] if pattern.endswith("/") else [eval_pattern]
    level = eval_pattern
    while len(level) > len(top):
        level = _dirname(level)
        dirs.append(level)
    dirs.reverse()
    results, queue = [], [(dirs[0], 0)] if len(dirs) > 1 else []
    while queue:
        next_queue = []
        for current, index in queue:
            try:
                children = os.listdir(current)
            except OSError:
                continue
            for child in children:
                child_path = _join(current, child)
                if not child_path.startswith(fixed_prefix) or not path_matches(
                        child_path, dirs[index + 1]):
                    continue
                if index < len(dirs) - 2:
                    if os.path.isdir(child_path):
                        next_queue.append((child_path, index + 1))
                else:
                    results.append(child_path)
        queue = next_queue
    return results
