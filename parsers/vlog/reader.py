"""Read a VLOG log once, line by line, keeping only the block and step being read.

Each line gets a cheap substring test (`||`, `Process node:`, `kernel done:`) before any regex;
repeated node lines (every pass dumps the same graph again) are parsed once. Dump blocks are
keyed by (thread, source line), so blocks that two threads print at once stay apart.

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

import bisect
import os
import sys
import time
from typing import BinaryIO, Callable, Iterable

from parsers.errors import InputError
from parsers.vlog import prefix as _prefix
from parsers.vlog.events import classify
from parsers.vlog.executor_trace import DONE, PROCESS, SUMMARY
from parsers.vlog.graph_dump import parse_header, parse_node_line, parse_return
from parsers.vlog.model import Execution, ExecutedNode, GraphDump, LogEvent, VlogLog

# Caches of parsed repeated texts; cleared when they grow past this, so memory stays bounded.
CACHE_LIMIT = 200_000
# How far from a dump (in executions, each way) to look for the trace that names its nodes.
MATCH_WINDOW = 16

_NEWLINES = (10, 13)
_INSTANTIATE = b"Instantiate function definition: name="
_INSTANTIATE_LEN = len(_INSTANTIATE)
_split_prefix = _prefix.split_prefix
_ABSL = _prefix.ABSL
_GLOG = _prefix.GLOG_1X
_ABSL_FIRST = _prefix._ABSL_FIRST
_DIGITS = _prefix._DIGITS


class VlogParser:
    """Feed it lines (bytes); it builds a VlogLog and reports graphs as their blocks close.

    on_graph(GraphDump) runs when a block closes (or is cut off); keep=False leaves graphs and
    events out of the result, for callers that stream them away.
    """

    def __init__(self, path: str = "", on_graph: Callable | None = None, keep: bool = True):
        self.log = VlogLog(path)
        self.on_graph = on_graph
        self.keep = keep
        self._blocks: dict[tuple, GraphDump] = {}
        self._labels: dict = {}
        self._open: dict[tuple[int, str], Execution] = {}
        self._pending: dict[tuple[int, int], ExecutedNode] = {}
        self._node_cache: dict[str, object] = {}
        self._process_cache: dict[bytes, tuple | None] = {}
        self._line = 0
        self._unparsed = 0
        self._named_upto = 0

    # The hot loop: one pass, local names, substring tests first.
    def feed_lines(self, lines: Iterable[bytes]) -> None:
        line_no = self._line
        unparsed = 0
        absl_match = _ABSL.match
        glog_match = _GLOG.match
        absl_first = _ABSL_FIRST
        digits = _DIGITS
        dump_line = self._dump_line
        process_line = self._process_line
        done_line = self._done_line
        other_line = self._other_line
        keep = self.keep
        events = self.log.events
        try:
            for raw in lines:
                line_no += 1
                if not raw:
                    continue
                first = raw[0]
                if first in absl_first:
                    match = absl_match(raw)
                elif first in digits:
                    match = glog_match(raw)
                else:
                    match = None
                if match is None:
                    # Not a log line: a prefix-less `||` line, a continuation, or anything else.
                    if raw.startswith(b"||"):
                        if not dump_line(raw, None, line_no):
                            unparsed += 1
                    elif b"Graph size after: " in raw:
                        other_line(raw, raw, None, line_no, "grappler")
                    elif raw.strip():
                        unparsed += 1
                    continue
                message = raw[match.end():]
                if message[:2] == b"||":
                    ok = dump_line(message, match, line_no)
                elif b"Process node: " in message[:16]:
                    ok = process_line(message, match, line_no)
                elif b"kernel done: " in message[:26]:
                    ok = done_line(message, match)
                elif message[:15] == b"__LOG_MEMORY__ ":
                    if keep:
                        events.append(LogEvent("memory", line_no, raw))
                    continue
                else:
                    ok = other_line(raw, message, match, line_no, None)
                if not ok:
                    unparsed += 1
        finally:
            self._line = line_no
            self._unparsed += unparsed

    def feed(self, line: bytes) -> None:
        self.feed_lines((line,))

    # -- graph dumps --------------------------------------------------------------------------

    def _dump_line(self, message: bytes, match, line_no: int) -> bool:
        # Blocks are keyed by (thread, source) as printed: two threads' blocks stay apart.
        if match is None:
            key = None
        elif match.re is _ABSL:
            key = match.group(8, 9)
        else:
            key = match.group(9, 10)
        body = message[3:] if message[2:3] == b" " else message[2:]
        if body and body[-1] in _NEWLINES:
            body = body.rstrip(b"\r\n")
        if body[:2] == b"  ":
            block = self._blocks.get(key)
            if block is None:
                return False
            node = self._node_cache.get(body)
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
                self._node_cache[body] = node
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
            header = parse_header(body.decode("utf-8", "replace"))
            if header is None:
                return False
            cut = self._blocks.pop(key, None)
            if cut is not None:
                self._emit_graph(cut)
            kind, name, args, rets = header
            thread_key = key[0] if key else None
            label = self._labels.pop(thread_key, "")
            thread = int(thread_key) if thread_key is not None else None
            block = GraphDump(label, line_no, kind, name, args, rets, thread=thread)
            block.last_line = line_no
            self._blocks[key] = block
            if self.keep:
                self.log.graphs.append(block)
            return True
        return False

    def _emit_graph(self, block: GraphDump) -> None:
        if self.on_graph is not None:
            self.on_graph(block)

    # -- executor trace -----------------------------------------------------------------------

    @staticmethod
    def _micros_thread(match) -> tuple[int, int | None]:
        """Microseconds since the epoch and thread id of a matched prefix."""
        if match.re is _ABSL:
            _sev, month, day, hours, minutes, seconds, frac, thread, _src = match.groups()
            if month == b"00" and day == b"00":
                days = 0  # absl before InitializeLog: "seconds" count from the epoch
            else:
                days = _prefix._days(1970, int(month), int(day))
        else:
            year, month, day, hours, minutes, seconds, frac, _sev, thread, _src = match.groups()
            days = _prefix._days(int(year), int(month), int(day))
        micros = (
            ((days * 24 + int(hours)) * 60 + int(minutes)) * 60 + int(seconds)
        ) * 1_000_000 + (int(frac) if len(frac) == 6 else _prefix._fraction_micros(frac))
        return micros, int(thread) if thread is not None else None

    def _process_line(self, message: bytes, match, line_no: int) -> bool:
        head = PROCESS.match(message)
        if head is None:
            return False
        rest = head.group(3)
        parsed = self._process_cache.get(rest)
        if parsed is None:
            parsed = _parse_summary(rest)
            if parsed is None:
                return False
            if len(self._process_cache) > CACHE_LIMIT:
                self._process_cache.clear()
            self._process_cache[rest] = parsed
        name, op, inputs, dead, device, attrs = parsed
        node_id = int(head.group(1))
        step = int(head.group(2))
        micros, thread = self._micros_thread(match)
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

    def _done_line(self, message: bytes, match) -> bool:
        done = DONE.match(message)
        if done is None:
            return False
        node = self._pending.pop((int(done.group(3)), int(done.group(2))), None)
        if node is not None:
            node.end_us, _ = self._micros_thread(match)
        return True

    # -- everything else ----------------------------------------------------------------------

    def _other_line(self, raw: bytes, message: bytes, match, line_no: int, kind) -> bool:
        if kind is None:
            if b"#nodes " in message and message[:6] == b"Graph ":
                label = message[6:message.index(b"#nodes ")].decode("utf-8", "replace").strip()
                if label:
                    self._labels[self._thread(match)] = label
                return True
            if message[:_INSTANTIATE_LEN] == _INSTANTIATE:
                name = message[_INSTANTIATE_LEN:].split(b" ", 1)[0].strip().decode("utf-8", "replace")
                self._labels[self._thread(match)] = "Instantiate function definition: name=" + name
                return True
            kind = classify(message)
            if kind is None:
                return True  # an ordinary log line: nothing to keep
        if self.keep:
            self.log.events.append(LogEvent(kind, line_no, raw))
        return True

    @staticmethod
    def _thread(match):
        """The thread id as printed (bytes), the key labels and blocks share; None without one."""
        if match is None:
            return None
        return match.group(8) if match.re is _ABSL else match.group(9)

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
        name_dumps(self.log.graphs, self.log.executions)
        return self.log


def _parse_summary(rest: bytes):
    """`{{node name}} = Op[attrs](inputs) [is dead] device: dev` as a tuple, or None."""
    text = rest.decode("utf-8", "replace").rstrip("\r\n")
    summary, sep, device = text.rpartition(" device: ")
    if not sep or not device or " " in device:
        return None
    dead = False
    if summary.endswith(" is dead"):
        summary = summary[:-8]
        dead = True
    if summary.startswith("{{node "):
        name, sep, body = summary[7:].partition("}} = ")
    else:
        name, sep, body = summary.partition(" = ")
    if not sep or not name:
        return None
    node = SUMMARY.match(body)
    if node is None:
        return None
    op, attrs, inputs = node.groups()
    return name, op, tuple(inputs.split(", ")) if inputs else (), dead, device, attrs or ""


def name_dumps(graphs: list[GraphDump], executions: list[Execution]) -> None:
    """Give n<id> dumps their real names from the nearest execution that ran the same graph.

    A dump matches an execution when every n<id> it prints ran there with the same op (args
    as _Arg, rets as _Retval); the first such execution after the dump wins, else the last
    one before it. Dumps of graphs no executor ran (before pruning, say) keep their n<id> names.
    """
    if not executions:
        return
    starts = [execution.first_line for execution in executions]
    # Equal mappings are shared, so repeated dumps share their nodes' JSON too.
    interned: dict[tuple, dict[str, str]] = {}
    signatures: dict[tuple, list] = {}
    for graph in graphs:
        if graph.kind != "graph" or graph.real_names:
            continue
        signature = (tuple(map(id, graph.nodes)), tuple(graph.args), tuple(graph.rets))
        items = signatures.get(signature)
        if items is None:
            items = signatures[signature] = list(graph.node_ids().items())
        if not items:
            continue
        at = bisect.bisect_left(starts, graph.first_line)
        candidates = list(range(at, min(len(executions), at + MATCH_WINDOW)))
        candidates += list(range(at - 1, max(-1, at - 1 - MATCH_WINDOW), -1))
        for index in candidates:
            execution = executions[index]
            known = execution.id_names()
            if len(known) < len(items):
                continue
            for node_id, op in items:
                seen = known.get(node_id)
                if seen is None or seen[1] != op:
                    break
            else:
                mapping = tuple((f"n{node_id}", known[node_id][0]) for node_id, _ in items)
                graph.real_names = interned.setdefault(mapping, dict(mapping))
                graph.names_from = (execution.step, execution.device)
                break


def _lines_with_progress(stream: BinaryIO, total: int, progress: Callable) -> Iterable[bytes]:
    count = 0
    for raw in stream:
        yield raw
        count += 1
        if count & 0xFFFF == 0:
            progress(stream.tell(), total)
    progress(total, total)


def read_lines(lines: Iterable[bytes], path: str = "") -> VlogLog:
    """A VlogLog from lines (bytes, with or without their newlines)."""
    parser = VlogParser(path)
    parser.feed_lines(lines)
    return parser.close()


def read_vlog(path, progress: Callable | None = None) -> VlogLog:
    """Read a whole log: a path, `-` for stdin, or a binary file object.

    progress(done_bytes, total_bytes) is called now and then for a regular file.
    Raises InputError when the file cannot be opened or holds no lines at all.
    """
    if hasattr(path, "read"):
        return _read_stream(path, getattr(path, "name", "<stream>"), progress)
    path = os.fspath(path)
    if path == "-":
        return _read_stream(sys.stdin.buffer, "-", None)
    if os.path.isdir(path):
        raise InputError(path, "is a directory, not a log file")
    if not os.path.exists(path):
        raise InputError(path, "no such file or directory")
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(path, error.strerror or str(error)) from None
    with stream:
        return _read_stream(stream, path, progress)


def _read_stream(stream: BinaryIO, name: str, progress: Callable | None) -> VlogLog:
    parser = VlogParser(str(name))
    lines: Iterable[bytes] = stream
    if progress is not None:
        try:
            total = os.fstat(stream.fileno()).st_size
        except (OSError, AttributeError, ValueError):
            total = 0
        if total:
            lines = _lines_with_progress(stream, total, progress)
    parser.feed_lines(lines)
    return parser.close()


def finished_executions(executions: list[Execution]) -> int:
    """How many executions, from the first, are over: those before the latest step's runs.

    >>> from parsers.vlog.model import Execution
    >>> finished_executions([Execution(1, "a", 1), Execution(1, "b", 2), Execution(2, "a", 3)])
    2
    """
    upto = len(executions)
    if upto:
        latest = executions[-1].step
        while upto and executions[upto - 1].step == latest:
            upto -= 1
    return upto


def follow_vlog(
    path: str,
    on_graph: Callable[[GraphDump], None],
    on_execution: Callable[[Execution], None],
    idle_timeout: float | None = None,
    poll: float = 0.2,
) -> VlogLog:
    """Read a log that is still being written: report graphs as their blocks close and
    executions once a later step starts or the log goes quiet.

    Stops after idle_timeout seconds without growth (None: never; Ctrl-C stops it).
    """
    parser = VlogParser(path, on_graph=on_graph)
    reported = 0

    def report(everything: bool) -> None:
        nonlocal reported
        executions = parser.log.executions
        upto = len(executions) if everything else finished_executions(executions)
        for execution in executions[reported:upto]:
            name_dumps(parser.log.graphs, [execution])
            on_execution(execution)
        reported = max(reported, upto)

    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(path, error.strerror or str(error)) from None
    partial = b""
    quiet_since = time.monotonic()
    idle_reported = False
    try:
        with stream:
            while True:
                chunk = stream.read(1 << 20)
                if chunk:
                    data = partial + chunk
                    lines = data.split(b"\n")
                    partial = lines.pop()
                    parser.feed_lines(line.rstrip(b"\r") for line in lines)
                    report(False)
                    quiet_since = time.monotonic()
                    idle_reported = False
                    continue
                if not idle_reported:
                    report(True)
                    idle_reported = True
                if idle_timeout is not None and time.monotonic() - quiet_since >= idle_timeout:
                    break
                time.sleep(poll)
    except KeyboardInterrupt:
        pass
    if partial:
        parser.feed(partial.rstrip(b"\r"))
    log = parser.close()
    report(True)
    return log
