"""Functions are graphs: every FunctionDef a Loaded's graphs carry, each a graph of its own, and
the calls between graphs.

A TF2 model's real graph lives in its function library: the top-level graph holds placeholders,
variable handles and a few calls. Here each FunctionDef becomes a `Function`, labelled
`function NAME`, whose `graph_def` is the body as TensorFlow instantiates it (an `_Arg` node
per argument, the body's nodes with flat inputs, `<output>_RetVal` nodes:
engine/framework/function_graph.py), converted on first use. A call is an edge between graphs:
a node whose op is a library function, or whose attr names one (`f`, `body`, `cond`,
`then_branch`, `else_branch`, `branches`, any func-valued attr). The `FunctionLibrary` of a
Loaded answers, for any graph or function, what its calls reach, and for any function who
calls it.

>>> from engine.proto import graph_pb2
>>> from parsers.loaded import LabeledGraph
>>> graph = graph_pb2.GraphDef()
>>> call = graph.node.add(name="call", op="PartitionedCall")
>>> call.attr["f"].func.name = "outer"
>>> outer = graph.library.function.add()
>>> outer.signature.name = "outer"
>>> inner_call = outer.node_def.add(name="loop", op="inner")
>>> graph.library.function.add().signature.name = "inner"
>>> graph.library.function.add().signature.name = "unused"
>>> library = FunctionLibrary([LabeledGraph("g", graph, "g.pb")])
>>> [f.label for f in library.reached_from("g")], [f.name for f in library.uncalled()]
(['function outer', 'function inner'], ['unused'])
>>> library.callers("function inner")
[CallSite(graph='function outer', node='loop', op='inner', attr='op', callee='inner')]
>>> [n.op for n in library.graph_def("function outer").node]
['inner']
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.framework import dtypes
from engine.framework.function_graph import (ARG_OP, RET_OP, FunctionGraphError,
                                             function_body_graph)
from engine.proto import graph_pb2

LABEL_PREFIX = "function "


def function_label(name):
    """The label a function goes by among a Loaded's graphs.

    >>> function_label("while_body_13")
    'function while_body_13'
    """
    return LABEL_PREFIX + name


@dataclass(frozen=True)
class CallSite:
    """One call: node `node` (op `op`) of the graph labelled `graph` calls function `callee`
    through attr `attr` ("f", "body", "branches", ...; "op" when its op is the function)."""

    graph: str
    node: str
    op: str
    attr: str
    callee: str


@dataclass(frozen=True)
class Arg:
    """One argument or output of a function's signature: its name and type ("float32";
    "T" for a type attr; "N*float32" for a list of N)."""

    name: str
    dtype: str


def arg_type(arg):
    """An ArgDef's type as text.

    >>> from engine.proto import op_def_pb2
    >>> arg_type(op_def_pb2.OpDef.ArgDef(type=1)), arg_type(op_def_pb2.OpDef.ArgDef(type_attr="T"))
    ('float32', 'T')
    >>> arg_type(op_def_pb2.OpDef.ArgDef(type=1, number_attr="N", is_ref=True))
    'N*float32_ref'
    """
    if arg.type_list_attr:
        return arg.type_list_attr
    if arg.type:
        try:
            text = dtypes.as_dtype(arg.type).name
        except (TypeError, ValueError, KeyError):
            text = f"type {arg.type}"
    else:
        text = arg.type_attr
    if arg.is_ref and not text.endswith("_ref"):
        text += "_ref"
    return f"{arg.number_attr}*{text}" if arg.number_attr else text


def call_attrs(node_def, library_names):
    """(attr, function name) for each call a node makes: its op when a library function has
    that name ("op"), then its func-valued attrs by attr name (a list as `attr[i]`)."""
    calls = [("op", node_def.op)] if node_def.op in library_names else []
    attrs = node_def.attr
    for key in sorted(attrs):
        value = attrs[key]
        kind = value.WhichOneof("value")
        if kind == "func":
            if value.func.name:
                calls.append((key, value.func.name))
        elif kind == "list" and value.list.func:
            calls.extend((f"{key}[{i}]", func.name) for i, func in enumerate(value.list.func)
                         if func.name)
    return calls


class Function:
    """One FunctionDef as a graph. name: its signature's name; label: `function NAME` (with
    ` (in GRAPH)` when another graph's library holds a different function of that name);
    owner: the label of the graph whose library holds it."""

    def __init__(self, function_def, label, owner, library):
        self.function_def = function_def
        self.name = function_def.signature.name
        self.label = label
        self.owner = owner
        self._library = library       # the FunctionLibrary: signatures of what it calls
        self._graph_def = None
        self._call_sites = None
        self.error = ""               # why the body could not be instantiated ("" if it could)

    def __repr__(self):
        return f"Function({self.label!r}, {self.node_count} nodes)"

    @property
    def graph_def(self):
        """The body as a GraphDef (_Arg, body, _Retval), converted once, on first use. A body
        TensorFlow could not instantiate either (an input naming nothing, a return missing)
        comes as written (an `_Arg` per argument, a `_Retval` per output, inputs untouched) and
        `error` says what is wrong."""
        if self._graph_def is None:
            try:
                self._graph_def = function_body_graph(
                    self.function_def, self._library.definitions(self.owner),
                    op_defs=self._library.op_defs)
            except FunctionGraphError as error:
                self.error = str(error)
                self._graph_def = _as_written(self.function_def)
        return self._graph_def

    def node_rows(self):
        """(name, op, device) of each node of graph_def, in its order: read off the FunctionDef
        (no conversion) unless an argument or output is a list, whose `_Arg`/`_Retval` names
        depend on counts its attrs give."""
        signature = self.function_def.signature
        args = list(signature.input_arg) + list(signature.output_arg)
        if self._graph_def is not None or any(a.number_attr or a.type_list_attr for a in args):
            return [(node.name, node.op, node.device) for node in self.graph_def.node]
        return ([(arg.name, "_Arg", "") for arg in signature.input_arg]
                + [(node.name, node.op, node.device) for node in self.function_def.node_def]
                + [(f"{arg.name}_RetVal", "_Retval", "") for arg in signature.output_arg])

    @property
    def node_count(self):
        """The body's nodes, as TensorFlow counts them (no _Arg or _Retval)."""
        return len(self.function_def.node_def)

    @property
    def inputs(self):
        return [Arg(arg.name, arg_type(arg)) for arg in self.function_def.signature.input_arg]

    @property
    def outputs(self):
        return [Arg(arg.name, arg_type(arg)) for arg in self.function_def.signature.output_arg]

    def call_sites(self):
        """Every call this body makes, in node order."""
        if self._call_sites is None:
            self._call_sites = self._library.call_sites_in(
                self.label, self.function_def.node_def, self.owner)
        return self._call_sites

    @property
    def calls(self):
        """The functions this body calls directly, by name, first call first."""
        return list(dict.fromkeys(site.callee for site in self.call_sites()))


