"""Graphviz export of graphs, partition graphs and step stats, readable at any size.

>>> from engine.proto import graph_pb2
>>> graph = graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": 1}}},
...                                   {"name": "y", "op": "Neg", "input": ["x"], "attr": {"T": {"type": 1}}}])
>>> [line.strip() for line in to_source(graph).splitlines() if "->" in line]
['x -> y [label=float color="#4d4d4d" tooltip="x:0 -> y"]']
"""

from __future__ import annotations

import os

from views.dot.build import COLOR_MODES, DotOptions, build, plan_layout
from views.dot.render import FORMATS, RenderError, find_dot, render
from views.dot.stats import NodeCost, node_costs
from views import outputs
from views.graph_index import GraphIndex

__all__ = ["DotOptions", "build", "plan_layout", "COLOR_MODES", "FORMATS", "RenderError", "NodeCost", "index_of",
           "to_digraph", "to_source", "render", "export", "node_costs", "find_dot"]


def index_of(graph):
    """The GraphIndex (views/graph_index.py) of whatever holds a graph: a GraphDef, a list of
    partition GraphDefs (drawn one cluster per device), a RunMetadata (its partition graphs),
    or anything with as_graph_def() (a live engine Graph)."""
    if hasattr(graph, "as_graph_def"):
        graph = graph.as_graph_def()
    if hasattr(graph, "partition_graphs"):
        graph = list(graph.partition_graphs)
    if isinstance(graph, (list, tuple)):
        if len(graph) == 1:
            return GraphIndex.of_graph(graph[0])
        return GraphIndex.of_partitions(graph)
    if hasattr(graph, "node"):
        return GraphIndex.of_graph(graph)
    raise TypeError(f"cannot draw a {type(graph).__name__}: expected a GraphDef, partition"
                    " GraphDefs, a RunMetadata or a Graph")


def to_digraph(graph, options=DotOptions()):
    """The graphviz.Digraph of `graph` (see index_of)."""
    return build(index_of(graph), options)


def to_source(graph, options=DotOptions()):
    """The DOT text of `graph`: same graph and options, same bytes."""
    return to_digraph(graph, options).source


def export(graph, path, options=DotOptions(), timeout=None):
    """Write `graph` to `path`: DOT for .dot/.gv, else rendered by dot in the suffix's format.
    Returns the number of bytes written; a failed write (views.outputs.OutputError, an
    OSError) leaves an old `path` as it was."""
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    source = to_source(graph, options)
    if suffix in ("dot", "gv"):
        data = source.encode("utf-8")
    elif suffix in FORMATS:
        data = render(source, suffix, **({"timeout": timeout} if timeout else {}))
    else:
        raise RenderError(f"unknown output format: {suffix or path!r}"
                          f" (must be one of {['dot', 'gv', *FORMATS]})")
    return outputs.write_bytes(path, data)  # whole or not at all
