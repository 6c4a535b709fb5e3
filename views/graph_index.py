"""A lazy index over a GraphDef (or a run's partition graphs) for interactive views.

views/dot/index.py builds every edge, with its kind and label, up front; at 100,000 nodes that
takes seconds, too long for a terminal UI that must open at once. This index keeps only what
opening needs (nodes by key, sorted names per partition) and works out the rest when asked:
a scope's children (by bisecting the sorted names), a node's inputs and consumers (edge kinds
and labels from views/dot/edges.py, the same rules the Graphviz export draws with), and the
_Send/_Recv twin of a partition node.

>>> from engine.proto import graph_pb2
>>> graph = graph_pb2.GraphDef(node=[{"name": "w", "op": "VariableV2"},
...     {"name": "w/read", "op": "Identity", "input": ["w"]},
...     {"name": "layer/MatMul", "op": "MatMul", "input": ["x", "w/read"]},
...     {"name": "x", "op": "Placeholder"}, {"name": "init", "op": "NoOp", "input": ["^w"]}])
>>> index = LazyIndex.of_graph(graph)
>>> [(c.name, c.count, c.is_scope) for c in index.children(index.root)]
[('layer', 1, True), ('w', 2, True), ('init', 1, False), ('x', 1, False)]
>>> [(e.dst, e.kind) for e in index.consumers("w")]
[('w/read', 'ref'), ('init', 'control')]
>>> index.scope_path("w/read"), index.scope_path("w")
(['w'], ['w'])
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from parsers.containers import graph_device
from views.dot import edges as edge_rules
from views.dot.index import RECV_OPS, SEND_OPS, Edge, Node

_AFTER_SLASH = chr(ord("/") + 1)  # "a0" sorts after every "a/..." name


@dataclass(frozen=True)
class ScopeEntry:
    """One row of the scope tree: a scope (count: nodes under it) or a node (key)."""

    name: str          # the last part of the path ("" for a partition's root)
    path: str          # the full scope path or node name
    partition: int
    count: int
    is_scope: bool
    key: str = ""      # for a node: its key; for a scope named like a node: that node's key
    device: str = ""


class _Part:
    """One partition's nodes: names sorted for prefix ranges, keys by name."""

    def __init__(self, device, keys_by_name):
        self.device = device
        self.keys = keys_by_name
        self.names = sorted(keys_by_name)


