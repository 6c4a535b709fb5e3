"""`graph-inspector diff A B [--json] [-o OUT.dot|.svg|.png]`: which nodes two graphs add, remove, change;
`diff --stats A B [--top N] [--json]`: where two runs' time went, op by op (inspector/diff_stats.py)."""

from __future__ import annotations

import json
import sys

from inspector import inputs
from parsers.printable import printable
from views import function_diff, graph_diff

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
    parser.add_argument("--stats", action="store_true",
                        help="compare the two runs' step stats instead: time per op type and"
                             " per node in A and B, B/A, by cost (RunMetadata, events with run"
                             " metadata, VLOG logs with executor lines)")
    parser.add_argument("--top", type=int, default=20, metavar="N",
                        help="with --stats: the N costliest nodes (default 20; 0: all)")


def run(args):
    if args.stats:
        from inspector import diff_stats
        return diff_stats.run(args)
    if args.output:  # first: a bad output path fails before anything is printed
        from inspector import cmd_dot
        cmd_dot.run(_dot_args(args))
    before, before_title = inputs.load_graph(args.before)
    after, after_title = inputs.load_graph(args.after)
    functions = function_diff.diff_libraries(before, after)
    found = graph_diff.diff(before, after, functions.renamed)
    if args.tui:
        from inspector.cmd_tui import has_terminal
        if has_terminal():
            return _open_tui(before, after, before_title, after_title)
        print("graph-inspector: no terminal, so no TUI: printed the diff", file=sys.stderr)
    if args.json:
        result = {"before": before_title, "after": after_title, **found.to_json(),
                  "functions": functions.to_json()}
        output = json.dumps(result, indent=1) + "\n"
    else:
        output = text(found, before, after, before_title, after_title, functions)
    sys.stdout.write(output)
    return 0


def text(found, before, after, before_title, after_title, functions=None):
    """The diff as lines: a summary, then `+ name (Op)`, `- name (Op)`, `~ name (Op)` with
    what changed indented below; then each pair of functions whose bodies differ, the same
    way, and the functions only one side has."""
    summary = found.summary()
    if functions is not None and (functions.renamed or functions.added or functions.removed):
        summary += f"; {functions.summary()}"
    lines = [f"{before_title} -> {after_title}: {summary}"] + _node_lines(found, before, after)
    for change in functions.changed if functions is not None else ():
        names = change.before if change.before == change.after else \
            f"{change.before} -> {change.after}"
        lines.append(f"function {names}: {change.diff.summary()}")
        lines += _node_lines(change.diff, change.before_graph, change.after_graph)
    lines += [f"+ function {name}" for name in (functions.added if functions else ())]
    lines += [f"- function {name}" for name in (functions.removed if functions else ())]
    return "".join(printable(line) + "\n" for line in lines)


def _node_lines(found, before, after):
    ops_before = {node.name: node.op for node in before.node}
    ops_after = {node.name: node.op for node in after.node}
    lines = [f"+ {name} ({ops_after[name]})" for name in found.added]
    lines += [f"- {name} ({ops_before[name]})" for name in found.removed]
    for change in found.changed:
        lines.append(f"~ {change.name} ({ops_after[change.name]})")
        details = list(change.details)
        if len(details) > DETAIL_LINES:
            details = details[:DETAIL_LINES - 1] + [f"... {len(details) - DETAIL_LINES + 1} more"]
        lines += [f"    {detail}" for detail in details]
    return lines


def _open_tui(before, after, before_title, after_title):
    """The TUI on a workspace of the diff view, then the two graphs."""
    from views.tui import InspectorApp, diffs
    from views.tui.workspace import GraphView, Workspace

    old = GraphView(before_title, [before], before_title)
    new = GraphView(after_title, [after], after_title)
    workspace = Workspace(graphs=[*diffs.diff_views(old, new), old, new],
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
                     color=None, budget=DotOptions.budget, expand_calls=False)
