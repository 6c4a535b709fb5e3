"""`graph-inspector dot PATH -o OUT.dot|.svg|.png`: a graph, or a run's partitions, as Graphviz."""

from __future__ import annotations

import os
import sys

from inspector import inputs, number_arguments
from parsers.errors import InputError
from parsers.printable import printable
from views import dot as views_dot
from views import outputs

OUTPUT_SUFFIXES = ("dot", "gv", *views_dot.FORMATS)


def add_arguments(parser):
    parser.add_argument("path", metavar="PATH", nargs="+",
                        help="a GraphDef, meta graph, SavedModel, events file, RunMetadata or"
                             " dump; - for stdin. With --diff: two graphs A B, each PATH or"
                             " PATH#N (graph N of a log or dump directory)")
    parser.add_argument("--diff", action="store_true",
                        help="draw how graph B differs from graph A: B's nodes and A's removed"
                             " ones, coloured added/removed/changed")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="where to write: .dot (DOT text), .svg or .png (rendered by dot);"
                             " - for stdout (DOT unless --format)")
    parser.add_argument("--format", choices=OUTPUT_SUFFIXES,
                        help="the output format when the name does not say (e.g. with -o -)")
    parser.add_argument("--graph", metavar="N|LABEL|FUNCTION",
                        help="which graph in PATH (number or label, or a library function by"
                             " name; default: a run's partitions together, else the first graph)")
    parser.add_argument("--expand-calls", action="store_true",
                        help="draw the body of every function a call reaches inside the call,"
                             " as a cluster (nested calls too)")
    parser.add_argument("--collapse", type=number_arguments.count, metavar="DEPTH",
                        help="fold every scope deeper than DEPTH (0: fold all top-level scopes)")
    parser.add_argument("--expand", action="append", default=[], metavar="SCOPE",
                        help="open this scope (a name or glob) whatever the size; repeatable")
    parser.add_argument("--focus", metavar="NODE", help="show NODE and its neighbours, fold the rest")
    parser.add_argument("--radius", type=number_arguments.count, default=1, metavar="K",
                        help="with --focus: how many hops around NODE (default 1)")
    parser.add_argument("--stats", metavar="RUN_METADATA",
                        help="overlay step stats (op time, output memory) from this run, by node name")
    parser.add_argument("--color", choices=views_dot.COLOR_MODES,
                        help="colour by op family (default), device, or step-stats time/memory")
    parser.add_argument("--budget", type=number_arguments.at_least_one,
                        default=views_dot.DotOptions.budget, metavar="N",
                        help=f"fold scopes until at most N boxes are drawn"
                             f" (default {views_dot.DotOptions.budget})")


def run(args):
    paths = args.path
    if len(paths) != (2 if args.diff else 1):
        wanted = "two graphs (A B) with --diff" if args.diff else "one PATH (two with --diff)"
        raise InputError(paths[-1], f"{len(paths)} paths given: dot draws {wanted}")
    outputs.check_output(args.output, inputs=[inputs.split_address(path)[0] for path in paths]
                         + ([args.stats] if args.stats else []), allow_stdout=True)
    suffix = output_format(args)
    args.path = paths[-1]
    graph_diff = None
    if args.diff:
        loaded, graph, title, graph_diff = _diff_graph(args, *paths)
    else:
        loaded = inputs.load(args.path)
        graph, title = choose_graph(loaded, args.graph)
        if args.expand_calls:
            graph, title = _expanded(loaded, graph, title, args)
    costs = stats_for(loaded, args)
    color = args.color or ("diff" if args.diff else "time" if args.stats else "op")
    if color == "diff" and graph_diff is None:
        raise InputError(args.path, "--color diff needs two graphs: dot --diff A B")
    if color in ("time", "memory") and costs is None:
        raise InputError(args.path, f"--color {color} needs step stats: this file has none;"
                                    f" pass --stats RUN_METADATA")
    try:
        options = views_dot.DotOptions(
            budget=args.budget, collapse=args.collapse, expand=tuple(args.expand),
            focus=args.focus, radius=args.radius, color=color, costs=costs, title=title,
            diff=graph_diff)
        index = views_dot.index_of(graph)
        layout = views_dot.plan_layout(index, options)
    except ValueError as error:
        raise InputError(args.path, str(error)) from None
    if layout.size > args.budget:
        print(over_budget_warning(args, layout.size), file=sys.stderr)
    digraph = views_dot.build(index, options, layout)
    matched = _matched(index, costs)
    if args.stats and not matched:
        print(f"warning: {args.stats}: none of its {len(costs)} step-stats node names are in"
              f" this graph", file=sys.stderr)
    source = digraph.source
    if suffix in ("dot", "gv"):
        data = source.encode("utf-8")
    else:
        try:
            data = views_dot.render(source, suffix)
        except views_dot.RenderError as error:
            raise InputError(args.output, str(error)) from None
    outputs.write_bytes(args.output, data)
    with_stats = f", {matched} with step stats" if costs is not None else ""
    where = "stdout" if args.output == outputs.STDOUT else args.output
    print(printable(f"wrote {where}: {title}, {len(index.nodes)} nodes{with_stats}"), file=sys.stderr)
    return 0


