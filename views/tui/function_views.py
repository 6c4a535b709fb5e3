"""A file's functions as the browser shows them: each body a GraphView made when first opened,
the calls a node makes, the call path from a graph down to a body (the breadcrumb's trail),
the find across bodies, and the saved value behind a variable.

Everything reads parsers/functions.py's model (`Loaded.functions`): graphs and bodies go by
their labels there (`serve`, `function while_body_13`); a view knows its label
(GraphView.graph_label) and the FileFunctions of the file it came from (GraphView.functions).
Bodies are converted into graphs only when opened: the picker and the find read a
FunctionDef's nodes without converting it.

>>> import parsers
>>> from views.tui.workspace import Workspace
>>> workspace = Workspace()
>>> workspace.add_loaded(parsers.load("tests/fixtures/tf2/while_cond"), "while_cond")
>>> serve = workspace.graphs[0]
>>> functions = serve.functions
>>> body = functions.view_of("function while_body_13")
>>> body.title, body.kind, len(body.index)
('while_cond: while_body_13 (function)', 'function', 35)
>>> [(step.view.label, step.key) for step in functions.trail_to(serve, body.graph_label)]
[('while_cond: serve', 'PartitionedCall'), ('while_cond: __inference_signature_wrapper_serve_86', 'PartitionedCall'), ('while_cond: __inference_serve_78', 'while')]
>>> [(site.attr, function.name) for site, function in functions.calls_of(functions.view_of("function __inference_serve_78"), "while")]
[('body', 'while_body_13'), ('cond', 'while_cond_12')]
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from parsers.printable import printable
from parsers.saved_objects import SavedObjects
from parsers.saved_variables import VARIABLE_OPS, SavedVariables, uses_variable


@dataclass(frozen=True, eq=False)
class Step:
    """One call entered on the way to a body: node `key` of `view` calls the next view."""

    view: object
    key: str


class FileFunctions:
    """The functions of one opened file (a parsers.Loaded) and the views of their bodies.

    name: how the workspace calls the file (the views' label prefix); library: its
    parsers.functions.FunctionLibrary; saved_objects: meta graph label -> SavedObjects (a TF2
    SavedModel's SavedObjectGraph); variables: its SavedVariables when it has a checkpoint.
    view_type makes the views (workspace.GraphView, which imports this module).
    """

    def __init__(self, name, loaded, view_type, source=""):
        self.name = name
        self.source = source
        self.view_type = view_type
        self.library = loaded.functions
        self.saved_objects = {
            meta.label: SavedObjects(meta.meta_graph_def.object_graph_def,
                                     meta.meta_graph_def.graph_def)
            for meta in loaded.meta_graphs if meta.meta_graph_def.object_graph_def.nodes}
        self.variables = SavedVariables(loaded) if loaded.checkpoint is not None else None
        self.graph_views = {}    # library graph label -> its GraphView (the workspace's)
        self._views = {}         # function label -> GraphView, made when first opened
        self._sites = {}         # graph label -> {node name: [CallSite]}
        self._parents = {}       # root label -> {function label: the CallSite reaching it}
        self._searches = {}      # root label -> views.body_search.BodySearch
        self._opened = {}        # (graph label, call key) -> (GraphView, body keys)
        self._lock = threading.Lock()   # the warm-up worker and the UI both make searches

    # ---- views ------------------------------------------------------------------------------

    def view_of(self, label):
        """The GraphView of graph or function `label` (a body's made once, when first asked)."""
        if label in self.graph_views:
            return self.graph_views[label]
        view = self._views.get(label)
        if view is None:
            function = self.library.get(label)
            if function is None:
                return None
            view = self.view_type(f"{self.name}: {function.name}", [function.graph_def],
                                  self.source, "function", functions=self,
                                  graph_label=function.label)
            self._views[label] = view
        return view

    def function_of(self, view):
        """The parsers.functions.Function a body view shows (None for a graph's view)."""
        return self.library.get(view.graph_label) if view.kind == "function" else None

    # ---- calls ------------------------------------------------------------------------------

    def _sites_of(self, view):
        """{node name: [CallSite]} of the calls of `view`'s graph, made once."""
        sites = self._sites.get(view.graph_label)
        if sites is None:
            sites = {}
            for site in self.library.call_sites(view.graph_label):
                sites.setdefault(site.node, []).append(site)
            self._sites[view.graph_label] = sites
        return sites

    def calls_of(self, view, key):
        """(CallSite, Function) for each call node `key` of `view` makes, attrs in order."""
        if key not in view.index.nodes:
            return []
        found = []
        for site in self._sites_of(view).get(view.index.nodes[key].name, ()):
            function = self.library.resolve(site.graph, site.callee)
            if function is not None:
                found.append((site, function))
        return found

    def call_nodes(self, view):
        """{key: [(CallSite, Function)]} of every call node of `view`."""
        keys = (view.index.key_of(name) for name in self._sites_of(view))
        return {key: self.calls_of(view, key) for key in keys if key is not None}

    def opened_call(self, view, key):
        """(GraphView, {key of a body node: the body's scope}): `view` with the bodies node
        `key` calls drawn inside it, under its name (views/call_expansion.py, one level:
        `while/while_body_13/...`); made once."""
        cache_key = (view.graph_label, key)
        if cache_key not in self._opened:
            from views.call_expansion import expand_calls
            name = view.index.nodes[key].name
            graph_def = expand_calls(self.library, view.graph_label, nodes={name}, levels=1)
            opened = self.view_type(f"{view.label} ({name} open)", [graph_def], view.source)
            inner = {k: k[len(name) + 1:].partition("/")[0] for k in opened.index.nodes
                     if k not in view.index.nodes}
            self._opened[cache_key] = (opened, inner)
        return self._opened[cache_key]

    def path_to(self, root, label):
        """The CallSites from graph (or function) `root` down to function `label`, each
        function under the first call reaching it ([] when `root`'s calls do not reach it)."""
        parents = self._parents.get(root)
        if parents is None:
            parents = {function.label: site for _, site, function in self.library.call_tree(root)}
            self._parents[root] = parents
        path = []
        while label in parents:
            site = parents[label]
            path.append(site)
            label = site.graph
        return list(reversed(path)) if label == root else []

    def trail_to(self, root_view, label):
        """The Steps from `root_view` into the body labelled `label`: each view on the way and
        its call node; [] when the root's calls do not reach it."""
        steps = []
        for site in self.path_to(root_view.graph_label, label):
            view = self.view_of(site.graph)
            key = view.index.key_of(site.node) if view is not None else None
            if key is None:
                return []
            steps.append(Step(view, key))
        return steps

    def tree_rows(self, graph_label):
        """(depth, CallSite, Function) of the functions `graph_label`'s calls reach (the
        picker's tree under a graph), then (0, None, Function) for its library's functions
        nothing reaches."""
        rows = self.library.call_tree(graph_label)
        reached = {function.label for _, _, function in rows}
        return rows + [(0, None, function) for function in self.library.functions_of(graph_label)
                       if function.label not in reached]

    # ---- find across bodies -----------------------------------------------------------------

    def search(self, root):
        """The views.body_search.BodySearch of graph (or function) `root`, made once."""
        with self._lock:
            search = self._searches.get(root)
            if search is None:
                from views.body_search import BodySearch
                search = self._searches[root] = BodySearch(self.library, root)
        search.search_lines()
        return search

    # ---- saved values -----------------------------------------------------------------------

    def saved_variable(self, view, key):
        """The checkpoint's VariableInfo of the variable node `key` of `view` is or reads
        (through calls), or None. It may read every body once: call it off the UI thread."""
        if self.variables is None or key not in view.index.nodes:
            return None
        node = view.index.nodes[key]
        if not is_variable_node(node.op):
            return None
        return self.variables.info_of(view.graph_label, node.name)


def folded_lines(calls, width=28):
    """A call node's bodies as the Picture draws them folded, a line each (two at most).

    >>> class F: name, node_count = "__inference_signature_wrapper_serve_86", 3
    >>> folded_lines([(None, F)])
    ['▸ __inference_signature… (3)']
    """
    lines = []
    for _, function in calls[:2]:
        count = f" ({function.node_count})"
        name = function.name
        if len(name) + len(count) + 2 > width:
            name = name[:width - len(count) - 3] + "…"
        lines.append(f"▸ {name}{count}")
    if len(calls) > 2:
        lines[-1] = f"▸ and {len(calls) - 1} more bodies"
    return lines


def function_header_lines(function, library):
    """What the browser's header says of a body (the title names it): its size and
    signature, and who calls it.

    >>> import parsers
    >>> library = parsers.load("tests/fixtures/tf2/while_cond").functions
    >>> for line in function_header_lines(library.get("while_cond_12"), library):
    ...     print(line)
    function body: 2 nodes, 7 inputs -> 1 output
    called by while (cond) in __inference_serve_78
    """
    def counted(args, noun):
        return f"{len(args)} {noun}{'' if len(args) == 1 else 's'}"

    lines = [f"function body: {counted(function.function_def.node_def, 'node')},"
             f" {counted(function.inputs, 'input')} -> {counted(function.outputs, 'output')}"]
    if function.error:
        lines[0] += f"; shown as written: {printable(function.error)}"
    callers = library.callers(function.label)
    if callers:
        first = callers[0]
        where = first.graph[len("function "):] if first.graph.startswith("function ") else first.graph
        more = f" and {len(callers) - 1} more" if len(callers) > 1 else ""
        lines.append(f"called by {printable(first.node)} ({printable(first.attr)}) in"
                     f" {printable(where)}{more}")
    else:
        lines.append("called by nothing in the file")
    return lines


def is_variable_node(op):
    """Whether a node of op `op` is a variable or uses one (the Tensor tab looks for a saved
    value behind it).

    >>> is_variable_node("VarHandleOp"), is_variable_node("ReadVariableOp"), is_variable_node("Add")
    (True, True, False)
    """
    return op in VARIABLE_OPS or uses_variable(op)
