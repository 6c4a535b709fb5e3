"""Read a VLOG log once, line by line, keeping only the block and step being read.

Each line gets a cheap substring test (`||`, `Process node:`, `kernel done:`) before any regex;
repeated node lines (every pass dumps the same graph again) are parsed once. Dump blocks are
keyed by (thread, source line), so blocks that two threads print at once stay apart. This is
the reference: read_vlog reads a regular file with the C scanner where it was built
(parsers/vlog/native.py), into the same parser, calling its handlers for the lines it does not
do itself.

>>> log = read_lines([
...     b"I0000 00:00:1.000001 7 function_utils.cc:78] Graph Before X #nodes 3 #edges 2",
...     b"I0000 00:00:1.000002 7 function_utils.cc:82] || () -> () {",
...     b"I0000 00:00:1.000003 7 function_utils.cc:82] ||   n2 = Const[dtype=int32, device=CPU:0]()",
...     b"I0000 00:00:1.000004 7 function_utils.cc:82] || }",
...     b"I0000 00:00:1.000005 8 executor.cc:879] Process node: 2 step 1 {{node c}} = Const[]() device: /device:CPU:0",
...     b"garbage",
... ])
>>> [(g.label, g.first_line, [n.name for n in g.nodes]) for g in log.graphs]
[('Before X', 2, ['n2'])]
>>> [g.rename("n2") for g in log.graphs], log.lines, log.unparsed_lines
(['c'], 6, 1)
"""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Callable, Iterable

from parsers.errors import InputError
from parsers.vlog import native
from parsers.vlog import prefix as _prefix
from parsers.vlog.bounded import bounded_lines
from parsers.vlog.events import classify
from parsers.vlog.executor_trace import DONE, DONE_LINE, PROCESS, PROCESS_LINE
from parsers.vlog.executor_trace import parse_summary as _parse_summary
from parsers.vlog.graph_dump import parse_header, parse_node_line, parse_return
from parsers.vlog.model import Execution, ExecutedNode, GraphDump, VlogLog
from parsers.vlog.naming import name_dumps

native.bind(ExecutedNode, Execution, GraphDump)

# Caches of parsed repeated texts; cleared when they grow past this, so memory stays bounded.
CACHE_LIMIT = 200_000

_NEWLINES = (10, 13)
_INSTANTIATE = b"Instantiate function definition: name="
_INSTANTIATE_LEN = len(_INSTANTIATE)
_absl_micros = _prefix.absl_micros
_ABSL_FIRST = _prefix._ABSL_FIRST
_DIGITS = _prefix._DIGITS


