"""Inputs named on the command line: a path, or `-` for stdin, read through parsers.load."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import parsers
from parsers.errors import InputError

STDIN = "-"
STDIN_LIMIT = 8 << 30  # stdin is spooled to a temporary file; /dev/zero must not fill the disk
_CHUNK = 1 << 20


def load(path):
    """parsers.load(path); for "-", what stdin holds, spooled to a temporary file (the
    readers decide the format by content) kept until exit, named "-" in errors."""
    if os.fspath(path) != STDIN:
        return parsers.load(path)
    folder = tempfile.mkdtemp(prefix="graph-inspector-stdin.")
    atexit.register(shutil.rmtree, folder, True)
    spooled = os.path.join(folder, "stdin")
    _spool(sys.stdin.buffer, spooled)
    try:
        loaded = parsers.load(spooled)
    except InputError as error:
        raise InputError(STDIN, error.message.replace(spooled, STDIN)) from None
    loaded.path = STDIN
    return loaded


def _spool(stream, path, limit=STDIN_LIMIT):
    written = 0
    with open(path, "wb") as out:
        while chunk := stream.read(_CHUNK):
            written += len(chunk)
            if written > limit:
                raise InputError(STDIN, f"more than {limit >> 30} GiB on stdin; give a file")
            out.write(chunk)
    if written == 0:
        raise InputError(STDIN, "empty input (nothing on stdin)")
