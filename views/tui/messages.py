"""Every message the TUI's parts send each other: small dataclasses, one place."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class LoadProgress(Message):
    """A loading worker finished `done` of `total` steps; `what` says which."""

    done: int
    total: int
    what: str


@dataclass
class LoadFailed(Message):
    """A path could not be read; the others still open."""

    path: str
    reason: str


@dataclass
class WorkspaceReady(Message):
    """Every path is read and the first view indexed."""

    workspace: object


@dataclass
class NodeChosen(Message):
    """Show node `key` of `view` in the browser (from a tree, a table, a link or a match)."""

    view: object
    key: str


@dataclass
class NodeOpened(Message):
    """Enter on node `key` of `view`: open the body of the function it calls (`callee`, a
    function label, when the user chose one; else each it calls, one asked for)."""

    view: object
    key: str
    callee: str = ""


@dataclass
class FilterChanged(Message):
    """The filter box's text on each keystroke."""

    text: str


@dataclass
class DebugUpdated(Message):
    """The debugger's controller has news: a run paused, ended or arrived; the program ended."""


@dataclass
class DebugCommandDone(Message):
    """The debugger screen's worker has carried out one command (step, cont, ...)."""


@dataclass
class RunReadProgress(Message):
    """The runs screen's worker has read `done` of the `total` executions of `run`."""

    run: object
    done: int
    total: int


@dataclass
class RowsReady(Message):
    """The runs screen's worker has the rows to show (row numbers of `table`, an array) and
    their totals."""

    run: object
    table: object
    numbers: object   # a NumPy array of row numbers
    totals: list
