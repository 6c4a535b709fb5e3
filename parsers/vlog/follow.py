"""Follow a log still being written: graphs as their blocks close, steps once they are over."""

from __future__ import annotations

import time
from collections.abc import Callable

from parsers.errors import InputError
from parsers.vlog.bounded import split_bounded
from parsers.vlog.model import Execution, GraphDump, VlogLog
from parsers.vlog.naming import name_dumps
from parsers.vlog.reader import VlogParser

CHUNK = 1 << 20


def finished_executions(executions: list[Execution]) -> int:
    """How many executions, from the first, are over: those before the latest step's runs.

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
    parser = VlogParser(path, on_graph=on_graph, keep_events=False)
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
                chunk = stream.read(CHUNK)
                if chunk:
                    lines, partial = split_bounded(partial, chunk, path)
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
