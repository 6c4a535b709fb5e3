"""Reading the paths into a Workspace, off the UI thread, with progress and cancellation.

`read_paths` is plain Python (tests call it directly); the app runs it in a
@work(thread=True) worker, which passes `report` (posts LoadProgress) and `cancelled`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import parsers
from parsers.errors import InputError
from views.tui import details
from views.tui.workspace import StepExecution, Workspace


def read_paths(paths, report: Callable[[int, int, str], None] = lambda *a: None,
               cancelled: Callable[[], bool] = lambda: False, workspace=None):
    """(Workspace, [(path, reason)]): every path that reads, and why each other did not."""
    workspace = workspace or Workspace()
    failures = []
    total = len(paths) + 1
    for number, path in enumerate(paths):
        if cancelled():
            return workspace, failures
        report(number, total, f"reading {os.path.basename(path) or path}")
        try:
            loaded = parsers.load(path)
        except InputError as error:
            failures.append((path, error.message if hasattr(error, "message") else str(error)))
            continue
        except Exception as error:  # noqa: BLE001  (a reader's bug must not take the UI down)
            failures.append((path, f"cannot read: {type(error).__name__}: {error}"))
            continue
        workspace.add_loaded(loaded, os.path.basename(os.path.normpath(path)) or path)
        if loaded.kind == "vlog":
            add_executions(workspace, loaded)
    report(len(paths), total, "indexing")
    prepare(workspace, cancelled)
    report(total, total, "ready")
    return workspace, failures


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
    """The slower parts of the first view's index (consumers, search text), in the background."""
    views = workspace.all_views()
    if views and not cancelled():
        index = views[0].index
        index.search_lines()
        if not cancelled() and index.nodes:
            index.consumers(next(iter(index.nodes)))


def add_executions(workspace, loaded):
    """A VLOG's executions: per run and device, node names in the order the executor ran them.

    TODO(vlog): written against parsers.load's Loaded for a log (graphs in log order, a
    RunMetadata per step); revisit once parsers/vlog lands with its own step records.
    """
    graph = workspace.graphs[-1] if workspace.graphs else None
    for number, tagged in enumerate(loaded.run_metadata):
        for device_stats in tagged.run_metadata.step_stats.dev_stats:
            label = f"{tagged.tag or f'step {number}'} on {device_stats.device}"
            names = [stats.node_name for stats in device_stats.node_stats]
            workspace.executions.append(StepExecution(label, names, graph))
