"""Text from a file made safe to show: control characters visible, long text cut to an excerpt.

Names, paths and words quoted from an input reach terminals, DOT, SVG and JSON. A raw ESC
reaches a terminal as a command, a newline splits an error into two lines, and XML has no way
to hold most control characters at all; so they are shown as Python writes them.

>>> printable("esc\\x1b[2Jname\\n")
'esc\\\\x1b[2Jname\\\\n'
>>> excerpt("word" * 100, 10)
'wordwordwo… (400 characters)'
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, line/paragraph separators, bidirectional overrides (they reorder
# what a terminal shows), and lone surrogates (not encodable as UTF-8).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
EXCERPT = 60


def _visible(match):
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text):
    """`text` with every control character written as an escape (`\\x1b`, `\\n`)."""
    return _UNPRINTABLE.sub(_visible, str(text))


def excerpt(text, limit=EXCERPT):
    """At most `limit` characters of `text` (printable), saying how long the whole was."""
    text = str(text)
    if len(text) <= limit:
        return printable(text)
    return f"{printable(text[:limit])}… ({len(text)} characters)"