class VlogParser:
    """Feed it lines (bytes); it builds a VlogLog and reports graphs as their blocks close.

    on_graph(GraphDump) runs when a block closes (or is cut off). keep_events=False counts
    event lines by kind (log.event_counts) instead of keeping them: memory then grows with the
    graphs and steps a log holds, not with its __LOG_MEMORY__ lines.
    """

    def __init__(self, path: str = "", on_graph: Callable | None = None, keep_events: bool = True):
        self.log = VlogLog(path)
        self.on_graph = on_graph
        self.keep_events = keep_events
        self._event_sink = self.log.event_rows if keep_events else _KindCounter()
        self._blocks: dict[tuple, GraphDump] = {}
        self._labels: dict = {}
        self._open: dict[tuple[int, str], Execution] = {}
        self._pending: dict[tuple[int, int], ExecutedNode] = {}
        self._node_cache: dict[str, object] = {}
        self._process_cache: dict[bytes, tuple | None] = {}
        self._header_cache: dict[bytes, tuple] = {}
        self._line = 0
        self._unparsed = 0
        self._named_upto = 0

    # The hot loop: one pass, local names, cheap byte tests first; a regex only where a line
    # needs its time (executor lines) or could be anything (the rest).
    def feed_lines(self, lines: Iterable[bytes]) -> None:
        line_no = self._line
        unparsed = 0
        absl_first = _ABSL_FIRST
        digits = _DIGITS
        dump_line = self._dump_line
        process_line = self._process_line
        done_line = self._done_line
        other_line = self._other_line
        rows = self._event_sink
        blocks = self._blocks
        node_cache = self._node_cache
        # Memory lines are most of a log's events: only counted, unless events are kept.
        memory_rows = rows if self.keep_events else None
        memory_lines = 0
        try:
            for raw in lines:
                line_no += 1
                if not raw:
                    continue
                first = raw[0]
                # Where the (thread, source) part of the prefix starts, and where "] " ends it.
                if first in absl_first and len(raw) > 20 and raw[5] == 32:
                    key_start = raw.find(b" ", 6)
                elif first in digits and len(raw) > 30 and raw[4] == 45:
                    key_start = raw.find(b": ", 19) + 1
                else:
                    key_start = -1
                end = raw.find(b"] ", key_start) if key_start > 0 else -1
                if end < 0:
                    # Not a log line: a prefix-less `||` line, a continuation, or anything else.
                    if first == 124 and raw.startswith(b"||"):
                        if not dump_line(raw, 0, None, line_no):
                            unparsed += 1
                    elif b"Graph size after: " in raw:
                        rows.append(("grappler", line_no, raw))
                    elif (first in absl_first or first in digits) and _prefix.is_log_line(raw):
                        pass  # a log line with an empty message
                    elif raw.strip():
                        unparsed += 1
                    continue
                start = end + 2
                tag = raw[start:start + 2]
                if tag == b"||":
                    key = raw[key_start:end]
                    if raw[start + 2:start + 5] == b"   ":
                        # A node line seen before (every pass dumps the graph again).
                        block = blocks.get(key)
                        if block is not None:
                            node = node_cache.get(raw[start + 5:])
                            if node is not None:
                                block.nodes.append(node)
                                block.last_line = line_no
                                continue
                    ok = dump_line(raw, start, key, line_no)
                elif tag == b"__" and raw.startswith(b"__LOG_MEMORY__ ", start):
                    if memory_rows is None:
                        memory_lines += 1
                    else:
                        memory_rows.append(("memory", line_no, raw))
                    continue
                elif tag == b"Pr" and raw.startswith(b"Process node: ", start):
                    ok = process_line(raw, start, line_no)
                elif (tag == b"Sy" or tag == b"As") and raw.find(b"kernel done: ", start, start + 26) > 0:
                    ok = done_line(raw, start)
                else:
                    ok = other_line(raw, start, key_start, end, line_no)
                if not ok:
                    unparsed += 1
        finally:
            self._line = line_no
            self._unparsed += unparsed
            if memory_lines:
                rows.counts["memory"] = rows.counts.get("memory", 0) + memory_lines

    def feed(self, line: bytes) -> None:
        self.feed_lines((line,))

    # -- graph dumps --------------------------------------------------------------------------

    def _dump_line(self, raw: bytes, start: int, key, line_no: int) -> bool:
        # Blocks are keyed by (thread, source) as printed: two threads' blocks stay apart.
        body = raw[start + 3:] if raw[start + 2:start + 3] == b" " else raw[start + 2:]
        if body and body[-1] in _NEWLINES:
            body = body.rstrip(b"\r\n")
        if body[:2] == b"  ":
            block = self._blocks.get(key)
            if block is None:
                return False
            cache_key = raw[start + 5:]
            node = self._node_cache.get(cache_key)
            if node is None:
                text = body[2:].decode("utf-8", "replace")
                if text[:7] == "return ":
                    pair = parse_return(text)
                    if pair is None:
                        return False
                    block.returns.append(pair)
                    return True
                node = parse_node_line(text)
                if node is None:
                    return False
                if len(self._node_cache) > CACHE_LIMIT:
                    self._node_cache.clear()
                self._node_cache[cache_key] = node
            block.nodes.append(node)
            block.last_line = line_no
            return True
        if body == b"}":
            block = self._blocks.pop(key, None)
            if block is None:
                return False
            block.complete = True
            block.last_line = line_no
            self._emit_graph(block)
            return True
        if not body.strip():
            return True
        if body[-1:] == b"{":
            # Every run dumps the same few graphs again: each header's text is parsed once.
            header = self._header_cache.get(body)
            if header is None:
                header = parse_header(body.decode("utf-8", "replace"))
                if header is None:
                    return False
                if len(self._header_cache) > CACHE_LIMIT:
                    self._header_cache.clear()
                self._header_cache[body] = header
            cut = self._blocks.pop(key, None)
            if cut is not None:
                self._emit_graph(cut)
            kind, name, args, rets = header
            thread_key = _thread_key(key)
            label = self._labels.pop(thread_key, "")
            thread = int(thread_key) if thread_key is not None else None
            block = GraphDump(label, line_no, kind, name, list(args), list(rets), thread=thread)
            block.last_line = line_no
            self._blocks[key] = block
            self.log.graphs.append(block)
            return True
        return False

    def _emit_graph(self, block: GraphDump) -> None:
        if self.on_graph is not None:
            self.on_graph(block)

    # -- executor trace -----------------------------------------------------------------------

    def _process_line(self, raw: bytes, start: int, line_no: int) -> bool:
        whole = PROCESS_LINE.match(raw)
        if whole is not None:
            # The common case in one regex: a 2.x prefix and the Process node head.
            month, day, hours, minutes, seconds, frac, thread, node_id, step, rest = whole.groups()
            micros = _absl_micros(month, day, hours, minutes, seconds, frac)
            thread = int(thread) if thread is not None else None
        else:
            match = _prefix.match_prefix(raw)
            head = PROCESS.match(raw, start)
            if match is None or head is None:
                return False
            node_id, step, rest = head.groups()
            micros, thread = _prefix.micros_thread(match)
        parsed = self._process_cache.get(rest)
        if parsed is None:
            parsed = _parse_summary(rest)
            if parsed is None:
                return False
            if len(self._process_cache) > CACHE_LIMIT:
                self._process_cache.clear()
            self._process_cache[rest] = parsed
        name, op, inputs, dead, device, attrs = parsed
        node_id = int(node_id)
        step = int(step)
        key = (step, device)
        execution = self._open.get(key)
        # Every executor run starts at _SOURCE: a new run of this step on this device (a
        # function's executor, the next constant-folding pass, or a log appended to this one).
        if execution is None or (node_id == 0 and name == "_SOURCE"):
            execution = Execution(step, device, line_no)
            self._open[key] = execution
            self.log.executions.append(execution)
        node = ExecutedNode(node_id, name, op, inputs, thread, micros, dead, line_no, None, attrs)
        execution.nodes.append(node)
        execution.last_line = line_no
        if len(self._pending) > CACHE_LIMIT:
            self._pending.clear()
        self._pending[(step, node_id)] = node
        return True

    def _done_line(self, raw: bytes, start: int) -> bool:
        whole = DONE_LINE.match(raw)
        if whole is not None:
            month, day, hours, minutes, seconds, frac, node_id, step = whole.groups()
            node = self._pending.pop((int(step), int(node_id)), None)
            if node is not None:
                node.end_us = _absl_micros(month, day, hours, minutes, seconds, frac)
            return True
        done = DONE.match(raw, start)
        if done is None:
            return False
        node = self._pending.pop((int(done.group(3)), int(done.group(2))), None)
        if node is not None:
            match = _prefix.match_prefix(raw)
            if match is None:
                return False
            node.end_us, _ = _prefix.micros_thread(match)
        return True

    # -- everything else ----------------------------------------------------------------------

    def _other_line(self, raw: bytes, start: int, key_start: int, end: int, line_no: int) -> bool:
        if raw.startswith(b"Graph ", start):
            nodes_at = raw.find(b" #nodes ", start)
            if nodes_at > 0:
                label = raw[start + 6:nodes_at].decode("utf-8", "replace").strip()
                if label:
                    self._labels[_thread_key(raw[key_start:end])] = label
                return True
        elif raw.startswith(_INSTANTIATE, start):
            rest = raw[start + _INSTANTIATE_LEN:]
            name = rest.split(b" ", 1)[0].strip().decode("utf-8", "replace")
            self._labels[_thread_key(raw[key_start:end])] = "Instantiate function definition: name=" + name
            return True
        kind = classify(raw, start)
        if kind is not None:
            self._event_sink.append((kind, line_no, raw))
        return True  # kept, or an ordinary log line with nothing to keep

    # -- the end --------------------------------------------------------------------------------

    def flush_blocks(self) -> None:
        """Blocks still open (the log was cut inside them) are reported as they are."""
        for block in self._blocks.values():
            self._emit_graph(block)
        self._blocks.clear()

    def close(self) -> VlogLog:
        """Finish: report cut-off blocks, name dumped nodes from the traces, return the log."""
        self.flush_blocks()
        self.log.lines = self._line
        self.log.unparsed_lines = self._unparsed
        if self.keep_events:
            counts: dict[str, int] = {}
            for kind, _, _ in self.log.event_rows:
                counts[kind] = counts.get(kind, 0) + 1
            self.log.event_counts = counts
        else:
            self.log.event_counts = dict(self._event_sink.counts)
        name_dumps(self.log.graphs, self.log.executions)
        return self.log


