"""TensorFlow's Graph as its function inliner and control-flow lowering edit it.

Those passes (engine/optimizer/function_inlining.py, control_flow_lowering.py) are written
against TensorFlow's in-memory Graph, and what they leave depends on its details, so this
keeps them: nodes are numbered in the order they were made, the GraphDef's nodes first in
the order TensorFlow's importer makes them (topologically, the lowest GraphDef index among
the ready nodes first; a NextIteration -> Merge edge does not hold its Merge back); edges
are kept both ways; `new_name(prefix)` is Graph::NewName (`prefix/_N`, one counter for the
graph); `to_graph_def()` writes the live nodes in number order, data inputs by slot and
control inputs sorted by name, as Graph::ToGraphDef does. Names may repeat for a moment (a
lowered node's replacement is added before the node goes), as in TensorFlow's Graph.

>>> from engine.proto import graph_pb2
>>> g = graph_pb2.GraphDef()
>>> _ = g.node.add(name="b", op="NoOp", input=["^a"]); _ = g.node.add(name="a", op="NoOp")
>>> graph = EditableGraph(g)
>>> [node.name for node in graph.nodes()], graph.new_name("a/x"), graph.new_name("a/x")
(['a', 'b'], 'a/x/_0', 'a/x/_1')
"""

import heapq

from engine.framework import op_families, op_registry
from engine.proto import graph_pb2, node_def_pb2, types_pb2

CONTROL = -1  # an edge's slot when it is a control edge


class Edge:
    __slots__ = ("src", "src_output", "dst", "dst_input")

    def __init__(self, src, src_output, dst, dst_input):
        self.src, self.src_output, self.dst, self.dst_input = src, src_output, dst, dst_input

    @property
    def is_control(self):
        return self.dst_input == CONTROL


class Node:
    """One node: its NodeDef (whose `input` field is rewritten only by to_graph_def: the
    edges are the truth), its number, its edges in and out."""

    __slots__ = ("id", "node_def", "in_edges", "out_edges", "_types")

    def __init__(self, node_id, node_def):
        self.id, self.node_def = node_id, node_def
        self.in_edges, self.out_edges = [], []
        self._types = None

    @property
    def name(self):
        return self.node_def.name

    @property
    def op(self):
        return self.node_def.op

    @property
    def attr(self):
        return self.node_def.attr

    @property
    def device(self):
        return self.node_def.device

    def data_inputs(self):
        """[(src node, src output)] by slot (None where a slot has no edge yet)."""
        inputs = [None] * self.num_inputs()
        for edge in self.in_edges:
            if not edge.is_control and edge.dst_input < len(inputs):
                inputs[edge.dst_input] = (edge.src, edge.src_output)
        return inputs

    def control_inputs(self):
        return [edge.src for edge in self.in_edges if edge.is_control]

    def has_control_inputs(self):
        return any(edge.is_control for edge in self.in_edges)

    def has_control_outputs(self):
        return any(edge.is_control for edge in self.out_edges)

    def num_inputs(self):
        return len(self._signature()[0])

    def input_types(self):
        return self._signature()[0]

    def output_types(self):
        return self._signature()[1]

    def output_type(self, index):
        """The DataType of output `index` (DT_INVALID for an op this build does not know)."""
        outputs = self._signature()[1]
        return outputs[index] if index < len(outputs) else types_pb2.DT_INVALID

    def _signature(self):
        if self._types is None:
            raise AssertionError(f"types of {self.name} were not set")
        return self._types

    def __repr__(self):
        return f"<Node {self.id} {self.name} ({self.op})>"


