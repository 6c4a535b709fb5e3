"""Graph diffs in the TUI: a diff view of two graphs, and the marks its tree and picture show.

A diff view is a GraphView of kind "diff" over views.graph_diff.merged(before, after): every
node of the second graph and the nodes the first had that the second lost, each marked added
(+), removed (-) or changed (~). Its tree opens narrowed to the nodes that differ. Functions
are paired as `diff` pairs them (views/function_diff.py): a call of a renamed function is the
same call, and each pair of functions whose bodies differ gets a diff view of its own.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from views import function_diff, graph_diff
from views.tui.workspace import GraphView

STYLES = {graph_diff.ADDED: "bold green", graph_diff.REMOVED: "bold red",
          graph_diff.CHANGED: "bold yellow"}


def one_graph(view):
    """The GraphDef of a view (a run's partitions as one GraphDef holding all their nodes)."""
    if len(view.graph_defs) == 1:
        return view.graph_defs[0]
    whole = type(view.graph_defs[0])()
    for graph_def in view.graph_defs:
        whole.node.extend(graph_def.node)
    return whole


def diff_view(before, after, label=None):
    """The GraphView showing how GraphView `after` differs from GraphView `before`."""
    return diff_views(before, after, label)[0]


def diff_views(before, after, label=None):
    """The diff view of two GraphViews, then one per pair of their functions whose bodies
    differ (`LABEL: function NAME` or `LABEL: function OLD -> NEW`)."""
    old, new = one_graph(before), one_graph(after)
    functions = function_diff.diff_libraries(old, new)
    label = label or f"{before.label} -> {after.label}"
    views = [diff_of_graphs(old, new, label, after.source, functions)]
    for change in functions.changed:
        names = change.before if change.before == change.after else \
            f"{change.before} -> {change.after}"
        views.append(GraphView(f"{label}: function {names}", [graph_diff.merged(
            change.before_graph, change.after_graph, change.diff)], after.source, "diff",
            diff=change.diff))
    return views


def diff_of_graphs(old, new, label, source="", functions=None):
    """The diff GraphView from GraphDef `old` to GraphDef `new`; `functions`, the
    function_diff.LibraryDiff of their libraries, pairs the functions their calls name."""
    found = graph_diff.diff(old, new, functions.renamed if functions is not None else None)
    view = GraphView(label, [graph_diff.merged(old, new, found)], source, "diff", diff=found)
    if functions is not None and not (functions.empty and not functions.renamed):
        view.marks["functions"] = functions
    return view


def summary(view):
    """The header's line of a diff view: its nodes' counts, and its functions' when the
    graphs have any.

    >>> from engine.proto import graph_pb2
    >>> a = graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder"}])
    >>> summary(diff_of_graphs(a, a, "a -> a"))
    '0 added, 0 removed, 0 changed, 1 unchanged'
    """
    text = view.diff.summary()
    functions = view.marks.get("functions")
    if functions is not None:
        text += f"; {functions.summary()}"
        if functions.changed:
            text += " (g: their diffs)"
    return text


def status_of(view, key):
    """ADDED, REMOVED, CHANGED or None for node `key` of `view` (None outside a diff view)."""
    if view.diff is None or key not in view.index.nodes:
        return None
    return view.diff.status(view.index.nodes[key].name)


def differing_keys(view):
    """Keys of the nodes of a diff view that were added, removed or changed (in graph order)."""
    if "keys" not in view.marks:
        found = view.diff
        view.marks["keys"] = [key for key, node in view.index.nodes.items()
                              if found.status(node.name)]
    return view.marks["keys"]


def picture_marks(view):
    """key -> + - ~ for the nodes of a diff view that differ; {} for any other view."""
    if view.diff is None:
        return {}
    if "picture" not in view.marks:
        view.marks["picture"] = {key: graph_diff.MARKS[status_of(view, key)]
                                 for key in differing_keys(view)}
    return view.marks["picture"]


def scope_counts(view):
    """The ScopeCounts of a diff view, made once."""
    if "scopes" not in view.marks:
        view.marks["scopes"] = ScopeCounts(view)
    return view.marks["scopes"]


def leaf_mark(view, key):
    """The tree's prefix for a node: its mark, styled, or an empty Text."""
    status = status_of(view, key)
    if status is None:
        return Text("")
    return Text(graph_diff.MARKS[status] + " ", style=STYLES[status])


class ScopeCounts:
    """Per scope of a diff view, how many nodes under it were added, removed, changed."""

    def __init__(self, view):
        self.counts = {}
        index = view.index
        for key in differing_keys(view):
            status = status_of(view, key)
            parts = index.scope_path(key)
            partition = index.part_of(key)
            for depth in range(len(parts) + 1):
                scope = (partition, "/".join(parts[:depth]))
                self.counts.setdefault(scope, Counter())[status] += 1

    def text(self, entry):
        """` +3 -1 ~2` for a scope entry with changes under it, styled; else an empty Text."""
        counts = self.counts.get((max(entry.partition, 0), entry.path))
        text = Text("")
        for status in graph_diff.STATUSES:
            if counts and counts[status]:
                text.append(f" {graph_diff.MARKS[status]}{counts[status]}", style=STYLES[status])
        return text


def node_lines(view, key):
    """What the node header says about a node of a diff view: its status and what changed."""
    status = status_of(view, key)
    if status is None:
        return [] if view.diff is None else ["unchanged"]
    if status == graph_diff.CHANGED:
        change = view.diff.change(view.index.nodes[key].name)
        return ["changed: " + "; ".join(change.details)]
    return ["added: only in the second graph" if status == graph_diff.ADDED
            else "removed: only in the first graph"]
