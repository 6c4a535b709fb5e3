"""A binary stream whose lines are bounded: a file with no newline for MAX_LINE bytes is no log.

Iterating a file reads each line whole, however long: `/dev/zero`, or a binary file named by
mistake, would be read into memory until memory runs out. BoundedLines sits under the
buffered reader the parser iterates, so lines still come from C at full speed, and raises an
InputError once MAX_LINE bytes pass without a newline. TensorFlow cuts what it prints long
before that: a real log's longest lines (graph dumps of large constants) are kilobytes.
It also reports progress as the buffered reader asks for more, a megabyte at a time.

>>> import io
>>> list(bounded_lines(io.BytesIO(b"a\\nb\\nc"), "x"))
[b'a\\n', b'b\\n', b'c']
>>> list(bounded_lines(io.BytesIO(b"0" * 9), "x", max_line=4))
Traceback (most recent call last):
parsers.errors.InputError: x: no newline in 4 bytes from byte 0: not a text log
"""

from __future__ import annotations

import io
from collections.abc import Callable

from parsers.errors import InputError

MAX_LINE = 64 << 20
BUFFER = 1 << 20


def _size(count: int) -> str:
    return f"{count >> 20} MiB" if count >= 1 << 20 and count % (1 << 20) == 0 else f"{count} bytes"


class BoundedLines(io.RawIOBase):
    """The raw bytes of `stream`, checked as they are read: each newline-free stretch is at
    most max_line bytes (else InputError naming `name`); progress(bytes read) after each read."""

    def __init__(self, stream: io.BufferedIOBase, name: str, max_line: int | None = None,
                 progress: Callable[[int], None] | None = None):
        super().__init__()
        self._stream = stream
        self._name = name
        self._max_line = MAX_LINE if max_line is None else max_line
        self._progress = progress
        self._read = 0
        self._line_start = 0  # offset where the line being read began

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._stream.read(len(buffer))
        count = len(data)
        if not count:
            return 0
        buffer[:count] = data
        newline = data.rfind(b"\n")
        if newline >= 0:
            self._line_start = self._read + newline + 1
        self._read += count
        if self._read - self._line_start > self._max_line:
            raise InputError(self._name, f"no newline in {_size(self._max_line)} from byte "
                                         f"{self._line_start}: not a text log")
        if self._progress is not None:
            self._progress(self._read)
        return count


def bounded_lines(stream: io.BufferedIOBase, name: str, max_line: int | None = None,
                  progress: Callable[[int], None] | None = None) -> io.BufferedReader:
    """A buffered reader over `stream` whose iteration gives its lines, each bounded."""
    raw = BoundedLines(stream, name, max_line, progress)
    return io.BufferedReader(raw, buffer_size=min(BUFFER, max(raw._max_line, 1)))


def split_bounded(pending: bytes, data: bytes, name: str, max_line: int | None = None
                  ) -> tuple[list[bytes], bytes]:
    """(complete lines without their newlines, the unfinished rest) of pending + data, for a
    reader of a growing log; InputError when the unfinished rest passes max_line.

    >>> split_bounded(b"a", b"b\\nc", "x")
    ([b'ab'], b'c')
    """
    lines = (pending + data).split(b"\n")
    rest = lines.pop()
    max_line = MAX_LINE if max_line is None else max_line
    if len(rest) > max_line:
        raise InputError(name, f"no newline in {_size(max_line)}: not a text log")
    return lines, rest
