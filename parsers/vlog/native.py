"""The VLOG reader's fast path: the C scanner (parsers/vlog/scanner/) where it was built, else None.

`pip install` compiles parsers.vlog._scanner where it can; where it could not, or where
GRAPH_INSPECTOR_VLOG_NATIVE=off, `scanner` is None and the reader runs the pure-Python
reference (reader.VlogParser.feed_lines), which the scanner is tested against
(tests/parsers/test_vlog_native.py). The scanner reads a memory-mapped file into a
VlogParser's own state and hands the lines it does not do itself to feed_lines, so both give
the same VlogLog; it also writes the executions' JSON (model.VlogLog.write_json).
"""

from __future__ import annotations

import mmap
import os
import stat
from dataclasses import fields

from parsers.vlog import bounded
from parsers.vlog.model import Execution, ExecutedNode

ENVIRONMENT = "GRAPH_INSPECTOR_VLOG_NATIVE"
PROGRESS_EVERY = 1 << 20


def _load():
    if os.environ.get(ENVIRONMENT, "").lower() in ("0", "off", "no", "false"):
        return None
    try:
        from parsers.vlog import _scanner
    except ImportError:
        return None
    # It sets the model's slots itself: a model that changed shape turns it off, never wrong.
    if ([f.name for f in fields(ExecutedNode)] != list(_scanner.EXECUTED_NODE_FIELDS)
            or [f.name for f in fields(Execution)] != list(_scanner.EXECUTION_FIELDS)):
        return None
    return _scanner


scanner = _load()
_bound = False


def feed_file(parser, stream, cache_limit: int, progress=None) -> bool:
    """Read a regular file's lines into `parser` with the scanner; False where it did not (no
    scanner, not a regular file, empty, or a line past bounded.MAX_LINE: the caller reads it
    the reference way, with a fresh parser)."""
    global _bound
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
    if not _bound:
        scanner.bind(ExecutedNode, Execution)
        _bound = True
    with buffer:
        return scanner.feed(parser, buffer, bounded.MAX_LINE, cache_limit, progress, PROGRESS_EVERY)


def executions_json(executions) -> bytes | None:
    """The executions' part of --json (", "-joined), or None where the scanner cannot write it."""
    if scanner is None:
        return None
    try:
        return scanner.executions_json(executions)
    except TypeError:
        return None
