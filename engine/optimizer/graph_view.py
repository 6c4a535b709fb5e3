"""A mutable view of a GraphDef for the passes: nodes by name, consumers, edits, topology.

Passes read and rewrite NodeDefs through this view (the GraphDef given to a pass is the
pass's own copy), then `to_graph_def()` writes the nodes back in their original order, new
nodes after the node they replace. Inputs keep TensorFlow's spelling: "op" for output 0,
"op:1", "^op" for a control edge.

Every edit of a node's inputs goes through the view (add, replace, remove, set_inputs): it
keeps each node's inputs as a tuple of strings beside the NodeDef, so reading the topology
costs no protobuf access. Inside `sharing()` (the optimizer's rounds) a view hands what it
knows of the graph it returns (names, inputs, topological order) to the view of the next
pass's copy of it (`hand_over`): each pass of a round no longer reads the whole graph again.
"""

import contextlib
import functools
import threading

from google.protobuf.unknown_fields import UnknownFieldSet

from engine.framework import op_families
from engine.framework.topological import kahn_order

BACK_EDGE_TARGETS = op_families.MERGE


@functools.lru_cache(maxsize=65536)
def parse_input(text):
    """("op", index) for "op" / "op:2"; ("op", -1) for a control input "^op"."""
    if text.startswith("^"):
        return text[1:], -1
    node, sep, index = text.rpartition(":")
    if sep and index.isdigit():
        return node, int(index)
    return text, 0


def input_text(node, index):
    """TensorFlow's input string for output `index` of `node` (-1: a control input)."""
    if index < 0:
        return "^" + node
    return node if index == 0 else f"{node}:{index}"


class _Index:
    """What a view knows of a graph: names in graph order, each node's inputs, and its
    topological order when it was computed for exactly this graph (else None)."""

    __slots__ = ("names", "inputs", "topological")

    def __init__(self, names, inputs, topological):
        self.names, self.inputs, self.topological = names, inputs, topological


_shared = threading.local()  # per thread: sessions may optimize in several threads at once


@contextlib.contextmanager
def sharing():
    """Within it, the graph a view returns (to_graph_def) keeps that view's index, for
    `hand_over` to give to the view of a copy of it. Nested uses each keep their own."""
    saved = getattr(_shared, "state", None)
    _shared.state = {"result": None, "offered": None}
    try:
        yield
    finally:
        _shared.state = saved


def hand_over(source, copy):
    """`copy` (a CopyFrom of `source`, not yet edited) is read through the index of `source`
    where `source` is the graph the last view returned inside sharing()."""
    state = getattr(_shared, "state", None)
    if state is None:
        return
    result = state["result"]
    state["offered"] = (copy, result[1]) if result is not None and result[0] is source else None


