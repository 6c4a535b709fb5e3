"""The VLOG reader's fast path: the C scanner (parsers/vlog/scanner/) where it was built, else None.

`pip install` compiles parsers.vlog._scanner where it can; where it could not, or where
GRAPH_INSPECTOR_VLOG_NATIVE=off, `scanner` is None and the reader runs the pure-Python
reference (reader.VlogParser.feed_lines), which the scanner is tested against
(tests/parsers/test_vlog_native.py). The scanner reads a memory-mapped file into a
VlogParser's own state and hands each line it does not do itself to the handler feed_lines
would call, so both give the same VlogLog; it also writes the executions' JSON
(json_document.write_json).
"""

from __future__ import annotations

import mmap
import os
import stat
from dataclasses import fields

from parsers.vlog import bounded

ENVIRONMENT = "GRAPH_INSPECTOR_VLOG_NATIVE"
PROGRESS_EVERY = 1 << 20


def _load():
    if os.environ.get(ENVIRONMENT, "").lower() in ("0", "off", "no", "false"):
        return None
    try:
        from parsers.vlog import _scanner
    except ImportError:
        return None
    return _scanner


scanner = _load()


def bind(node_class, execution_class) -> None:
    """The model's ExecutedNode and Execution (reader.py gives them once): the scanner sets
    their slots itself, so a model whose fields are not the scanner's turns it off."""
    global scanner
    if scanner is None:
        return
    if ([f.name for f in fields(node_class)] != list(scanner.EXECUTED_NODE_FIELDS)
            or [f.name for f in fields(execution_class)] != list(scanner.EXECUTION_FIELDS)):
        scanner = None
        return
    scanner.bind(node_class, execution_class)


def feed_file(parser, stream, cache_limit: int, progress=None) -> bool:
    """Read a regular file's lines into `parser` with the scanner; False where it did not (no
    scanner, not a regular file, empty, or a line past bounded.MAX_LINE: the caller reads it
    the reference way, with a fresh parser)."""
    if scanner is None:
        return False
    try:
        status = os.fstat(stream.fileno())
        # mmap refuses an empty file; pipes and devices are read as streams, bounded.
        if not stat.S_ISREG(status.st_mode) or status.st_size == 0 or stream.tell() != 0:
            return False
        buffer = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, AttributeError):
        return False
    with buffer:
        return scanner.feed(parser, buffer, bounded.MAX_LINE, cache_limit, progress, PROGRESS_EVERY)


def write_executions(executions, write) -> int:
    """Write the executions' part of --json through write(bytes), ", "-joined, as far as the
    scanner can: how many it wrote (0 without it; it stops before one holding a value
    json.dumps would write but it does not know)."""
    if scanner is None:
        return 0
    return scanner.write_executions(executions, write)