class LazyIndex:
    """Nodes by key in graph order; everything else worked out on demand and remembered."""

    def __init__(self, parts):
        """parts: [(GraphDef, device)]; more than one makes a partition view."""
        self.nodes: dict[str, Node] = {}
        self.parts: list[_Part] = []
        names = [node.name for graph_def, _ in parts for node in graph_def.node]
        repeated = set(names) if len(parts) == 1 else _repeated(names)
        for number, (graph_def, device) in enumerate(parts):
            keys = {}
            for node_def in graph_def.node:
                name = node_def.name
                key = f"{name}@{number}" if name in repeated and len(parts) > 1 else name
                keys[name] = key
                self.nodes[key] = Node(key, node_def, device)
            self.parts.append(_Part(device, keys))
        self._part_of = ({key: n for n, part in enumerate(self.parts) for key in part.keys.values()}
                         if len(parts) > 1 else None)
        self._consumers = None
        self._twins = None
        self._search_text = None

    @classmethod
    def of_graph(cls, graph_def):
        return cls([(graph_def, "")])

    @classmethod
    def of_partitions(cls, graph_defs):
        return cls([(g, graph_device(g) or f"partition {n}") for n, g in enumerate(graph_defs)])

    @property
    def is_partitioned(self):
        return len(self.parts) > 1

    @property
    def devices(self):
        return [part.device for part in self.parts]

    def __len__(self):
        return len(self.nodes)

    def part_of(self, key):
        return self._part_of[key] if self._part_of is not None else 0

    # ---- the scope tree ---------------------------------------------------------------------

    @property
    def root(self):
        return ScopeEntry("", "", -1, len(self.nodes), True)

    def children(self, entry):
        """The entries directly under a scope entry: sub-scopes, then nodes, each by name."""
        if entry.partition < 0 and self.is_partitioned:
            return [ScopeEntry(part.device, "", number, len(part.names), True, device=part.device)
                    for number, part in enumerate(self.parts)]
        number = max(entry.partition, 0)
        part = self.parts[number]
        prefix = entry.path + "/" if entry.path else ""
        names = part.names
        lo, hi = _prefix_range(names, prefix)
        scopes, leaves = {}, []
        i = lo
        plen = len(prefix)
        while i < hi:
            name = names[i]
            head, sep, _ = name[plen:].partition("/")
            if sep:
                end = bisect_left(names, prefix + head + _AFTER_SLASH, i, hi)
                start_count = scopes.get(head, 0)
                scopes[head] = start_count + end - i
                i = end
                continue
            start = bisect_left(names, prefix + head + "/", i, hi)
            if start < hi and names[start].startswith(prefix + head + "/"):
                scopes[head] = scopes.get(head, 0) + 1   # the node itself, inside its scope
            else:
                leaves.append(head)
            i += 1
        if entry.path and entry.path in part.keys:
            leaves.insert(0, None)  # the node named like this scope comes first
        result = []
        for head in sorted(scopes):
            path = prefix + head
            result.append(ScopeEntry(head, path, number, scopes[head], True,
                                     part.keys.get(path, ""), part.device))
        for head in leaves:
            path = entry.path if head is None else prefix + head
            result.append(ScopeEntry(path.rpartition("/")[2], path, number, 1, False,
                                     part.keys[path], part.device))
        return result

    def scope_path(self, key):
        """The scope parts a node sits in; a node named like a scope sits inside it."""
        name = self.nodes[key].name
        part = self.parts[self.part_of(key)]
        lo, hi = _prefix_range(part.names, name + "/")
        return name.split("/") if lo < hi else name.split("/")[:-1]

    # ---- edges --------------------------------------------------------------------------------

    def key_of(self, name, partition=0):
        """The key of node `name` in a partition (None if it has none)."""
        return self.parts[partition].keys.get(name)

    def inputs(self, key):
        """Edges into `key` in input order; a missing producer keeps its name as src."""
        node = self.nodes[key]
        keys = self.parts[self.part_of(key)].keys
        found = []
        for text in node.node_def.input:
            source, output = edge_rules.parse_input(text)
            producer_key = keys.get(source)
            if producer_key is None:
                found.append(Edge(source, key, output, "missing", ""))
                continue
            producer = self.nodes[producer_key].node_def
            found.append(Edge(producer_key, key, output,
                              edge_rules.edge_kind(producer, node.node_def, output),
                              edge_rules.edge_label(producer, output)))
        return found

    def consumers(self, key):
        """Edges out of `key`, consumers in graph order (the reverse map is built once)."""
        if self._consumers is None:
            self._consumers = self._build_consumers()
        node = self.nodes[key]
        found = []
        for consumer_key, output in self._consumers.get(key, ()):
            consumer = self.nodes[consumer_key].node_def
            found.append(Edge(key, consumer_key, output,
                              edge_rules.edge_kind(node.node_def, consumer, output),
                              edge_rules.edge_label(node.node_def, output)))
        return found

    def _build_consumers(self):
        consumers = {}
        parse = edge_rules.parse_input
        for part in self.parts:
            keys = part.keys
            for consumer_key in keys.values():
                for text in self.nodes[consumer_key].node_def.input:
                    source, output = parse(text)
                    producer_key = keys.get(source)
                    if producer_key is not None:
                        consumers.setdefault(producer_key, []).append((consumer_key, output))
        return consumers

    def twin(self, key):
        """The _Recv paired with a _Send (or the _Send of a _Recv), by rendezvous; None if none."""
        if self._twins is None:
            self._twins = self._build_twins()
        return self._twins.get(key)

    def _build_twins(self):
        sends, recvs = {}, {}
        for key, node in self.nodes.items():
            if node.op in SEND_OPS:
                sends[_rendezvous(node.node_def)] = key
            elif node.op in RECV_OPS:
                recvs[_rendezvous(node.node_def)] = key
        twins = {}
        for tensor, send in sends.items():
            if tensor in recvs:
                twins[send] = recvs[tensor]
                twins[recvs[tensor]] = send
        return twins

    def search_lines(self):
        """Per node, in graph order, "name<TAB>op<TAB>device": what the filter box matches."""
        if self._search_text is None:
            keys = list(self.nodes)
            text = "\n".join(f"{n.node_def.name}\t{n.node_def.op}\t{n.node_def.device or n.partition}"
                             for n in self.nodes.values())
            self._search_text = (keys, text)
        return self._search_text


def _rendezvous(node_def):
    attr = node_def.attr
    return tuple(attr[name].s.decode() if name in attr else ""
                 for name in ("tensor_name", "send_device", "recv_device"))


def _repeated(names):
    seen, repeated = set(), set()
    for name in names:
        (repeated if name in seen else seen).add(name)
    return repeated


def _prefix_range(names, prefix):
    """The [lo, hi) range of sorted `names` that start with `prefix` ("" : all of them).

    >>> _prefix_range(["a", "a-b", "a/b", "a/c", "b"], "a/")
    (2, 4)
    """
    if not prefix:
        return 0, len(names)
    lo = bisect_left(names, prefix)
    return lo, bisect_left(names, prefix[:-1] + _AFTER_SLASH, lo)