class GraphView:
    """Nodes by name in graph order, with each node's consumers, for editing in place."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        index = self._offered_index(graph_def)
        if index is not None:
            self.order = list(index.names)
            self.nodes = dict(zip(self.order, graph_def.node))
            self._inputs = dict(index.inputs)
            self._topological = index.topological
        else:
            nodes, order, inputs = {}, [], {}
            for node in graph_def.node:
                name = node.name
                nodes[name] = node
                order.append(name)
                inputs[name] = tuple(node.input)
            self.nodes, self.order, self._inputs = nodes, order, inputs
            self._topological = None  # names, producers first, while no edit was made
        self._unique = len(self.nodes) == len(self.order)  # no two nodes of one name
        self._reshaped = False  # a node added or replaced: the graph is written anew
        self._consumers = None
        self._placed = set(self.order)  # names with a place in the output order
        self._after = {}  # name -> names added after it
        self.dirty = False  # whether any edit was made
        self.edits = 0  # how many (a pass that loops stops when a loop made none)

    @staticmethod
    def _offered_index(graph_def):
        state = getattr(_shared, "state", None)
        if state is None or state["offered"] is None or state["offered"][0] is not graph_def:
            return None
        index = state["offered"][1]
        state["offered"] = None  # once: a second view of this graph may follow edits
        if len(index.names) != len(graph_def.node):
            return None
        return index

    # Reading -----------------------------------------------------------------------------

    def node(self, name):
        return self.nodes.get(name)

    def inputs(self, name):
        """The input strings of node `name`, as node.input holds them (a tuple)."""
        return self._inputs[name]

    def inputs_of(self, node):
        """node.input, read from the view's tuple where `node` is the view's node of its
        name (no protobuf access), else from the NodeDef."""
        name = node.name
        return self._inputs[name] if self.nodes.get(name) is node else node.input

    def data_inputs(self, node):
        """[(producer, index)] of the node's data inputs, in order."""
        return [parse_input(i) for i in self.inputs_of(node) if not i.startswith("^")]

    def control_inputs(self, node):
        return [i[1:] for i in self.inputs_of(node) if i.startswith("^")]

    @property
    def consumers(self):
        """producer name -> set of consumer names (data or control), built on first use."""
        if self._consumers is None:
            consumers = {name: set() for name in self.nodes}
            inputs = self._inputs
            for name in self.nodes:
                for text in inputs[name]:
                    found = consumers.get(parse_input(text)[0])
                    if found is not None:
                        found.add(name)
            self._consumers = consumers
        return self._consumers

    def names(self):
        """Names of the nodes, in graph order (added ones after the node they came from)."""
        return [name for name in self._output_order() if name in self.nodes]

    def topological_order(self):
        """Names, producers before consumers; a loop's NextIteration -> Merge edge is not
        followed, and whatever a cycle leaves unordered comes last in graph order."""
        if self._topological is None:
            self._topological = self._sort()
        return list(self._topological)

    def _sort(self):
        names = self.names()
        nodes = self.nodes
        inputs_of = self._inputs
        next_iteration = op_families.NEXT_ITERATION
        position = {name: i for i, name in enumerate(names)}.get
        pending = [0] * len(names)
        users = [[] for _ in names]
        for i, name in enumerate(names):
            inputs = inputs_of[name]
            if not inputs:
                continue
            is_merge = nodes[name].op in BACK_EDGE_TARGETS
            for text in inputs:
                j = position(parse_input(text)[0])
                if j is not None and not (is_merge and nodes[names[j]].op in next_iteration):
                    users[j].append(i)
                    pending[i] += 1
        result = kahn_order(users, pending)
        if len(result) < len(names):
            seen = set(result)
            result.extend(i for i in range(len(names)) if i not in seen)
        return [names[i] for i in result]

    def _is_back_edge(self, producer, consumer_node):
        return (consumer_node.op in BACK_EDGE_TARGETS
                and self.nodes[producer].op in op_families.NEXT_ITERATION)

    # Editing -----------------------------------------------------------------------------

    def add(self, node_def, after=None):
        """Adds `node_def` (a NodeDef this view now owns), placed after node `after`."""
        self._edited()
        self._reshaped = True
        if node_def.name in self.nodes:
            raise ValueError(f"duplicate node name {node_def.name!r}")
        self.nodes[node_def.name] = node_def
        self._inputs[node_def.name] = tuple(node_def.input)
        if node_def.name not in self._placed:
            self._placed.add(node_def.name)
            if after is not None and after in self._placed:
                self._after.setdefault(after, []).append(node_def.name)
            else:
                self.order.append(node_def.name)
        if self._consumers is not None:
            self._consumers.setdefault(node_def.name, set())
            for text in node_def.input:
                producer = parse_input(text)[0]
                if producer in self._consumers:
                    self._consumers[producer].add(node_def.name)

    def replace(self, node_def):
        """Puts `node_def` in the place of the node of the same name."""
        self._edited()
        self._reshaped = True
        old = self.nodes[node_def.name]
        self._forget_inputs(old)
        self.nodes[node_def.name] = node_def
        self._inputs[node_def.name] = tuple(node_def.input)
        self._note_inputs(node_def)

    def remove(self, name):
        self._edited()
        node = self.nodes.pop(name)
        del self._inputs[name]
        self._forget_inputs(node)
        if self._consumers is not None:
            self._consumers.pop(name, None)

    def set_inputs(self, node, inputs):
        """Replaces the node's inputs (data first, then controls, controls deduplicated)."""
        self._edited()
        self._forget_inputs(node)
        data = [i for i in inputs if not i.startswith("^")]
        controls = []
        data_producers = {parse_input(i)[0] for i in data}
        for i in inputs:
            if i.startswith("^") and i not in controls and i[1:] not in data_producers:
                controls.append(i)
        new = data + controls
        del node.input[:]
        node.input.extend(new)
        if self.nodes.get(node.name) is node:
            self._inputs[node.name] = tuple(new)
        self._note_inputs(node)

    def forward(self, name, replacements, extra_controls=()):
        """Every consumer of `name` reads `replacements[index]` (input text) instead of
        output `index`; a control consumer of `name` gets `extra_controls` (names)."""
        for consumer in sorted(self.consumers.get(name, ())):
            node = self.nodes.get(consumer)
            if node is None:
                continue
            new = []
            for text in self.inputs_of(node):
                producer, index = parse_input(text)
                if producer != name:
                    new.append(text)
                elif index < 0:
                    new.extend("^" + c for c in extra_controls)
                else:
                    new.append(replacements[index])
            self.set_inputs(node, new)

    def _edited(self):
        self.dirty = True
        self.edits += 1
        self._topological = None

    def _forget_inputs(self, node):
        if self._consumers is None:
            return
        for text in self.inputs_of(node):
            producer = parse_input(text)[0]
            if producer in self._consumers:
                self._consumers[producer].discard(node.name)

    def _note_inputs(self, node):
        if self._consumers is None:
            return
        for text in self.inputs_of(node):
            producer = parse_input(text)[0]
            if producer in self._consumers:
                self._consumers[producer].add(node.name)

    def to_graph_def(self):
        """The edited graph: nodes in order (removed ones gone), library and versions kept;
        the GraphDef given when nothing was edited. A pass returns it as it is (inside
        sharing(), what the view knows of it goes with it)."""
        if not self.dirty:
            self._keep_index(self.graph_def, self.order, self._inputs, self._topological)
            return self.graph_def
        names = self.names()
        if self._unique and not self._reshaped and not UnknownFieldSet(self.graph_def):
            graph_def = self._removed_in_place()
        else:
            graph_def = type(self.graph_def)()
            graph_def.versions.CopyFrom(self.graph_def.versions)
            if self.graph_def.HasField("library"):
                graph_def.library.CopyFrom(self.graph_def.library)
            if self.graph_def.HasField("debug_info"):
                graph_def.debug_info.CopyFrom(self.graph_def.debug_info)
            graph_def.node.extend(self.nodes[name] for name in names)
        inputs = self._inputs
        self._keep_index(graph_def, names, {name: inputs[name] for name in names}, None)
        return graph_def

    def _removed_in_place(self):
        """The given GraphDef (this pass's own copy) with the removed nodes deleted: when
        nodes were only removed and rewired, what a new GraphDef would hold, without copying
        every node again."""
        graph_def = self.graph_def
        nodes = self.nodes
        removed = [i for i, name in enumerate(self.order) if name not in nodes]
        runs = []  # [start, end) of each run of removed nodes
        for i in removed:
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        for start, end in reversed(runs):  # the last first: earlier indices stay right
            del graph_def.node[start:end]
        graph_def.ClearField("version")  # deprecated: a new GraphDef would not carry it
        return graph_def

    @staticmethod
    def _keep_index(graph_def, names, inputs, topological):
        state = getattr(_shared, "state", None)
        if state is not None:
            state["result"] = (graph_def, _Index(names, inputs, topological))

    def _output_order(self):
        if not self._after:
            return self.order
        result = []

        def emit(name):
            result.append(name)
            for added in self._after.get(name, ()):
                emit(added)
        for name in self.order:
            emit(name)
        return result