def _as_written(function_def):
    """A body that does not instantiate, as a graph all the same: an `_Arg` per argument, the
    nodes and a `_Retval` per output with their inputs as the FunctionDef writes them (edges
    a view cannot follow)."""
    graph = graph_pb2.GraphDef()
    for index, arg in enumerate(function_def.signature.input_arg):
        node = graph.node.add(name=arg.name, op=ARG_OP)
        node.attr["index"].i = index
    graph.node.extend(function_def.node_def)
    for index, arg in enumerate(function_def.signature.output_arg):
        node = graph.node.add(name=f"{arg.name}_RetVal", op=RET_OP)
        node.attr["index"].i = index
        if arg.name in function_def.ret:
            node.input.append(function_def.ret[arg.name])
    return graph


class FunctionLibrary:
    """Every function of a Loaded's graphs (its LabeledGraphs, in order), and the calls.

    A graph calls the functions of its own library. The same name in several graphs'
    libraries (a dump directory's passes, a run's partitions) is one Function when the
    FunctionDefs are equal; a different body under a name already taken is labelled
    `function NAME (in GRAPH)`. op_defs (op name -> OpDef: the meta graphs' stripped op lists)
    resolve the outputs of ops the engine does not know.
    """

    def __init__(self, labeled_graphs, op_defs=None):
        self.op_defs = dict(op_defs or {})
        self.functions = {}      # label -> Function, in library order
        self._graphs = {}        # graph label -> GraphDef (the top-level graphs)
        self._names = {}         # graph label -> {function name -> Function}
        self._definitions = {}   # graph label -> {function name -> FunctionDef}
        self._callers = None
        by_name = {}
        for number, labeled in enumerate(labeled_graphs):
            # A label two graphs share names the first; the other's library still counts.
            graph = labeled.label if labeled.label not in self._graphs else \
                f"{labeled.label} #{number}"
            self._graphs[graph] = labeled.graph_def
            names = self._names[graph] = {}
            for function_def in labeled.graph_def.library.function:
                name = function_def.signature.name
                if name in names:
                    continue  # a name twice in one library (TensorFlow refuses it): the first
                function = next((f for f in by_name.get(name, ())
                                 if f.function_def == function_def), None)
                if function is None:
                    taken = name in by_name
                    label = function_label(name) + (f" (in {graph})" if taken else "")
                    function = Function(function_def, label, graph, self)
                    self.functions[label] = function
                    by_name.setdefault(name, []).append(function)
                names[name] = function

    def __len__(self):
        return len(self.functions)

    def __iter__(self):
        return iter(self.functions.values())

    def __contains__(self, label):
        return label in self.functions

    @property
    def graph_labels(self):
        """The labels of the top-level graphs, in order."""
        return list(self._graphs)

    def get(self, label):
        """The Function labelled `label` (or named so: `NAME` for `function NAME`), or None."""
        function = self.functions.get(label)
        if function is None and not label.startswith(LABEL_PREFIX):
            function = self.functions.get(function_label(label))
        return function

    def resolve(self, graph, name):
        """The Function that a call to `name` from graph (or function) label `graph` reaches."""
        owner = self._owner(graph)
        return self._names.get(owner, {}).get(name)

    def functions_of(self, graph):
        """The Functions of the library graph (or function) `graph` calls into, in its order."""
        return list(self._names.get(self._owner(graph), {}).values())

    def definitions(self, graph):
        """Function name -> FunctionDef of the library graph (or function) `graph` calls into."""
        owner = self._owner(graph)
        if owner not in self._definitions:
            self._definitions[owner] = {name: f.function_def
                                        for name, f in self._names.get(owner, {}).items()}
        return self._definitions[owner]

    def graph_def(self, label):
        """The GraphDef of a top-level graph or of a function, by label; None if neither."""
        if label in self._graphs:
            return self._graphs[label]
        function = self.get(label)
        return function.graph_def if function is not None else None

    def call_sites(self, label):
        """The calls the graph (or function) labelled `label` makes, in node order."""
        if label in self._graphs:
            return self.call_sites_in(label, self._graphs[label].node, label)
        function = self.get(label)
        return function.call_sites() if function is not None else []

    def call_sites_in(self, label, nodes, owner):
        names = self._names.get(owner, {})
        return [CallSite(label, node.name, node.op, attr, callee)
                for node in nodes for attr, callee in call_attrs(node, names)
                if callee in names]

    def reached_from(self, label):
        """Every function the calls of graph (or function) `label` reach, nested calls
        included, depth first in call order, each once (not `label` itself)."""
        return [function for _, _, function in self.call_tree(label)]

    def call_tree(self, label):
        """(depth, CallSite, Function) for each function `label`'s calls reach, depth first:
        a function shows under the first call that reaches it (depth 1: called by `label`)."""
        seen = {label}
        rows = []
        stack = [(1, site) for site in reversed(self.call_sites(label))]
        while stack:
            depth, site = stack.pop()
            function = self.resolve(site.graph, site.callee)
            if function is None or function.label in seen:
                continue
            seen.add(function.label)
            rows.append((depth, site, function))
            stack.extend((depth + 1, inner) for inner in reversed(function.call_sites()))
        return rows

    def callers(self, label):
        """The CallSites that call the function labelled `label`, in the graphs' order then
        the functions' order."""
        if self._callers is None:
            callers = {}
            for source in list(self._graphs) + list(self.functions):
                for site in self.call_sites(source):
                    function = self.resolve(source, site.callee)
                    callers.setdefault(function.label, []).append(site)
            self._callers = callers
        function = self.get(label)
        return list(self._callers.get(function.label, ())) if function is not None else []

    def uncalled(self):
        """The functions no top-level graph's calls reach (a library's unused functions)."""
        reached = {f.label for graph in self._graphs for f in self.reached_from(graph)}
        return [f for f in self.functions.values() if f.label not in reached]

    def _owner(self, label):
        if label in self._graphs:
            return label
        function = self.get(label)
        return function.owner if function is not None else label