class _KindCounter:
    """Stands in for the event list when events are only counted."""

    __slots__ = ("counts",)

    def __init__(self):
        self.counts: dict[str, int] = {}

    def append(self, row) -> None:
        self.counts[row[0]] = self.counts.get(row[0], 0) + 1


def _thread_key(key):
    """The thread id (bytes) in a prefix's `<thread> <source>` part; None for 1.x lines.

    >>> _thread_key(b"    14444 function.cc:82"), _thread_key(b" I tensorflow/x.cc:1"), _thread_key(None)
    (b'14444', None, None)
    """
    if not key:
        return None
    parts = key.split()
    return parts[0] if len(parts) == 2 and parts[0].isdigit() else None


def read_lines(lines: Iterable[bytes], path: str = "") -> VlogLog:
    """A VlogLog from lines (bytes, with or without their newlines)."""
    parser = VlogParser(path)
    parser.feed_lines(lines)
    return parser.close()


def read_vlog(path, progress: Callable | None = None, events: bool = True) -> VlogLog:
    """Read a whole log: a path, `-` for stdin, or a binary file object.

    progress(done_bytes, total_bytes) is called now and then for a regular file.
    events=False only counts the event lines (log.event_counts), keeping none of them.
    Raises InputError when the file cannot be opened or holds no lines at all.
    """
    if hasattr(path, "read"):
        return _read_stream(path, getattr(path, "name", "<stream>"), progress, events)
    path = os.fspath(path)
    if path == "-":
        return _read_stream(sys.stdin.buffer, "-", None, events)
    if os.path.isdir(path):
        raise InputError(path, "is a directory, not a log file")
    if not os.path.exists(path):
        raise InputError(path, "no such file or directory")
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(path, error.strerror or str(error)) from None
    with stream:
        return _read_stream(stream, path, progress, events)


def _read_stream(stream: io.BufferedIOBase, name: str, progress: Callable | None, events: bool) -> VlogLog:
    # The parse allocates millions of small objects and frees none: the cyclic collector's
    # passes over them would only cost time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _read_all(stream, name, progress, events)
    finally:
        if collecting:
            gc.enable()


def _read_all(stream: io.BufferedIOBase, name: str, progress: Callable | None, events: bool) -> VlogLog:
    parser = VlogParser(str(name), keep_events=events)
    total = 0
    if progress is not None:
        try:
            total = os.fstat(stream.fileno()).st_size
        except (OSError, AttributeError, ValueError):
            total = 0
    report = (lambda done: progress(min(done, total), total)) if total else None
    if not native.feed_file(parser, stream, CACHE_LIMIT, report):
        parser = VlogParser(str(name), keep_events=events)  # the scanner may have begun
        parser.feed_lines(bounded_lines(stream, str(name), progress=report))
    if total:
        progress(total, total)
    return parser.close()
