"""A run's step stats indexed for the runs screen: orders, filter matches and op totals as
NumPy operations on stepstats.StepColumns, so each action on 100,000 executions takes
milliseconds and can run in a worker.

The filter's regex runs over the distinct ops and devices (a few dozen) and over the node
names. Most typing is plain text: a query with no regex syntax is a substring test, and one
that extends a query matched before (each keystroke adds a letter) tests only the rows that
query kept. Matches are kept per query, so backspace finds them again.

>>> from engine.proto import step_stats_pb2 as s
>>> from views.node_search import compile_query
>>> from views.tui.stepstats import read_columns
>>> stats = s.StepStats(dev_stats=[{"device": "/device:CPU:0", "node_stats": [
...     {"node_name": "a/x", "timeline_label": "a/x = Const()", "op_end_rel_micros": 2},
...     {"node_name": "b/x", "timeline_label": "b/x = Add(a)", "op_end_rel_micros": 6}]}])
>>> table = StepTable(read_columns(stats))
>>> table.select(column="op_us", descending=True).tolist()
[1, 0]
>>> found = lambda text: table.select(query=compile_query(text)).tolist()
>>> found("^a/"), found("A/"), found("add"), found("b/x")      # "add": the op
([0], [], [1], [1])
>>> [(t.op, t.count, t.op_us) for t in table.totals(table.select())]
[('Add', 1, 6.0), ('Const', 1, 2.0)]
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections import OrderedDict

import numpy as np

from views.tui.stepstats import CHUNK, COLUMNS, Cancelled, OpTotal, cell, short_device

# Characters that make a query a regex rather than text ("\n" would match across the
# one-name-per-line text the regex path searches).
REGEX_SYNTAX = frozenset(".^$*+?{}[]()|\\\n")
MATCHES_KEPT = 64      # queries whose matches are kept (a query typed and erased again)


class StepTable:
    """A run's rows (StepColumns), with orders and matches cached: select() is what the
    screen shows, as an array of row numbers."""

    def __init__(self, columns):
        self.columns = columns
        self.rows = TableRows(columns)
        self.devices = columns.devices
        self.natural = None            # widths(), once the screen asks
        self._device_code = {device: code for code, device in enumerate(columns.devices)}
        self._orders = {}
        self._matches = OrderedDict()  # (regex, flags) -> (literal or None, bool array)
        self._lock = threading.Lock()  # a dropped worker may still be filtering beside a new one
        self._lowered = None           # node names in lowercase, made at the first such filter
        self._ascii = None             # every node name is ASCII (then lower() is re's IGNORECASE)
        self._node_text = None         # (names one per line, line starts) for regex queries

    def __len__(self):
        return len(self.columns)

    # ---- orders ------------------------------------------------------------------------------

    def order(self, column, descending=False):
        """Row numbers by `column` (ties in recorded order, either way)."""
        key = (column, descending)
        if key not in self._orders:
            self._orders[key] = self._order(column, descending)
        return self._orders[key]

    def _order(self, column, descending):
        columns = self.columns
        if column == "node":
            # Python's sort is stable both ways, as the table's order must be.
            return np.array(sorted(range(len(columns)), key=columns.names.__getitem__,
                                   reverse=descending), dtype=np.intp)
        if column in ("short_device", "op"):
            labels, codes = ((list(map(short_device, columns.devices)), columns.device_codes)
                             if column == "short_device" else (columns.ops, columns.op_codes))
            rank = {label: number for number, label in enumerate(sorted(set(labels)))}
            keys = np.array([rank[label] for label in labels], dtype=np.int64)[codes]
        else:
            keys = getattr(columns, column)
        return np.argsort(-keys if descending else keys, kind="stable")

    # ---- filtering ---------------------------------------------------------------------------

    def matching(self, query, cancelled=lambda: False):
        """A bool array, True for each row whose node name, op or device `query` (a
        search.Query) finds. Its regex runs over the node names one per line (MULTILINE), so
        ^ and $ anchor on the name; ops and devices are few, each matched once."""
        key = (query.pattern.pattern, query.pattern.flags)
        with self._lock:
            if key in self._matches:
                self._matches.move_to_end(key)
                return self._matches[key][1]
        columns, pattern = self.columns, query.pattern
        op_hits = np.array([bool(pattern.search(op)) for op in columns.ops] or [False])
        device_hits = np.array([bool(pattern.search(d)) for d in columns.devices] or [False])
        keep = op_hits[columns.op_codes] | device_hits[columns.device_codes]
        literal = self._literal(query)
        if literal is None:
            keep |= self._regex_names(pattern, cancelled)
        else:
            keep |= self._substring_names(*literal, self._narrowed(*literal))
        # Kept even when this worker was dropped: the next keystroke likely extends it.
        with self._lock:
            self._matches[key] = (literal, keep)
            while len(self._matches) > MATCHES_KEPT:
                self._matches.popitem(last=False)
        return keep

    def _literal(self, query):
        """(text, ignore case) when `query` finds exactly the names holding its text, else None."""
        text = query.text
        # query.note: the text was not a regex, so it is matched as text (search.compile_query)
        regex = REGEX_SYNTAX.intersection(text) and not query.note
        if not text or regex or "\n" in text or not text.isascii():
            return None
        if self._ascii is None:
            self._ascii = all(name.isascii() for name in self.columns.names)
        return (text, bool(query.pattern.flags & re.IGNORECASE)) if self._ascii else None

    def _narrowed(self, text, ignore_case):
        """Row numbers some query matched before holds (a query this one's text extends),
        fewest first; None: every row."""
        with self._lock:
            earlier = [(literal, keep) for literal, keep in self._matches.values() if literal]
        best = None
        for (before, before_ignores_case), keep in earlier:
            extends = (before.lower() in text.lower() if before_ignores_case else before in text)
            if extends and (best is None or len(before) > best[0]):
                best = (len(before), keep)
        return None if best is None else np.flatnonzero(best[1])

    def _substring_names(self, text, ignore_case, candidates):
        names = self.columns.names
        if ignore_case:
            if self._lowered is None:
                self._lowered = [name.lower() for name in names]
            names, text = self._lowered, text.lower()
        if candidates is None:
            return np.fromiter((text in name for name in names), bool, len(names))
        found = np.fromiter((text in names[n] for n in candidates.tolist()), bool,
                            len(candidates))
        keep = np.zeros(len(names), bool)
        keep[candidates[found]] = True
        return keep

    def _regex_names(self, pattern, cancelled):
        if self._node_text is None:
            text = "\n".join(self.columns.names)
            starts, position = [0], text.find("\n")
            while position >= 0:
                starts.append(position + 1)
                position = text.find("\n", position + 1)
            self._node_text = (text, starts)
        text, starts = self._node_text
        keep = np.zeros(len(self.columns), bool)
        position, found = 0, 0
        while True:
            found += 1
            if found % CHUNK == 0 and cancelled():
                raise Cancelled()
            match = pattern.search(text, position)
            if match is None:
                break
            line = bisect_right(starts, match.start()) - 1
            keep[line] = True
            if line + 1 >= len(starts):
                break
            position = starts[line + 1]
        return keep

    def select(self, device=None, query=None, column="start_us", descending=False,
               cancelled=lambda: False):
        """Row numbers on `device` (every device when None) that `query` finds, ordered;
        raises Cancelled when cancelled() holds during a regex scan (the slow filter)."""
        numbers = self.order(column, descending)
        if query is not None:
            numbers = numbers[self.matching(query, cancelled)[numbers]]
        if device is not None:
            code = self._device_code.get(device)
            if code is None:
                return numbers[:0]
            numbers = numbers[self.columns.device_codes[numbers] == code]
        return numbers

    # ---- totals and widths -------------------------------------------------------------------

    def totals(self, numbers):
        """stepstats.op_totals of the rows numbered `numbers`, from arrays: sums added in the
        order of `numbers`, as op_totals adds them."""
        columns, count = self.columns, len(self.columns.ops)
        codes = columns.op_codes[numbers]
        runs = np.bincount(codes, minlength=count)
        op_us = np.bincount(codes, weights=columns.op_us[numbers], minlength=count)
        all_us = np.bincount(codes, weights=columns.all_us[numbers], minlength=count)
        sizes = np.zeros(count, np.int64)
        np.add.at(sizes, codes, columns.bytes[numbers])
        merged = {}
        for code, op in enumerate(columns.ops):
            if runs[code]:
                total = merged.setdefault(op or "(unknown)", [0, 0.0, 0.0, 0])
                total[0] += int(runs[code])
                total[1] += float(op_us[code])
                total[2] += float(all_us[code])
                total[3] += int(sizes[code])
        return sorted((OpTotal(op, *values) for op, values in merged.items()),
                      key=lambda t: (-t.op_us, t.op))

    def widths(self):
        """The widest cell of each column over every row (the table fits its columns to them)."""
        columns = self.columns
        widths = {key: len(title) + 2 for key, title in COLUMNS.items()}
        for key, values in (("short_device", map(short_device, columns.devices)),
                            ("node", columns.names), ("op", columns.ops)):
            widths[key] = max(widths[key], max(map(len, values), default=0))
        for key, kind in (("start_us", int), ("op_us", float), ("all_us", float),
                          ("bytes", int)):
            values = getattr(columns, key)
            largest = kind(values.max()) if len(values) else 0
            widths[key] = max(widths[key], len(cell(key, largest)) + 1)
        return widths


class TableRows:
    """A StepTable's rows as a sequence of StepRows, each made when asked for (the screen
    draws a screenful; 100,000 tuples are never built)."""

    def __init__(self, columns):
        self._columns = columns

    def __len__(self):
        return len(self._columns)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._columns.row(n) for n in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._columns.row(index)

    def __iter__(self):
        return (self._columns.row(n) for n in range(len(self)))
