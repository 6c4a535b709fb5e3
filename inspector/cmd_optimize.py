"""`graph-inspector optimize GRAPH [-o OUT.pb] [--passes a,b] [--json]`: the graph optimizer's
passes over a GraphDef, what each did, and the optimized GraphDef written where asked.

The passes are the session's (engine.optimizer, Grappler's meta optimizer): pruning (with
--fetch), common_subgraph_elimination, constant_folding, arithmetic_optimization, remapping,
loop_optimization, dependency_optimization. Without --fetch every node nothing reads counts
as an output and keeps its name; --fetch and --keep name more nodes to keep (and let
pruning drop what the fetches do not need). A graph whose calls reach library functions has
each of them optimized too, as a graph of its own (inspector/optimize_functions.py), and -o
writes them back into the library; --graph FUNCTION optimizes one function's body.
"""

from __future__ import annotations

import json
import os
import sys

from engine import optimizer
from engine.framework import errors
from engine.optimizer.report import MAX_CHANGES
from inspector import inputs, optimize_functions
from parsers.errors import InputError
from parsers.printable import printable
from views import outputs


def add_arguments(parser):
    parser.add_argument("path", metavar="GRAPH",
                        help="a GraphDef (.pb/.pbtxt), meta graph, SavedModel, RunMetadata or "
                             "dump; - for stdin")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write the optimized GraphDef here (.pbtxt: text format, else "
                             "binary; - for stdout as text)")
    parser.add_argument("--passes", metavar="A,B",
                        help=f"run only these passes, in the table's order "
                             f"({', '.join(optimizer.PASS_NAMES)})")
    parser.add_argument("--fetch", action="append", default=[], metavar="NODE",
                        help="a node read after the run (kept; pruning drops what no fetch "
                             "needs); repeatable")
    parser.add_argument("--keep", action="append", default=[], metavar="NODE",
                        help="a node that must stay as it is; repeatable")
    parser.add_argument("--feed", action="append", default=[], metavar="NODE",
                        help="a node whose value is fed (never a constant); repeatable")
    parser.add_argument("--graph", metavar="N|LABEL|FUNCTION",
                        help="which graph in GRAPH (number or label, or a library function by"
                             " name; default the first)")
    parser.add_argument("--json", action="store_true",
                        help="print the per-pass report as JSON on stdout")


def run(args):
    if args.output:
        outputs.check_output(args.output, inputs=[args.path], allow_stdout=True)
    passes = _passes(args.passes)
    loaded = inputs.load(args.path)
    graph_def, label = _choose_graph(loaded, args.graph)
    names = {node.name for node in graph_def.node}
    for option, wanted in (("--fetch", args.fetch), ("--keep", args.keep),
                           ("--feed", args.feed)):
        for name in wanted:
            if name.split(":")[0].lstrip("^") not in names:
                raise InputError(args.path, f"{option} {name!r}: no such node in {label}")
    optimizer.preload()
    rewrite_options = optimizer.RewriterConfig(min_graph_nodes=-1)
    try:
        result = optimizer.optimize(graph_def, fetches=args.fetch, feeds=args.feed,
                                    keep=args.keep, passes=passes,
                                    rewrite_options=rewrite_options)
        functions = []
        if graph_def.library.function and label in loaded.functions.graph_labels:
            functions = optimize_functions.optimize_functions(loaded, label, passes,
                                                              rewrite_options)
    except errors.InvalidArgumentError as error:  # a graph the optimizer refuses (a cycle)
        raise InputError(args.path, error.message) from None
    if args.output:
        _write(args.output, optimize_functions.with_functions(result.graph_def, functions))
    if args.json:
        report = result.as_dict()
        report.update(path=args.path, graph=label, output=args.output,
                      functions=[found.as_dict() for found in functions])
        text = json.dumps(report, indent=1) + "\n"
    else:
        lines = _text_report(args.path, label, graph_def, result)
        if functions:
            lines += optimize_functions.report_lines(functions)
        text = "".join(printable(line) + "\n" for line in lines)
    stream = sys.stderr if args.output == outputs.STDOUT else sys.stdout
    stream.write(text)
    stream.flush()
    return 0


def _passes(text):
    if text is None:
        return None
    passes = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in passes if p not in optimizer.PASS_NAMES]
    if unknown or not passes:
        raise _bad_passes(unknown)
    return passes


def _bad_passes(unknown):
    what = f"unknown pass {unknown[0]!r}" if unknown else "no pass named"
    return InputError("--passes", f"{what}; passes are {', '.join(optimizer.PASS_NAMES)}")


def _choose_graph(loaded, choice):
    if not loaded.graphs:
        raise InputError(loaded.path, f"no graph in this {loaded.kind}")
    if choice is None:
        return loaded.graphs[0].graph_def, loaded.graphs[0].label
    found = inputs.find_graph(loaded, choice)
    if found is None:
        raise InputError(loaded.path, f"no graph {choice!r}; {inputs.graphs_here(loaded)}")
    return found


def _write(path, graph_def):
    from engine.proto import graph_pb2
    from google.protobuf import text_format

    message = graph_pb2.GraphDef()
    message.CopyFrom(graph_def)
    if path == outputs.STDOUT or os.path.splitext(path)[1].lower() in (".pbtxt", ".txt"):
        data = text_format.MessageToString(message).encode("utf-8")
    else:
        data = message.SerializeToString(deterministic=True)
    if path == outputs.STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        outputs.write_bytes(path, data)


def _text_report(path, label, graph_def, result):
    lines = [f"{path}: {label}: {len(graph_def.node)} nodes -> {len(result.graph_def.node)} "
             f"after {len(result.stages)} passes ({result.seconds * 1000:.0f} ms)"]
    if not result.stages:
        lines.append("  (no pass ran: the graph is empty or every pass is off)")
    for stage in result.stages:
        round_note = f" (round {stage.iteration + 1})" if stage.iteration else ""
        report = stage.report
        lines.append(f"  {stage.name}{round_note}: {report.summary()}; "
                     f"{report.nodes_before} -> {report.nodes_after} nodes")
        for change in report.changes[:5]:
            lines.append(f"      {change}")
        hidden = len(report.changes) - 5  # lines, not nodes: one line may fuse eight
        if hidden > 0:
            kept_all = len(report.changes) < MAX_CHANGES  # else the report stopped keeping
            lines.append(f"      ... {hidden}{'' if kept_all else '+'} more")
    return lines
