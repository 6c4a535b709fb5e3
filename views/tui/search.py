"""The filter box's matching: a regex over node names, ops and devices, substring when invalid.

>>> lines = (["a/MatMul", "b/Add", "c", "f(x"], "a/MatMul\\tMatMul\\t\\nb/Add\\tAdd\\tCPU:0\\nc\\tConst\\t\\nf(x\\tNoOp\\t")
>>> compile_query("add").pattern.pattern, compile_query("add").note
('add', '')
>>> find(lines, compile_query("add"))
['b/Add']
>>> query = compile_query("f(")
>>> query.note
'not a regular expression (missing ), unterminated subpattern at position 1): matching text'
>>> find(lines, query)
['f(x']
>>> find(lines, compile_query("^c"))
['c']
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


def find(search_lines, query, limit=None):
    """Keys of the nodes whose "name<TAB>op<TAB>device" line matches, in graph order."""
    keys, text = search_lines
    if not query.text:
        return []
    starts = _line_starts(text)
    found, last = [], -1
    for match in query.pattern.finditer(text):
        line = bisect_right(starts, match.start()) - 1
        if line != last and line < len(keys):
            found.append(keys[line])
            last = line
            if limit is not None and len(found) >= limit:
                break
    return found


_starts_cache: dict[int, list[int]] = {}


def _line_starts(text):
    cached = _starts_cache.get(id(text))
    if cached is not None and cached[0] is text:
        return cached[1]
    starts = [0]
    position = text.find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = text.find("\n", position + 1)
    _starts_cache.clear()
    _starts_cache[id(text)] = (text, starts)
    return starts