def output_format(args):
    """The format to write: --format, else the output's suffix (.dot for stdout)."""
    if args.format:
        return args.format
    if args.output == outputs.STDOUT:
        return "dot"
    suffix = os.path.splitext(args.output)[1].lower().lstrip(".")
    if suffix not in OUTPUT_SUFFIXES:
        named = f".{suffix}" if suffix else "(no suffix)"
        known = ", ".join(f".{known}" for known in OUTPUT_SUFFIXES)
        raise InputError(args.output, f"unknown output format {named} (must be one of {known};"
                                      f" or --format)")
    return suffix


def over_budget_warning(args, boxes):
    """What to say when the drawing holds more boxes than the budget: what opened them, and
    how to narrow it, before dot spends minutes on it."""
    if args.expand:
        why = " ".join(f"--expand {pattern!r}" for pattern in args.expand) + \
            " opens scopes whatever the budget"
    elif args.focus:
        why = f"--focus {args.focus!r} --radius {args.radius} shows every node that near"
    else:
        why = "the scopes that cannot fold hold that many nodes"
    cost = "; dot may take minutes and the picture will be huge" if boxes > 4 * args.budget else ""
    return (f"warning: {args.path}: drawing {boxes} boxes, over the budget of {args.budget}"
            f" ({why}){cost}. Narrow it with a deeper --expand scope (e.g. 'block1/conv1*'),"
            f" --focus NODE --radius 1, or --collapse DEPTH")


def _expanded(loaded, graph, label, args):
    """The graph labelled `label` with its calls' bodies inlined (views/call_expansion.py)."""
    from views.call_expansion import ExpansionTooLarge, expand_calls

    if isinstance(graph, list):
        raise InputError(args.path, "--expand-calls draws one graph's calls, not a run's"
                                    " partitions; choose one with --graph")
    if not any(g.graph_def.library.function for g in loaded.graphs):
        return graph, label
    try:
        return expand_calls(loaded.functions, label), f"{label}, calls expanded"
    except ExpansionTooLarge as error:
        raise InputError(args.path, str(error)) from None


def _diff_graph(args, before, after):
    """(None: no Loaded to take step stats from, the merged graph, its title, the GraphDiff)
    for dot --diff A B."""
    from views import graph_diff

    if args.graph is not None:
        raise InputError(after, "--graph does not go with --diff: address graphs as PATH#N")
    if args.expand_calls:
        raise InputError(after, "--expand-calls does not go with --diff")
    old, old_title = inputs.load_graph(before)
    new, new_title = inputs.load_graph(after)
    found = graph_diff.diff(old, new)
    return None, graph_diff.merged(old, new, found), \
        f"{old_title} -> {new_title}: {found.summary()}", found


def choose_graph(loaded, choice):
    """The graph to draw and its label (inputs.choose_graph, --graph choosing)."""
    return inputs.choose_graph(loaded, choice, how_to_choose="--graph")


def stats_for(loaded, args):
    """Node name -> NodeCost from --stats, else from PATH itself when it is a run; or None.
    `loaded` is None for a diff (its step stats only come from --stats)."""
    if args.stats:
        runs = inputs.load(args.stats).run_metadata
        if not runs:
            raise InputError(args.stats, "no RunMetadata (step stats) in it")
        return views_dot.node_costs(runs[0].run_metadata)
    if loaded is not None and loaded.run_metadata and loaded.run_metadata[0].run_metadata.step_stats.dev_stats:
        return views_dot.node_costs(loaded.run_metadata[0].run_metadata)
    return None


def _matched(index, costs):
    """How many of the graph's nodes have a step-stats record."""
    if not costs:
        return 0
    return sum(1 for node in index.nodes.values() if node.name in costs)
