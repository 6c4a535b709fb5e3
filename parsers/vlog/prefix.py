"""Log line prefixes: TensorFlow 2.x (absl) and 1.x (glog-style) into severity, time, thread, source.

2.x: `I0000 00:00:1795298310.598315    5561 function_utils.cc:82] message`; before
absl::InitializeLog() the date is 0000 and the "seconds" are seconds since the epoch; after it,
`I0129 12:00:00.123456 5561 file.cc:82]`. 1.x: `2018-01-29 12:00:00.123456: I
tensorflow/core/common_runtime/function.cc:123] message`, without a thread id. Both work on
bytes: the reader decodes only the lines it keeps.

>>> p = split_prefix(b"I0000 00:00:1795298310.598315    5561 function_utils.cc:82] || }")
>>> p.severity, p.micros, p.thread, p.source, p.message
('I', 1795298310598315, 5561, 'function_utils.cc:82', b'|| }')
>>> p = split_prefix(b"2018-01-29 12:00:00.123456: W tensorflow/core/framework/op.cc:9] hi")
>>> p.severity, p.micros, p.thread, p.source, p.message
('W', 1517227200123456, None, 'tensorflow/core/framework/op.cc:9', b'hi')
>>> split_prefix(b"Step 3 loss 0.25") is None
True
"""

from __future__ import annotations

import re
from collections import namedtuple

# The message starts after "] "; a line that is only a prefix has an empty message.
ABSL = re.compile(
    rb"([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d+)\.(\d+) +(?:(\d+) +)?([^\s\]]+:\d+)\] ?"
)
GLOG_1X = re.compile(
    rb"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+): ([IWEF]) (?:(\d+) )?([^\s\]]+:\d+)\] ?"
)
# Cheap first test before either regex: severity letter then digit, or a year.
_ABSL_FIRST = frozenset(b"IWEF")
_DIGITS = frozenset(b"0123456789")


# A namedtuple, not typing.NamedTuple: importing typing would add 2 ms to every `vlog` start.
Prefix = namedtuple("Prefix", "severity micros thread source message")
Prefix.__doc__ = "severity (str), micros (int), thread (int or None), source (str), message (bytes)."


_days_cache: dict[tuple[int, int, int], int] = {}


def _days(year, month, day):
    """Days since 1970-01-01; month and day 0 (absl before InitializeLog) count as day 0."""
    key = (year, month, day)
    days = _days_cache.get(key)
    if days is None:
        if month == 0 or day == 0:
            days = 0
        else:
            import calendar  # here: it imports datetime and locale, 2 ms most reads never need

            try:
                days = calendar.timegm((year, month, day, 0, 0, 0)) // 86400
            except (ValueError, OverflowError):
                days = 0
        _days_cache[key] = days
    return days


def _fraction_micros(digits: bytes) -> int:
    return int(digits[:6].ljust(6, b"0"))


def absl_micros(month, day, hours, minutes, seconds, frac) -> int:
    """Microseconds since the epoch from an absl prefix's fields (bytes; a fraction of 6 digits).

    >>> absl_micros(b"00", b"00", b"00", b"00", b"1795298310", b"598315")
    1795298310598315
    """
    key = (month, day, hours, minutes)
    base = _minute_micros.get(key)
    if base is None:
        if month == b"00" and day == b"00":
            days = 0  # before absl::InitializeLog the "seconds" count from the epoch
        else:
            days = _days(1970, int(month), int(day))
        base = ((days * 24 + int(hours)) * 60 + int(minutes)) * 60_000_000
        if len(_minute_micros) > 100_000:
            _minute_micros.clear()
        _minute_micros[key] = base
    return base + int(seconds) * 1_000_000 + int(frac)


_minute_micros: dict[tuple, int] = {}


def match_prefix(line: bytes, start: int = 0, end: int | None = None):
    """The ABSL or GLOG_1X match of the prefix at line[start:], or None."""
    end = len(line) if end is None else end
    if start >= end:
        return None
    return (ABSL if line[start] in _ABSL_FIRST else GLOG_1X).match(line, start, end)


def micros_thread(match) -> tuple[int, int | None]:
    """Microseconds since the epoch and thread id of an ABSL or GLOG_1X match."""
    if match.re is ABSL:
        _sev, month, day, hours, minutes, seconds, frac, thread, _src = match.groups()
        if month == b"00" and day == b"00":
            days = 0  # absl before InitializeLog: "seconds" count from the epoch
        else:
            days = _days(1970, int(month), int(day))
    else:
        year, month, day, hours, minutes, seconds, frac, _sev, thread, _src = match.groups()
        days = _days(int(year), int(month), int(day))
    micros = (
        ((days * 24 + int(hours)) * 60 + int(minutes)) * 60 + int(seconds)
    ) * 1_000_000 + (int(frac) if len(frac) == 6 else _fraction_micros(frac))
    return micros, int(thread) if thread is not None else None


def split_prefix(line: bytes) -> Prefix | None:
    """The prefix of a TensorFlow log line and its message, or None for any other line.

    Times become microseconds since the epoch; an absl date without a year counts from 1970.
    """
    if not line:
        return None
    first = line[0]
    if first in _ABSL_FIRST:
        match = ABSL.match(line)
        if match is None:
            return None
        sev, month, day, hours, minutes, seconds, frac, thread, source = match.groups()
        days = _days(1970, int(month), int(day))
        micros = (
            ((days * 24 + int(hours)) * 60 + int(minutes)) * 60 + int(seconds)
        ) * 1_000_000 + _fraction_micros(frac)
    elif first in _DIGITS:
        match = GLOG_1X.match(line)
        if match is None:
            return None
        year, month, day, hours, minutes, seconds, frac, sev, thread, source = match.groups()
        days = _days(int(year), int(month), int(day))
        micros = (
            ((days * 24 + int(hours)) * 60 + int(minutes)) * 60 + int(seconds)
        ) * 1_000_000 + _fraction_micros(frac)
    else:
        return None
    return Prefix(
        chr(sev[0]),
        micros,
        int(thread) if thread is not None else None,
        source.decode("ascii", "replace"),
        line[match.end():],
    )


def is_log_line(line: bytes) -> bool:
    """Whether `line` starts with a TensorFlow 1.x or 2.x log prefix.

    >>> is_log_line(b"E0129 12:00:00.000001 77 executor.cc:1] x"), is_log_line(b"Traceback")
    (True, False)
    """
    if not line:
        return False
    first = line[0]
    if first in _ABSL_FIRST:
        return ABSL.match(line) is not None
    if first in _DIGITS:
        return GLOG_1X.match(line) is not None
    return False