class EditableGraph:
    """Nodes by number, a name index, edges, the NewName counter; `library` maps function
    names to FunctionDefs (a node whose op is one of them is a call of it)."""

    def __init__(self, graph_def, library=None):
        self.library = library if library is not None else {
            f.signature.name: f for f in graph_def.library.function}
        self._nodes = []          # by number; None once removed
        self._by_name = {}
        self._name_counter = 0
        self._ops = {}
        definitions = [node_def_pb2.NodeDef.FromString(n.SerializeToString())
                       for n in graph_def.node]
        made = {}
        for index in import_order(definitions):
            node_def = definitions[index]
            inputs = list(node_def.input)
            types = self.signature_types(node_def)
            del node_def.input[:]
            made[node_def.name] = (self.add_node(node_def, types), inputs)
        for node, inputs in made.values():
            for slot, text in enumerate(i for i in inputs if not i.startswith("^")):
                src, output = _parse(text)
                if src in made:
                    self.add_edge(made[src][0], output, node, slot)
            for text in inputs:
                if text.startswith("^") and text[1:] in made:
                    self.add_control_edge(made[text[1:]][0], node)

    # Nodes ----------------------------------------------------------------------------------

    def add_node(self, node_def, types=None):
        """Adds `node_def` (the graph's own from now on) as the next-numbered node; `types`:
        its (input, output) DataTypes when known, else read from its OpDef."""
        node = Node(len(self._nodes), node_def)
        node._types = types if types is not None else self.signature_types(node_def)
        self._nodes.append(node)
        self._by_name[node_def.name] = node
        return node

    def remove_node(self, node):
        for edge in list(node.in_edges):
            self.remove_edge(edge)
        for edge in list(node.out_edges):
            self.remove_edge(edge)
        self._nodes[node.id] = None
        if self._by_name.get(node.name) is node:  # (else its replacement has the name)
            del self._by_name[node.name]

    def node(self, number):
        """The node numbered `number`, or None (removed, or past the end)."""
        return self._nodes[number] if number < len(self._nodes) else None

    def find(self, name):
        return self._by_name.get(name)

    def num_node_ids(self):
        return len(self._nodes)

    def nodes(self):
        return [node for node in self._nodes if node is not None]

    def new_name(self, prefix):
        """Graph::NewName: `prefix/_N`, N counting for the whole graph."""
        name = f"{prefix}/_{self._name_counter}"
        self._name_counter += 1
        return name

    # Edges ----------------------------------------------------------------------------------

    def add_edge(self, src, src_output, dst, dst_input):
        edge = Edge(src, src_output, dst, dst_input)
        src.out_edges.append(edge)
        dst.in_edges.append(edge)
        return edge

    def add_control_edge(self, src, dst, allow_duplicates=False):
        if not allow_duplicates and any(e.src is src and e.is_control for e in dst.in_edges):
            return None
        return self.add_edge(src, CONTROL, dst, CONTROL)

    def remove_edge(self, edge):
        edge.src.out_edges.remove(edge)
        edge.dst.in_edges.remove(edge)

    def update_edge(self, new_src, new_src_output, dst, dst_input):
        """Graph::UpdateEdge: data input `dst_input` of `dst` now reads new_src:output."""
        for edge in dst.in_edges:
            if edge.dst_input == dst_input:
                self.remove_edge(edge)
                break
        self.add_edge(new_src, new_src_output, dst, dst_input)

    # Types ----------------------------------------------------------------------------------

    def op_def(self, op_type):
        """The OpDef of an op, or a library function's signature (None when unknown)."""
        if op_type not in self._ops:
            function = self.library.get(op_type)
            self._ops[op_type] = (function.signature if function is not None
                                  else op_registry.lookup(op_type))
        return self._ops[op_type]

    def signature_types(self, node_def):
        """(input DataTypes, output DataTypes) of a node from its OpDef and attrs."""
        if node_def.op in ("_Arg", "_Retval"):
            dtype = node_def.attr["T"].type
            return ((), (dtype,)) if node_def.op == "_Arg" else ((dtype,), ())
        op_def = self.op_def(node_def.op)
        if op_def is None:  # an op this build does not know: its edges say what they can
            return (_unknown_inputs(node_def), ())
        attrs = {}
        for attr in op_def.attr:
            value = node_def.attr[attr.name] if attr.name in node_def.attr else (
                attr.default_value if attr.HasField("default_value") else None)
            if value is not None:
                attrs[attr.name] = _python_value(value)
        try:
            inputs = op_registry.input_dtypes(op_def, attrs)
            outputs = op_registry.output_dtypes(op_def, attrs)
        except (KeyError, ValueError, TypeError):
            return (_unknown_inputs(node_def), ())
        return (tuple(t.as_datatype_enum for t in inputs),
                tuple(t.as_datatype_enum for t in outputs))

    # Out ------------------------------------------------------------------------------------

    def to_graph_def(self, versions=None, library=None):
        """The live nodes in number order, inputs rewritten from the edges."""
        graph_def = graph_pb2.GraphDef()
        for node in self._nodes:
            if node is None:
                continue
            node_def = graph_def.node.add()
            node_def.CopyFrom(node.node_def)
            del node_def.input[:]
            data = sorted((e for e in node.in_edges if not e.is_control),
                          key=lambda e: e.dst_input)
            node_def.input.extend(_text(e.src.name, e.src_output) for e in data)
            controls = sorted({e.src.name for e in node.in_edges if e.is_control})
            node_def.input.extend("^" + name for name in controls)
        if versions is not None:
            graph_def.versions.CopyFrom(versions)
        if library is not None:
            graph_def.library.CopyFrom(library)
        return graph_def


def import_order(node_defs):
    """Positions of `node_defs` in the order TensorFlow's GraphConstructor makes their nodes:
    topologically, the lowest position among the ready ones first; a Merge does not wait for
    its NextIteration inputs. Nodes on a cycle come last, in position order."""
    index = {node.name: i for i, node in enumerate(node_defs)}
    pending = [0] * len(node_defs)
    consumers = [[] for _ in node_defs]
    for i, node in enumerate(node_defs):
        is_merge = node.op in op_families.MERGE
        for text in node.input:
            src = _parse(text.lstrip("^"))[0]
            j = index.get(src)
            if j is None:
                continue
            if is_merge and node_defs[j].op in op_families.NEXT_ITERATION:
                continue
            pending[i] += 1
            consumers[j].append(i)
    ready = [i for i, count in enumerate(pending) if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for consumer in consumers[i]:
            pending[consumer] -= 1
            if pending[consumer] == 0:
                heapq.heappush(ready, consumer)
    if len(order) < len(node_defs):
        placed = set(order)
        order.extend(i for i in range(len(node_defs)) if i not in placed)
    return order


def _python_value(value):
    """What op_registry's dtype helpers read of an AttrValue: a type, an int, a type list."""
    field = value.WhichOneof("value")
    if field == "list":
        return list(value.list.type)
    return getattr(value, field) if field else None


def _unknown_inputs(node_def):
    return tuple(types_pb2.DT_INVALID for text in node_def.input if not text.startswith("^"))


def _parse(text):
    node, sep, index = text.rpartition(":")
    if sep and index.isdigit():
        return node, int(index)
    return text, 0


def _text(node, index):
    return node if index == 0 else f"{node}:{index}"
