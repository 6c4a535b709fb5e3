"""The function part of `optimize`: each function a graph's calls reach, optimized as a graph of its
own and written back into the library, as Grappler's meta optimizer does with the functions
reachable from the graph it optimizes.

A body is the graph parsers/functions.py makes of it (`_Arg`, body, `_Retval`); its `_Arg`s are
fed, its `_Retval`s and control outputs stay, and the passes run over the rest. The optimized
body goes back into a FunctionDef with the original signature
(engine/framework/function_from_graph.py); a body that cannot (an op without an OpDef whose
output a rewrite moved) keeps its FunctionDef as written, and the report says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import optimizer
from engine.framework.function_from_graph import function_def_from_graph
from engine.framework.function_graph import ARG_OP, FunctionGraphError

SHOWN = 20  # changed functions listed by name in the text report


@dataclass
class FunctionResult:
    """One function optimized: its name, the OptimizeResult, the FunctionDef to write (None:
    the original stays) and why it stays ("" when it does not, or nothing changed)."""

    name: str
    result: object
    function_def: object
    kept_because: str = ""

    def as_dict(self):
        found = {"name": self.name, **self.result.as_dict()}
        if self.kept_because:
            found["kept_as_written"] = self.kept_because
        return found


def optimize_functions(loaded, label, passes, rewrite_options):
    """A FunctionResult for each function graph `label`'s calls reach, in call order."""
    library = loaded.functions
    results = []
    for function in library.reached_from(label):
        body = function.graph_def
        feeds = [node.name for node in body.node if node.op == ARG_OP]
        keep = list(function.function_def.control_ret.values())
        result = optimizer.optimize(body, feeds=feeds, keep=keep, passes=passes,
                                    rewrite_options=rewrite_options)
        written, why = None, ""
        if result.changed:
            try:
                written = function_def_from_graph(result.graph_def, function.function_def,
                                                  library.definitions(function.owner),
                                                  library.op_defs)
            except FunctionGraphError as error:
                why = str(error)
        results.append(FunctionResult(function.name, result, written, why))
    return results


def with_functions(graph_def, results):
    """A copy of `graph_def` whose library holds each optimized function instead of its
    original (same place, same name)."""
    optimized = {r.name: r.function_def for r in results if r.function_def is not None}
    graph = type(graph_def)()
    graph.CopyFrom(graph_def)
    for function_def in graph.library.function:
        replacement = optimized.get(function_def.signature.name)
        if replacement is not None:
            function_def.CopyFrom(replacement)
    return graph


def report_lines(results):
    """`functions: 8 the graph calls, 3 changed` and a line per changed function."""
    changed = [r for r in results if r.result.changed]
    lines = [f"  functions: {len(results)} the graph's calls reach, optimized each;"
             f" {len(changed)} changed"]
    for found in changed[:SHOWN]:
        result = found.result
        before = result.stages[0].report.nodes_before if result.stages else len(result.graph_def.node)
        passes = "; ".join(f"{stage.name}{' (round 2)' if stage.iteration else ''}:"
                           f" {stage.report.summary()}"
                           for stage in result.stages if stage.report.total)
        lines.append(f"    {found.name}: {before} -> {len(result.graph_def.node)} nodes ({passes})")
        if found.kept_because:
            lines.append(f"      kept as written: {found.kept_because}")
    if len(changed) > SHOWN:
        lines.append(f"    ... {len(changed) - SHOWN} more changed (--json lists every one)")
    return lines
