"""Tensor dumps to .npz files, never past a size limit.

A dump of what the debugger holds now goes to one file; a full dump (every tensor the rest
of the run makes) streams one file per node execution into a directory and stops, saying
so, when the next file would take it past its limit.
"""

from __future__ import annotations

import os
import re

import numpy as np

from inspector.debug import tensors

DEFAULT_LIMIT = 256 * 1024 * 1024


class DumpTooLarge(ValueError):
    """The tensors would take more than the dump's limit."""


def _key(tensor):
    """A tensor name as an .npz member name ('/' would make folders inside the zip)."""
    return tensor.replace("/", "__")


def dump_values(path, values, max_bytes=DEFAULT_LIMIT):
    """Writes {tensor: value} to `path` (.npz); refuses (DumpTooLarge) past `max_bytes`."""
    arrays = {_key(name): tensors.plain(value) for name, value in values.items()
              if tensors.plain(value) is not None}
    total = sum(int(a.nbytes) for a in arrays.values())
    if total > max_bytes:
        raise DumpTooLarge(f"{len(arrays)} tensors take {total} bytes, over the dump limit of "
                           f"{max_bytes} bytes: nothing written (raise the limit or dump less)")
    np.savez(path, **arrays)
    return total


class Dumper:
    """Streams every node's outputs into `directory` until `max_bytes` would be passed."""

    def __init__(self, directory, max_bytes=DEFAULT_LIMIT):
        os.makedirs(directory, exist_ok=True)
        self.directory, self.max_bytes = directory, max_bytes
        self.written = 0
        self.files = 0
        self.stopped = ""

    def add(self, event, produced):
        if self.stopped:
            return
        arrays = {_key(name): tensors.plain(value) for name, value in produced
                  if tensors.plain(value) is not None}
        if not arrays:
            return
        size = sum(int(a.nbytes) for a in arrays.values())
        if self.written + size > self.max_bytes:
            self.stopped = (f"dump stopped at node {event.name} (#{event.number}): "
                            f"{self.written} bytes written, limit {self.max_bytes}")
            return
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", event.name)
        np.savez(os.path.join(self.directory, f"{event.number:06d}_{stem}.npz"), **arrays)
        self.written += size
        self.files += 1
