"""A thin index over one GraphDef, or over the partition graphs of one run, built once per view.

Nodes get a key unique in the view (their name; `name@2` when partitions share a name), and
every input becomes an Edge between keys, with its kind and label (edges.py). In a partition
view, each _Send is paired with its _Recv by (tensor_name, send_device, recv_device).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from parsers.containers import graph_device
from views.dot import edges as edge_rules

SEND_OPS = frozenset({"_Send", "_HostSend"})
RECV_OPS = frozenset({"_Recv", "_HostRecv"})


@dataclass(frozen=True)
class Node:
    """One NodeDef in the view. partition: the device whose cluster holds it ("" if none)."""

    key: str
    node_def: object
    partition: str = ""

    @property
    def name(self):
        return self.node_def.name

    @property
    def op(self):
        return self.node_def.op


@dataclass(frozen=True)
class Edge:
    """An edge from output `index` of node `src` to node `dst` (index -1: a control edge)."""

    src: str
    dst: str
    index: int
    kind: str
    label: str


@dataclass
class GraphIndex:
    """Nodes by key in graph order, edges in input order, and the partition devices (sorted)."""

    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    missing_inputs: list[str] = field(default_factory=list)

    @property
    def is_partitioned(self):
        return bool(self.devices)

    def neighbours(self):
        """Undirected adjacency by key, neighbours sorted, for --focus."""
        adjacency = {key: set() for key in self.nodes}
        for edge in self.edges:
            adjacency[edge.src].add(edge.dst)
            adjacency[edge.dst].add(edge.src)
        return {key: sorted(found) for key, found in adjacency.items()}


def index_graph(graph_def):
    """Index one GraphDef."""
    return _index([(graph_def, "")])


def index_partitions(graph_defs):
    """Index several partition graphs as one view: one device cluster each, _Send/_Recv paired."""
    parts = [(graph_def, graph_device(graph_def) or f"partition {number}")
             for number, graph_def in enumerate(graph_defs)]
    index = _index(parts)
    index.devices = sorted({device for _, device in parts})
    index.edges.extend(_send_recv_edges(index))
    return index


def _index(parts):
    index = GraphIndex()
    seen = Counter(node.name for graph_def, _ in parts for node in graph_def.node)
    names = []  # per part: node name -> key
    for number, (graph_def, device) in enumerate(parts):
        keys = {}
        for node_def in graph_def.node:
            key = node_def.name if seen[node_def.name] == 1 else f"{node_def.name}@{number}"
            keys[node_def.name] = key
            index.nodes[key] = Node(key, node_def, device)
        names.append(keys)
    for keys in names:
        for name, key in keys.items():
            consumer = index.nodes[key].node_def
            for text in consumer.input:
                source, output = edge_rules.parse_input(text)
                if source not in keys:
                    index.missing_inputs.append(f"{name} <- {text}")
                    continue
                producer = index.nodes[keys[source]].node_def
                index.edges.append(Edge(
                    keys[source], key, output,
                    edge_rules.edge_kind(producer, consumer, output),
                    edge_rules.edge_label(producer, output)))
    return index


def _send_recv_edges(index):
    """One edge per _Send/_Recv pair, matched on (tensor_name, send_device, recv_device)."""

    def rendezvous(node_def):
        attr = node_def.attr
        return tuple(attr[name].s.decode() if name in attr else ""
                     for name in ("tensor_name", "send_device", "recv_device"))

    receivers = {}
    for key, node in index.nodes.items():
        if node.op in RECV_OPS:
            receivers.setdefault(rendezvous(node.node_def), []).append(key)
    pairs = []
    for key, node in index.nodes.items():
        if node.op in SEND_OPS:
            tensor = rendezvous(node.node_def)
            for receiver in receivers.get(tensor, ()):
                pairs.append(Edge(key, receiver, 0, "sendrecv", tensor[0]))
    return pairs
