"""`graph-inspector diff A B [--json] [-o OUT.dot|.svg|.png]`: which nodes two graphs add, remove, change."""

from __future__ import annotations

import json
import sys

from inspector import inputs
from parsers.printable import printable
from views import graph_diff

# Details printed under a changed node before "... N more".
DETAIL_LINES = 6


def add_arguments(parser):
    parser.add_argument("before", metavar="A",
                        help="the first graph: a GraphDef, meta graph, SavedModel, RunMetadata,"
                             " dump or VLOG log; PATH#N (or PATH#LABEL) picks graph N of a log,"
                             " dump directory or container (`info` lists them)")
    parser.add_argument("after", metavar="B", help="the second graph, addressed as A")
    parser.add_argument("--json", action="store_true",
                        help="print the diff as JSON: added, removed, changed (with details), counts")
    parser.add_argument("--tui", action="store_true",
                        help="show the diff in the terminal UI (the changed nodes marked in the"
                             " tree and the Picture tab); without a terminal, print it")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="also draw the diff (as `dot --diff A B -o OUT`): .dot, .svg or .png")


def run(args):
    if args.output:  # first: a bad output path fails before anything is printed
        from inspector import cmd_dot
        cmd_dot.run(_dot_args(args))
    before, before_title = inputs.load_graph(args.before)
    after, after_title = inputs.load_graph(args.after)
    found = graph_diff.diff(before, after)
    if args.tui:
        from inspector.cmd_tui import has_terminal
        if has_terminal():
            return _open_tui(before, after, before_title, after_title)
        print("graph-inspector: no terminal, so no TUI: printed the diff", file=sys.stderr)
    if args.json:
        result = {"before": before_title, "after": after_title, **found.to_json()}
        output = json.dumps(result, indent=1) + "\n"
    else:
        output = text(found, before, after, before_title, after_title)
    sys.stdout.write(output)
    return 0


def text(found, before, after, before_title, after_title):
    """The diff as lines: a summary, then `+ name (Op)`, `- name (Op)`, `~ name (Op)` with
    what changed indented below."""
    ops_before = {node.name: node.op for node in before.node}
    ops_after = {node.name: node.op for node in after.node}
    lines = [f"{before_title} -> {after_title}: {found.summary()}"]
    lines += [f"+ {name} ({ops_after[name]})" for name in found.added]
    lines += [f"- {name} ({ops_before[name]})" for name in found.removed]
    for change in found.changed:
        lines.append(f"~ {change.name} ({ops_after[change.name]})")
        details = list(change.details)
        if len(details) > DETAIL_LINES:
            details = details[:DETAIL_LINES - 1] + [f"... {len(details) - DETAIL_LINES + 1} more"]
        lines += [f"    {detail}" for detail in details]
    return "".join(printable(line) + "\n" for line in lines)


def _open_tui(before, after, before_title, after_title):
    """The TUI on a workspace of the diff view, then the two graphs."""
    from views.tui import InspectorApp, diffs
    from views.tui.workspace import GraphView, Workspace

    old = GraphView(before_title, [before], before_title)
    new = GraphView(after_title, [after], after_title)
    workspace = Workspace(graphs=[diffs.diff_view(old, new), old, new],
                          sources=[before_title, after_title])
    app = InspectorApp(workspace=workspace)
    app.run()
    return app.return_code or 0


def _dot_args(args):
    """The arguments `dot --diff A B -o OUT` would have."""
    from argparse import Namespace
    from views.dot import DotOptions

    return Namespace(path=[args.before, args.after], diff=True, output=args.output, format=None,
                     graph=None, collapse=None, expand=[], focus=None, radius=1, stats=None,
                     color=None, budget=DotOptions.budget)
