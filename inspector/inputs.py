"""Inputs named on the command line: a path, `-` for stdin, or `PATH#N` for one graph of a path."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import parsers
from parsers import detect, wire
from parsers.errors import InputError
from parsers.printable import printable

STDIN = "-"
# stdin is spooled to a temporary file, as far as the format it opens as can go: a protobuf
# message holds at most 2 GiB; a log or an events file is read as it streams, up to this.
STDIN_LIMIT = 8 << 30
_CHUNK = 1 << 20


def load(path):
    """parsers.load(path); for "-", what stdin holds, spooled to a temporary file (the
    readers decide the format by content) kept until exit, named "-" in errors. A spool that
    fails (a full disk, a bad input) leaves nothing behind."""
    if os.fspath(path) != STDIN:
        return parsers.load(path)
    folder = tempfile.mkdtemp(prefix="graph-inspector-stdin.")
    spooled = os.path.join(folder, "stdin")
    try:
        _spool(sys.stdin.buffer, spooled)
        loaded = parsers.load(spooled)
    except InputError as error:
        shutil.rmtree(folder, True)
        raise InputError(STDIN, error.message.replace(spooled, STDIN)) from None
    except BaseException:
        shutil.rmtree(folder, True)
        raise
    atexit.register(shutil.rmtree, folder, True)  # the readers may read on, lazily
    loaded.path = STDIN
    return loaded


def spool_limit(head):
    """How many bytes of stdin opening with `head` are worth keeping: a protobuf's 2 GiB, a
    log's or events file's STDIN_LIMIT, or the head alone when no protobuf starts so (a
    stream of zeros: the error is the same at 1 MiB as at 2 GiB).

    >>> spool_limit(b"\\0" * 4096) == len(b"\\0" * 4096)
    True
    """
    family = detect.sniff(head[:detect.SNIFF_BYTES])
    if family in ("events", "vlog"):
        return STDIN_LIMIT
    if family == "binary" and not wire.top_level_fields(head, limit=1):
        return len(head)
    return detect.MAX_FILE_BYTES


def _spool(stream, path):
    head = stream.read(_CHUNK)
    if not head:
        raise InputError(STDIN, "empty input (nothing on stdin)")
    limit = spool_limit(head)
    written = 0
    try:
        with open(path, "wb") as out:
            chunk = head
            while chunk:
                written += len(chunk)
                if written > limit:
                    if limit == STDIN_LIMIT:
                        raise InputError(STDIN, f"more than {limit >> 30} GiB on stdin; give a file")
                    raise InputError(STDIN, "more than 2 GiB on stdin, which opens as a "
                                            "protobuf: larger than a protobuf message can hold")
                out.write(chunk)
                if limit == len(head):
                    break  # what follows cannot change what is wrong with the head
                chunk = stream.read(_CHUNK)
    except OSError as error:  # a full disk under TMPDIR
        raise InputError(STDIN, f"cannot keep stdin in {os.path.dirname(os.path.dirname(path))}:"
                                f" {error.strerror or error}") from None


def split_address(address):
    """(path, graph choice or None) for `PATH#N` or `PATH#LABEL` (graph N, or the graph so
    labelled, of what PATH holds: a VLOG log's dumps, a dump directory's passes, a meta graph's
    graphs, a library function by name). A path that exists as written is a path, `#` and all.

    >>> split_address("log.txt#3"), split_address("graph.pb")
    (('log.txt', '3'), ('graph.pb', None))
    """
    address = os.fspath(address)
    if address == STDIN or os.path.exists(address) or "#" not in address:
        return address, None
    path, _, choice = address.rpartition("#")
    return path, choice


def choose_graph(loaded, choice, how_to_choose="PATH#N"):
    """The graph to use and its label: `choice` by number or label (or a library function by
    name), else a run's partition graphs together (a list), else the first graph (with a note
    on stderr when there are more, saying `how_to_choose` another)."""
    if not loaded.graphs:
        raise InputError(loaded.path, f"no graph in this {loaded.kind}")
    if choice is None:
        runs = [run for run in loaded.run_metadata if len(run.run_metadata.partition_graphs) > 1]
        if runs:
            count = len(runs[0].run_metadata.partition_graphs)
            return list(runs[0].run_metadata.partition_graphs), f"{count} partitions"
        if len(loaded.graphs) > 1:
            print(printable(f"note: {loaded.path} holds {len(loaded.graphs)} graphs; using 0"
                            f" ({loaded.graphs[0].label}); choose with {how_to_choose}"),
                  file=sys.stderr)
        return loaded.graphs[0].graph_def, loaded.graphs[0].label
    found = find_graph(loaded, choice)
    if found is None:
        raise InputError(loaded.path, f"no graph {choice!r}; {graphs_here(loaded)}")
    return found


def find_graph(loaded, choice):
    """(GraphDef, label) of the graph `choice` names (its number, label or file name), or of
    the library function it names (`function NAME` or NAME: parsers/functions.py); None."""
    for number, graph in enumerate(loaded.graphs):
        if choice in (graph.label, str(number)) or choice in _file_names(graph.source):
            return graph.graph_def, graph.label
    if any(graph.graph_def.library.function for graph in loaded.graphs):
        function = loaded.functions.get(choice)
        if function is not None:
            return function.graph_def, function.label
    return None


def graphs_here(loaded):
    """What a graph choice may name: the graphs by number and label, and the functions."""
    labels = "; ".join(f"{number}: {graph.label}" for number, graph in enumerate(loaded.graphs))
    text = f"graphs here are {labels}"
    if any(graph.graph_def.library.function for graph in loaded.graphs):
        names = [function.name for function in loaded.functions]
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        text += f"; and {len(names)} functions, by name ({shown}; `info` lists them)"
    return text


def _file_names(source):
    """The names a graph read from file `source` may be chosen by: the file's name, with and
    without its suffix (a dump directory's `after_MetaOptimizer_1.pbtxt`)."""
    name = os.path.basename(source)
    return (name, os.path.splitext(name)[0]) if name else ()


def load_graph(address):
    """(GraphDef, title) of `PATH` or `PATH#N|LABEL`; a run's partition graphs come as one
    GraphDef holding all their nodes. The title names the file, the choice and the graph."""
    path, choice = split_address(address)
    graph, label = choose_graph(load(path), choice)
    if isinstance(graph, list):
        whole = type(graph[0])()
        for partition in graph:
            whole.node.extend(partition.node)
        graph = whole
    title = os.path.basename(os.path.normpath(path)) or path
    if choice is not None:
        title += f"#{choice}"
    if label and label not in (title, choice, os.path.basename(path)):
        title += f" ({label})"
    return graph, title
