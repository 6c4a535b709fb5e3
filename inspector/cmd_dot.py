"""`graph-inspector dot PATH -o OUT.dot|.svg|.png`: a graph, or a run's partitions, as Graphviz."""

from __future__ import annotations

import os
import sys

import parsers
from parsers.errors import InputError
from views import dot as views_dot

OUTPUT_SUFFIXES = ("dot", "gv", *views_dot.FORMATS)


def add_arguments(parser):
    parser.add_argument("path", metavar="PATH",
                        help="a GraphDef, meta graph, SavedModel, events file, RunMetadata or dump")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="where to write: .dot (DOT text), .svg or .png (rendered by dot)")
    parser.add_argument("--graph", metavar="N|LABEL",
                        help="which graph in PATH (number or label; default: a run's partitions"
                             " together, else the first graph)")
    parser.add_argument("--collapse", type=int, metavar="DEPTH",
                        help="fold every scope deeper than DEPTH (0: fold all top-level scopes)")
    parser.add_argument("--expand", action="append", default=[], metavar="SCOPE",
                        help="open this scope (a name or glob) whatever the size; repeatable")
    parser.add_argument("--focus", metavar="NODE", help="show NODE and its neighbours, fold the rest")
    parser.add_argument("--radius", type=int, default=1, metavar="K",
                        help="with --focus: how many hops around NODE (default 1)")
    parser.add_argument("--stats", metavar="RUN_METADATA",
                        help="overlay step stats (op time, output memory) from this run, by node name")
    parser.add_argument("--color", choices=views_dot.COLOR_MODES,
                        help="colour by op family (default), device, or step-stats time/memory")
    parser.add_argument("--budget", type=int, default=views_dot.DotOptions.budget, metavar="N",
                        help=f"fold scopes until at most N boxes are drawn"
                             f" (default {views_dot.DotOptions.budget})")


def run(args):
    suffix = os.path.splitext(args.output)[1].lower().lstrip(".")
    if suffix not in OUTPUT_SUFFIXES:
        raise InputError(args.output, f"unknown output format {('.' + suffix) if suffix else '(no suffix)'}"
                                      f" (must be one of {', '.join('.' + s for s in OUTPUT_SUFFIXES)})")
    loaded = parsers.load(args.path)
    graph, title = choose_graph(loaded, args.graph)
    costs = stats_for(loaded, args)
    color = args.color or ("time" if args.stats else "op")
    if color in ("time", "memory") and costs is None:
        raise InputError(args.path, f"--color {color} needs step stats: this file has none;"
                                    f" pass --stats RUN_METADATA")
    try:
        options = views_dot.DotOptions(
            budget=args.budget, collapse=args.collapse, expand=tuple(args.expand),
            focus=args.focus, radius=args.radius, color=color, costs=costs, title=title)
        index = views_dot.index_of(graph)
        digraph = views_dot.build(index, options)
    except ValueError as error:
        raise InputError(args.path, str(error)) from None
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
    try:
        with open(args.output, "wb") as out:
            out.write(data)
    except OSError as error:
        raise InputError(args.output, f"cannot write: {error.strerror or error}") from None
    with_stats = f", {matched} with step stats" if costs is not None else ""
    print(f"wrote {args.output}: {title}, {len(index.nodes)} nodes{with_stats}")
    return 0


def choose_graph(loaded, choice):
    """The graph to draw and its label: --graph by number or label, else a run's partition
    graphs together, else the first graph."""
    if not loaded.graphs:
        raise InputError(loaded.path, f"no graph in this {loaded.kind}")
    if choice is None:
        runs = [run for run in loaded.run_metadata if len(run.run_metadata.partition_graphs) > 1]
        if runs:
            count = len(runs[0].run_metadata.partition_graphs)
            return list(runs[0].run_metadata.partition_graphs), f"{count} partitions"
        if len(loaded.graphs) > 1:
            print(f"note: {loaded.path} holds {len(loaded.graphs)} graphs; drawing 0"
                  f" ({loaded.graphs[0].label}); choose with --graph", file=sys.stderr)
        return loaded.graphs[0].graph_def, loaded.graphs[0].label
    for number, graph in enumerate(loaded.graphs):
        if choice == graph.label or choice == str(number):
            return graph.graph_def, graph.label
    labels = "; ".join(f"{number}: {graph.label}" for number, graph in enumerate(loaded.graphs))
    raise InputError(loaded.path, f"no graph {choice!r}; graphs here are {labels}")


def stats_for(loaded, args):
    """Node name -> NodeCost from --stats, else from PATH itself when it is a run; or None."""
    if args.stats:
        runs = parsers.load(args.stats).run_metadata
        if not runs:
            raise InputError(args.stats, "no RunMetadata (step stats) in it")
        return views_dot.node_costs(runs[0].run_metadata)
    if loaded.run_metadata and loaded.run_metadata[0].run_metadata.step_stats.dev_stats:
        return views_dot.node_costs(loaded.run_metadata[0].run_metadata)
    return None


def _matched(index, costs):
    """How many of the graph's nodes have a step-stats record."""
    if not costs:
        return 0
    return sum(1 for node in index.nodes.values() if node.name in costs)
