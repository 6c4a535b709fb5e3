"""Find a node anywhere in a graph and every function body its calls reach, as the `/` box finds
one in a graph (views/node_search.py: a regex over names, ops and devices).

The search text is built once per graph: a line per node of the graph and of each body
(parsers/functions.py's graphs: those its calls reach in call-tree order, then the rest of its
library), keyed by (graph label, node name). A find
is one regex pass over it, so it answers in milliseconds on thousands of bodies; the matches
come grouped by the graph or function that holds them.

>>> import parsers
>>> search = BodySearch(parsers.load("tests/fixtures/tf2/while_cond").functions, "serve")
>>> found = search.find("TensorListSetItem")
>>> [(hit.graph, hit.node) for hit in found], search.summary(found)
([('function while_body_13', 'while/TensorArrayV2Write/TensorListSetItem')], '1 match in 1 function')
"""

from __future__ import annotations

from dataclasses import dataclass

from views import node_search


@dataclass(frozen=True)
class Hit:
    """A node found: the label of the graph holding it (the graph's, or `function NAME`) and
    its name there."""

    graph: str
    node: str


class BodySearch:
    """The graph labelled `label` of a FunctionLibrary, the functions its calls reach, and the
    rest of its library's functions (those nothing calls too)."""

    def __init__(self, library, label):
        self.library = library
        self.label = label
        reached = [f.label for f in library.reached_from(label)]
        rest = [f.label for f in library.functions_of(label) if f.label not in set(reached)]
        self.graphs = [label] + reached + rest
        self._lines = None

    def search_lines(self):
        """(keys, text) as node_search.find takes them: Hit per line, "name<TAB>op<TAB>device"
        per node, the graph's nodes first, then each body's in call-tree order."""
        if self._lines is None:
            keys, lines = [], []
            for graph in self.graphs:
                function = self.library.get(graph) if graph != self.label else None
                rows = function.node_rows() if function is not None else [
                    (node.name, node.op, node.device) for node in self.library.graph_def(graph).node]
                for name, op, device in rows:
                    keys.append(Hit(graph, name))
                    lines.append(f"{name}\t{op}\t{device}")
            self._lines = (keys, "\n".join(lines))
        return self._lines

    def find(self, text, limit=None):
        """The Hits for query `text` (smart case, a regex or else literal text): whole-name
        matches first, then in order."""
        return node_search.find(self.search_lines(), node_search.compile_query(text), limit)

    def by_graph(self, hits):
        """{graph label: [node names]} of `hits`, graphs in the order the hits reach them."""
        grouped = {}
        for hit in hits:
            grouped.setdefault(hit.graph, []).append(hit.node)
        return grouped

    def summary(self, hits):
        """`41 matches in 5 functions` (and `and the graph` when some are in the graph)."""
        graphs = self.by_graph(hits)
        functions = sum(1 for graph in graphs if graph != self.label)
        text = f"{len(hits)} match{'es' if len(hits) != 1 else ''}"
        where = []
        if self.label in graphs:
            where.append("the graph")
        if functions:
            where.append(f"{functions} function{'s' if functions != 1 else ''}")
        return text + (" in " + " and ".join(where) if where else "")
