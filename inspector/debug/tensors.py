"""Tensor text for the debugger: "name[0:2, :]" parsed, values printed, NaN/Inf checks.

>>> parse_expression("layer1/MatMul:0[0:2, :]")
('layer1/MatMul:0', (slice(0, 2, None), slice(None, None, None)))
>>> parse_expression("x")
('x:0', None)
>>> import numpy as np
>>> has_inf_or_nan(np.array([1.0, np.nan]))
True
>>> has_inf_or_nan(np.array([1, 2]))
False
>>> summary(np.zeros((2, 3), np.float32))
'float32[2,3] min 0 max 0 mean 0'
"""

from __future__ import annotations

import re

import numpy as np

from engine.cluster.relay import Withheld
from engine.kernels.cuda.backend import to_host
from engine.runtime.resources import Ref

_NAME = re.compile(r"^\s*([^\[\s]+)\s*(?:\[(.*)\])?\s*$")
_INDEX = re.compile(r"^-?\d+$")


class ExpressionError(ValueError):
    """A tensor expression that does not parse: `name`, `name:i` or `name:i[slices]`."""


def tensor_name(name):
    """"op" -> "op:0"; "op:1" stays; "^op" is not a tensor."""
    node, sep, index = name.rpartition(":")
    return name if sep and index.isascii() and index.isdigit() else f"{name}:0"


def parse_expression(text):
    """(tensor name, index tuple or None) from NumPy-style text like "x:0[0:2, ..., 1]"."""
    match = _NAME.match(text)
    if not match:
        raise ExpressionError(f"not a tensor expression: {text!r} (try name:0[0:2, :])")
    name, inside = match.groups()
    if inside is None:
        return tensor_name(name), None
    return tensor_name(name), tuple(_index_item(part.strip(), text)
                                    for part in inside.split(","))


def _index_item(part, text):
    if part == "...":
        return Ellipsis
    if part in ("None", "np.newaxis"):
        return None
    if _INDEX.match(part):
        return int(part)
    pieces = part.split(":")
    if len(pieces) in (2, 3) and all(p.strip() == "" or _INDEX.match(p.strip()) for p in pieces):
        return slice(*(int(p) if p.strip() else None for p in pieces))
    raise ExpressionError(f"bad index {part!r} in {text!r}: use integers, a:b:c, ... or None")


def plain(value):
    """The array behind a value: a Ref's buffer, a NumPy scalar as a 0-d array (None for one
    left on its cluster task)."""
    if isinstance(value, Ref):
        value = value.value
    if value is None or isinstance(value, Withheld):
        return None
    value = to_host(value)  # a GPU tensor (CuPy's or the simulated GPU's), copied to the host
    return np.asarray(value)


def has_inf_or_nan(value):
    """tfdbg's built-in filter: a float or complex tensor holding an Inf or a NaN."""
    array = plain(value)
    if array is None or array.dtype.kind not in "fc":
        return False
    return bool(not np.all(np.isfinite(array)))


def select(value, index):
    """value[index] with the index tuple parse_expression gave (None: the whole value)."""
    array = plain(value)
    if index is None or array is None:
        return array
    try:
        return array[index]
    except (IndexError, TypeError) as error:
        raise ExpressionError(f"{error} (shape {list(array.shape)})") from None


def summary(value):
    """One line: dtype[shape] and min/max/mean, or the value itself when it is small."""
    if isinstance(value, Withheld):
        return value.description
    array = plain(value)
    if array is None:
        return "uninitialized" if isinstance(value, Ref) else "no value (dead)"
    shape = ",".join(str(d) for d in array.shape)
    head = f"{array.dtype.name}[{shape}]"
    if array.dtype.kind in "biuf" and array.size:
        finite = array[np.isfinite(array)] if array.dtype.kind == "f" else array
        text = head
        if finite.size:
            text += (f" min {_num(finite.min())} max {_num(finite.max())}"
                     f" mean {_num(finite.mean())}")
        bad = array.size - finite.size
        if bad:
            text += f" ({bad} nan/inf)"
        return text
    return f"{head} {np.array2string(array, threshold=8, edgeitems=2)}"


def _num(x):
    return f"{float(x):.6g}"


def format_value(value, index=None, threshold=200):
    """The value NumPy-style (a slice of it when `index` is given), long arrays elided."""
    array = select(value, index)
    if array is None:
        return summary(value)
    return np.array2string(array, threshold=threshold, edgeitems=3, max_line_width=100)


def nbytes(value):
    array = plain(value)
    return 0 if array is None else int(array.nbytes)
