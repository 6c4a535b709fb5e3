"""argparse types for the command line's numbers: finite, and in the range each option means.

A bad number is argparse's own error (usage, then `graph-inspector CMD: error: argument
--OPTION: ...`, exit 2), never a float('nan') that makes a wait last forever.

>>> seconds("2.5"), count("3"), at_least_one("120")
(2.5, 3, 120)
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 'nan' is not a number of seconds above 0
>>> count("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '-1' is not a whole number of 0 or more
"""

import argparse
import math

# Past this a wait is forever in all but name (and time.sleep overflows near 2^63 ns).
MAX_SECONDS = 10**9
MAX_COUNT = 2**31 - 1


def seconds(text):
    """A finite number of seconds above 0 (at most MAX_SECONDS)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0"
                                         + (f" (at most {MAX_SECONDS})"
                                            if math.isfinite(value) and value > 0 else ""))
    return value


def _whole(text, least, words):
    try:
        value = int(text, 10)
    except ValueError:
        value = None
    if value is None or not least <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {words}"
                                         + (f" (at most {MAX_COUNT})"
                                            if value is not None and value > MAX_COUNT else ""))
    return value


def count(text):
    """A whole number of 0 or more (a depth, a radius)."""
    return _whole(text, 0, "0 or more")


def at_least_one(text):
    """A whole number of 1 or more (a budget of boxes)."""
    return _whole(text, 1, "1 or more")
