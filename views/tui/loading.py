"""Reading the paths into a Workspace, off the UI thread, with progress and cancellation.

`read_paths` is plain Python (tests call it directly); the app runs it in a
@work(thread=True) worker, which passes `report` (posts LoadProgress) and `cancelled`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import parsers
from parsers.errors import InputError
from parsers.printable import printable
from views.tui import details
from parsers.detect import sniff
from parsers.vlog import read_vlog
from views.tui.workspace import GraphView, RunView, StepExecution, Workspace

STEPS_PER_PATH = 1000  # the bar's steps for one path, so a parse's progress moves it
INDEX_STEPS = 100      # and for indexing the first view at the end (quick next to reading)




def read_paths(paths, report: Callable[[int, int, str], None] = lambda *a: None,
               cancelled: Callable[[], bool] = lambda: False, workspace=None):
    """(Workspace, [(path, reason)]): every path that reads, and why each other did not."""
    workspace = workspace or Workspace()
    failures = []
    total = len(paths) * STEPS_PER_PATH + INDEX_STEPS
    for number, path in enumerate(paths):
        if cancelled():
            return workspace, failures
        what = f"{os.path.basename(path) or path}{_size_text(path)}"
        report(number * STEPS_PER_PATH, total, f"reading {what}")
        try:
            if _is_vlog(path):
                add_vlog(workspace, read_vlog(path), os.path.basename(path))
                continue
            loaded = parsers.load(path, _parse_progress(report, number, total, what))
        except InputError as error:
            # The file the error is about (a SavedModel's saved_model.pb, not its directory),
            # escaped as `info` prints it: a name can hold newlines and terminal codes.
            failures.append((printable(error.path), error.message))
            continue
        except Exception as error:  # noqa: BLE001  (a reader's bug must not take the UI down)
            failures.append((printable(path),
                             printable(f"cannot read: {type(error).__name__}: {error}")))
            continue
        workspace.add_loaded(loaded, os.path.basename(os.path.normpath(path)) or path)
    report(len(paths) * STEPS_PER_PATH, total, "indexing")
    prepare(workspace, cancelled)
    report(total, total, "ready")
    return workspace, failures


def _parse_progress(report, number, total, what):
    """parsers.load's progress(done, total) for path `number`, as the bar's steps."""
    def progress(done, size):
        if size:
            step = number * STEPS_PER_PATH + min(done, size) * (STEPS_PER_PATH - 1) // size
            report(step, total, f"parsing {what} {100 * done // size}%")
    return progress


def prepare(workspace, cancelled=lambda: False):
    """Index the first view and collect creation stacks, so the first screen draws at once."""
    views = workspace.all_views()
    if views and not cancelled():
        views[0].index
    for view in workspace.graphs:
        if cancelled():
            return
        for graph_def in view.graph_defs:
            for name, trace in details.graph_traces(graph_def).items():
                view.traces.setdefault(name, trace)


def warm(workspace, cancelled=lambda: False):
    """The slower parts of the first view's index (consumers, search text) and the search
    text of every function body its calls reach, in the background."""
    views = workspace.all_views()
    if views and not cancelled():
        index = views[0].index
        index.search_lines()
        if not cancelled() and index.nodes:
            index.consumers(next(iter(index.nodes)))
        if not cancelled() and views[0].functions is not None and views[0].graph_label:
            views[0].functions.search(views[0].graph_label)
            # Opening a body reads its ops' OpDefs: load the registry before the first Enter.
            from engine.framework import op_registry
            op_registry.lookup("NoOp")


def _size_text(path):
    """ " (17.2 MB)" for a file big enough to take a while to read, else ""."""
    try:
        size = os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return ""
    return f" ({size / 1e6:.1f} MB)" if size >= 1_000_000 else ""


def _is_vlog(path):
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as stream:
        return sniff(stream.read(4096)) == "vlog"


def add_vlog(workspace, log, name):
    """A VLOG's graph dumps (log order, their labels), a run per step, and each execution."""
    dumps = []
    for number, dump in enumerate(log.graphs):
        view = GraphView(f"{name} #{number}: {dump.label}", [dump.graph_def()], name, "vlog")
        workspace.graphs.append(view)
        dumps.append((dump, view))
    for step in log.steps():
        metadata = log.run_metadata(step)
        run = RunView(f"{name} step {step}", metadata, name)
        if metadata.partition_graphs:
            run.partitions = GraphView(f"{name} step {step} partitions",
                                       list(metadata.partition_graphs), name, "partitions", run)
        workspace.runs.append(run)
    for execution in log.executions:
        graph = next((view for dump, view in dumps
                      if dump.names_from == (execution.step, execution.device)), None)
        device = execution.device.rpartition("device:")[2] or execution.device
        workspace.executions.append(StepExecution(
            f"step {execution.step} on {device}", [node.name for node in execution.nodes], graph))
