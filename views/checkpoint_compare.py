"""Two checkpoints of one model side by side: which variables changed, and by how much.

For each variable both hold: the largest absolute difference and the relative norm
||b - a|| / ||a|| (||b - a|| when a is all zeros), over the entries finite in both, the
numbers people compute by hand to see what a training step touched. Strings and booleans
compare as equal or not.

>>> import numpy as np
>>> change(np.array([3.0, 4.0]), np.array([3.0, 4.5]))
Change(max_abs=0.5, relative=0.1, equal=False)
>>> change(np.array([b"a"], dtype=object), np.array([b"a"], dtype=object))
Change(max_abs=None, relative=None, equal=True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Change:
    max_abs: float | None
    relative: float | None
    equal: bool


@dataclass(frozen=True)
class Compared:
    """One variable of the comparison; `change` is None where it is in one checkpoint only
    or the shapes or dtypes differ (`note` says which)."""

    name: str
    dtype: str
    shape: tuple
    change: Change | None
    note: str = ""


def change(a, b):
    """How far `b` moved from `a` (same shape and dtype)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object or a.dtype == bool:
        return Change(None, None, bool(np.array_equal(a, b)))
    a64, b64 = a.astype(np.complex128 if np.iscomplexobj(a) else np.float64), \
        b.astype(np.complex128 if np.iscomplexobj(b) else np.float64)
    # NaN and Inf entries have no distance: measure where both values are finite.
    finite = np.isfinite(a64) & np.isfinite(b64)
    with np.errstate(invalid="ignore", over="ignore"):
        difference = np.abs(b64[finite] - a64[finite])
        max_abs = float(difference.max()) if difference.size else 0.0
        base = float(np.linalg.norm(a64[finite]))
        moved = float(np.linalg.norm(b64[finite] - a64[finite]))
    relative = moved / base if base else moved
    return Change(max_abs, relative, bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))


def compare(first, second, cancelled=lambda: False, progress=lambda done, total: None):
    """[Compared] for every variable of two parsers.checkpoint.Checkpoints, names sorted."""
    names = sorted({info.name for info in first.variables} | {info.name for info in second.variables})
    rows = []
    for number, name in enumerate(names):
        if cancelled():
            break
        progress(number, len(names))
        if name not in first or name not in second:
            where = "first" if name in first else "second"
            info = (first if name in first else second).info(name)
            rows.append(Compared(name, info.dtype, info.shape, None, f"only in the {where}"))
            continue
        a, b = first.info(name), second.info(name)
        if (a.dtype, a.shape) != (b.dtype, b.shape):
            rows.append(Compared(name, a.dtype, a.shape, None,
                                 f"{a.dtype} {list(a.shape)} vs {b.dtype} {list(b.shape)}"))
            continue
        rows.append(Compared(name, a.dtype, a.shape, change(first.value(name), second.value(name))))
        first.forget(name)
        second.forget(name)
    progress(len(names), len(names))
    return rows


def changed_first(rows):
    """Rows ordered as a reader wants them: the most moved (relative norm) first, unchanged last."""
    def key(row):
        if row.change is None:
            return (1, 0.0, row.name)
        if row.change.equal:
            return (2, 0.0, row.name)
        return (0, -(row.change.relative or 0.0), row.name)
    return sorted(rows, key=key)
