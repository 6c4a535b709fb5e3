"""The VLOG reader's fast path: the C scanner (parsers/vlog/scanner/) where it was built, else None.

`pip install` compiles parsers.vlog._scanner where it can; where it could not, or where
GRAPH_INSPECTOR_VLOG_NATIVE=off, `scanner` is None and the reader runs the pure-Python
reference (reader.VlogParser.feed_lines), which the scanner is tested against
(tests/parsers/test_vlog_native.py). The scanner reads a file, a megabyte at a time, into a
VlogParser's own state and hands each line it does not do itself to the handler feed_lines
would call, so both give the same VlogLog; it also writes the executions' JSON
(json_document.write_json).
"""

from __future__ import annotations

import os
import stat
from dataclasses import MISSING, fields

from parsers.vlog import bounded

NATIVE_ENV = "GRAPH_INSPECTOR_VLOG_NATIVE"
CHUNK = 1 << 20  # bytes read at a time: the buffer stays in the cache


def _load():
    if os.environ.get(NATIVE_ENV, "").lower() in ("0", "off", "no", "false"):
        return None
    try:
        from parsers.vlog import _scanner
    except ImportError:
        return None
    return _scanner


scanner = _load()


def bind(node_class, execution_class, dump_class) -> None:
    """The model's ExecutedNode, Execution and GraphDump (reader.py gives them once): the
    scanner makes them itself, its own fields from the line and the others as the dataclass
    would (defaults, default factories); a model it cannot make turns it off."""
    global scanner
    if scanner is None:
        return
    try:
        scanner.bind(_spec(node_class), _spec(execution_class), _spec(dump_class))
    except TypeError:
        scanner = None


def _spec(cls):
    """(class, ((name, has_default, default, factory), ...)), as native bind() takes it."""
    return cls, tuple((f.name, f.default is not MISSING,
                       None if f.default is MISSING else f.default,
                       None if f.default_factory is MISSING else f.default_factory)
                      for f in fields(cls))


def feed_file(parser, stream, cache_limit: int, progress=None) -> bool:
    """Read a regular file's lines into `parser` with the scanner, from its start; False
    where it did not (no scanner, not a regular file, not at its start, or a line past
    bounded.MAX_LINE: the stream is back at its start, and the caller reads it the
    reference way, with a fresh parser)."""
    if scanner is None:
        return False
    try:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode) or stream.tell() != 0:
            return False  # pipes and devices are read as streams, bounded
    except (OSError, ValueError, AttributeError):
        return False
    max_line = bounded.MAX_LINE
    reader = scanner.Reader(parser, max_line, cache_limit)
    # read() into one buffer, not mmap: cheaper here (no page faults on the file), and a file
    # cut short while it is read (a log rotated by copytruncate) cannot kill the process.
    buffer = bytearray(CHUNK)
    filled = done = 0
    while True:
        with memoryview(buffer) as view:
            count = stream.readinto(view[filled:])
        length = filled + count
        used = reader.feed(buffer, length, count == 0)
        if used < 0:
            stream.seek(0)
            return False
        done += count
        if count == 0:
            break
        if progress is not None:
            progress(done)
        # The unfinished last line moves to the front; a line the buffer cannot hold doubles it.
        filled = length - used
        if filled > max_line:
            stream.seek(0)
            return False
        buffer[:filled] = buffer[used:length]
        if filled == len(buffer):
            buffer.extend(bytes(len(buffer)))
    reader.close()
    return True


def write_executions(executions, write) -> int:
    """Write the executions' part of --json through write(bytes), ", "-joined, as far as the
    scanner can: how many it wrote (0 without it; it stops before one holding a value
    json.dumps would write but it does not know)."""
    if scanner is None:
        return 0
    return scanner.write_executions(executions, write)
