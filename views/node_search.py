"""The find and filter boxes' matching: a regex over node names, ops and devices.

The regex runs over the node names one per line, so ^ and $ anchor on the name; an op or a
device it finds brings every node of that op or device. A node whose whole name matches
comes first, then the rest in graph order. Invalid regex text is matched literally. The TUI's
boxes and the find across function bodies (views/body_search.py) match this way.

>>> lines = (["a/MatMul", "b/Add", "c", "f(x", "c/d"], "a/MatMul\\tMatMul\\t\\nb/Add\\tAdd\\tCPU:0\\nc\\tConst\\t\\nf(x\\tNoOp\\t\\nc/d\\tc\\t")
>>> compile_query("add").pattern.pattern, compile_query("add").note
('add', '')
>>> find(lines, compile_query("add"))
['b/Add']
>>> query = compile_query("f(")
>>> query.note
'not a regular expression (missing ), unterminated subpattern at position 1): matching text'
>>> find(lines, query)
['f(x']
>>> find(lines, compile_query("^c$")), find(lines, compile_query("Mul$"))
(['c', 'c/d'], ['a/MatMul'])
>>> find(lines, compile_query("c/d")), find(lines, compile_query("d")), find(lines, compile_query("c"))[0]
(['c/d'], ['b/Add', 'c/d'], 'c')
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True)
class Query:
    text: str
    pattern: re.Pattern
    note: str = ""      # why the text is matched literally, "" when it is a regex


def compile_query(text):
    """A Query; lowercase text matches case-insensitively (smart case), as in less and vim."""
    flags = re.MULTILINE | (0 if any(ch.isupper() for ch in text) else re.IGNORECASE)
    try:
        return Query(text, re.compile(text, flags))
    except re.error as error:
        return Query(text, re.compile(re.escape(text), flags),
                     f"not a regular expression ({error}): matching text")


@dataclass
class _Columns:
    """A view's search lines split once: the names one per line, each line's op and device."""

    names: str
    starts: list
    ops: list
    devices: list


_columns_cache: dict[int, tuple] = {}


def _columns(text):
    cached = _columns_cache.get(id(text))
    if cached is not None and cached[0] is text:
        return cached[1]
    names, ops, devices = [], [], []
    for line in text.split("\n"):
        name, _, rest = line.partition("\t")
        op, _, device = rest.partition("\t")
        names.append(name)
        ops.append(op)
        devices.append(device)
    joined = "\n".join(names)
    starts, position = [0], joined.find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = joined.find("\n", position + 1)
    columns = _Columns(joined, starts, ops, devices)
    _columns_cache.clear()
    _columns_cache[id(text)] = (text, columns)
    return columns


def find(search_lines, query, limit=None):
    """Keys of the matching nodes: whole-name matches first, then graph order."""
    keys, text = search_lines
    if not query.text or not keys:
        return []
    columns = _columns(text)
    pattern = query.pattern
    found = set()
    for values in (columns.ops, columns.devices):
        hits = {value for value in set(values) if value and pattern.search(value)}
        if hits:
            found.update(line for line, value in enumerate(values) if value in hits)
    names, starts, position = columns.names, columns.starts, 0
    while limit is None or len(found) < limit:
        match = pattern.search(names, position)
        if match is None:
            break
        line = bisect_right(starts, match.start()) - 1
        found.add(line)
        if line + 1 >= len(starts):
            break
        position = starts[line + 1]
    lines = sorted(found)
    whole = [line for line in lines if pattern.fullmatch(_name(columns, line))]
    if whole:
        first = set(whole)
        lines = whole + [line for line in lines if line not in first]
    if limit is not None:
        lines = lines[:limit]
    return [keys[line] for line in lines if line < len(keys)]


def _name(columns, line):
    end = columns.starts[line + 1] - 1 if line + 1 < len(columns.starts) else len(columns.names)
    return columns.names[columns.starts[line]:end]
