"""The checkpoint part of `info`: every variable with dtype, shape, size and value statistics.

Reading every value for its statistics is the long part on a big checkpoint: a progress line
goes to a terminal's stderr while it lasts.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from parsers.checkpoint import stats
from parsers.printable import printable

_PROGRESS_MIN_BYTES = 32 << 20  # below this a checkpoint reads in a blink: no progress line


def _reading(checkpoint):
    """(name, info, value) for every variable, with a progress line on a terminal."""
    total = sum(info.nbytes for info in checkpoint.variables)
    show = total >= _PROGRESS_MIN_BYTES and sys.stderr.isatty()
    done = 0
    for info in checkpoint.variables:
        def progress(part, _whole, base=done):
            if show:
                sys.stderr.write(f"\r  reading {info.name[:40]} {(base + part) / 1e6:.1f}/{total / 1e6:.1f} MB\033[K")
                sys.stderr.flush()
        value = checkpoint.value(info.name, progress)
        done += info.nbytes
        progress(0, 0)
        yield info, value
        checkpoint.forget(info.name)  # one value in memory at a time
    if show:
        sys.stderr.write("\r\033[K")


def _finite_or_none(x):
    return x if x is None or math.isfinite(x) else None


def variables_json(checkpoint):
    """The `variables` list of `info --json`: one object per tensor, keys always the same
    ("name": what to call it, "key": its key in the checkpoint; the same but for TF2)."""
    out = []
    for info, value in _reading(checkpoint):
        found = stats(value)
        out.append({
            "name": info.name, "key": info.key, "dtype": info.dtype, "shape": list(info.shape), "size": info.size,
            "bytes": info.nbytes, "min": _finite_or_none(found.min), "max": _finite_or_none(found.max),
            "mean": _finite_or_none(found.mean), "nan": found.nan, "inf": found.inf,
        })
    return out


def _number(x):
    if x is None:
        return "-"
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def object_graph_note(checkpoint):
    """What to say of a TF2 checkpoint whose object graph does not read (TensorFlow's restore
    fails on it), or None."""
    why = getattr(checkpoint, "object_graph_error", None)
    return f"object graph not read, variables go by their keys: {why}" if why else None


def variables_lines(checkpoint):
    """A header line and an aligned table of the variables."""
    total = sum(info.nbytes for info in checkpoint.variables)
    shards = checkpoint.num_shards
    lines = [f"checkpoint {checkpoint.prefix}: {len(checkpoint.variables)} variables, "
             f"{_bytes_text(total)} in {shards} shard{'s' if shards != 1 else ''}"]
    note = object_graph_note(checkpoint)
    if note:
        lines.append("  " + note)
    if not checkpoint.variables:
        return lines
    rows = [("name", "dtype", "shape", "size", "min", "max", "mean", "NaN", "Inf")]
    for info, value in _reading(checkpoint):
        found = stats(value)
        shape = "[" + ",".join(str(d) for d in info.shape) + "]"
        # escaped before the columns are measured (cmd_info escapes every line again: a no-op)
        name = printable(info.name) + (" (partitioned)" if info.partitioned else "")
        rows.append((name, info.dtype, shape, str(info.size), _number(found.min),
                     _number(found.max), _number(found.mean), str(found.nan), str(found.inf)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        lines.append("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return lines


def _bytes_text(count):
    """
    >>> _bytes_text(365), _bytes_text(3 << 20)
    ('365 bytes', '3.1 MB')
    """
    return f"{count} bytes" if count < 10_000 else f"{count / 1e6:.1f} MB"


def values_text(checkpoint, name):
    """One tensor's values in full, under a line naming it."""
    info = checkpoint.info(name)
    value = checkpoint.value(name)
    head = f"{name}: {info.dtype} [{','.join(str(d) for d in info.shape)}]"
    with np.printoptions(threshold=sys.maxsize, linewidth=100):
        return head + "\n" + np.array2string(np.asarray(value), separator=", ") + "\n"


def _json_scalar(x):
    if isinstance(x, bytes):
        return x.decode("utf-8", "backslashreplace")
    if isinstance(x, complex):
        return [_json_scalar(x.real), _json_scalar(x.imag)]
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    return x


def values_json(checkpoint, name):
    """{"name", "dtype", "shape", "values"}: values nested by shape; non-finite floats as the
    strings "NaN", "Infinity", "-Infinity"; strings as UTF-8 text, other bytes escaped."""
    info = checkpoint.info(name)
    value = np.asarray(checkpoint.value(name))
    flat = [_json_scalar(x) for x in value.ravel().tolist()]
    nested = np.empty(len(flat), dtype=object)
    for index, item in enumerate(flat):  # item-wise: a complex pair must stay one cell
        nested[index] = item
    values = nested.reshape(value.shape).tolist() if value.shape else flat[0]
    return {"name": name, "dtype": info.dtype, "shape": list(info.shape), "values": values}
