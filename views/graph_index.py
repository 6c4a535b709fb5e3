"""The one index over a GraphDef (or a run's partition graphs) that every view reads.

Building it keeps only what opening a view needs: nodes by key (their name; `name@2` when
partitions share a name) and sorted names per partition. The rest is worked out on first use
and remembered: a scope's children (by bisecting the sorted names), a node's inputs and
consumers, the _Send/_Recv twin of a partition node (paired by tensor_name, send_device,
recv_device), every edge as (producer, consumer, output) links, and for the Graphviz exporter
the whole name-scope tree. An edge's kind and label (graph_edges.py) are worked out only for
the edges a view shows: folding a 20,000-node graph into a few boxes draws a dozen.

>>> from engine.proto import graph_pb2
>>> graph = graph_pb2.GraphDef(node=[{"name": "w", "op": "VariableV2"},
...     {"name": "w/read", "op": "Identity", "input": ["w"]},
...     {"name": "layer/MatMul", "op": "MatMul", "input": ["x", "w/read"]},
...     {"name": "x", "op": "Placeholder"}, {"name": "init", "op": "NoOp", "input": ["^w"]}])
>>> index = GraphIndex.of_graph(graph)
>>> [(c.name, c.count, c.is_scope) for c in index.children(index.root)]
[('layer', 1, True), ('w', 2, True), ('init', 1, False), ('x', 1, False)]
>>> [(e.dst, e.kind) for e in index.consumers("w")]
[('w/read', 'ref'), ('init', 'control')]
>>> index.scope_path("w/read"), index.scope_path("w")
(['w'], ['w'])
>>> tree = index.scope_tree()
>>> [(scope.name, scope.count, scope.leaves) for scope in tree.walk()]
[('', 5, ['x', 'init']), ('layer', 1, ['layer/MatMul']), ('w', 2, ['w', 'w/read'])]
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatchcase

from engine.framework import op_families
from parsers.containers import graph_device
from views import graph_edges as edge_rules

_AFTER_SLASH = chr(ord("/") + 1)  # "a0" sorts after every "a/..." name


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


@dataclass(frozen=True)
class ScopeEntry:
    """One row of the TUI's scope tree: a scope (count: nodes under it) or a node (key)."""

    name: str          # the last part of the path ("" for a partition's root)
    path: str          # the full scope path or node name
    partition: int
    count: int
    is_scope: bool
    key: str = ""      # for a node: its key; for a scope named like a node: that node's key
    device: str = ""


class Scope:
    """One name scope of the whole tree (scope_tree). name: its full path ("" for the root);
    device: its partition ("" if none); depth: how many parts its name has (0 for the root and
    for a device); leaves: keys of the nodes directly in it, in graph order; children:
    sub-scopes by their last name part. count and ops (every node under it, how many of each
    op) are worked out when first asked.
    """

    def __init__(self, name, device="", depth=0, leaves=None, children=None, ops=None,
                 nodes=None):
        self.name, self.device, self.depth = name, device, depth
        self.leaves = [] if leaves is None else leaves
        self.children = {} if children is None else children
        self._nodes = nodes
        self._ops = ops
        self._count = None if ops is None else sum(ops.values())

    @property
    def key(self):
        """Unique among the scopes of a view: the device (if any) and the path."""
        return f"{self.device}:{self.name}" if self.device else self.name

    @property
    def short_name(self):
        return self.name.rpartition("/")[2]

    @property
    def is_device(self):
        return bool(self.device) and not self.name

    @property
    def count(self):
        if self._count is None:
            # Deepest scopes first, so each child's count is known before its parent's (no
            # recursion: a name can have thousands of `/` levels).
            for scope in reversed(list(self.walk())):
                if scope._count is None:
                    scope._count = len(scope.leaves) + sum(c._count for c in scope.children.values())
        return self._count

    @property
    def ops(self):
        if self._ops is None:
            nodes = self._nodes
            self._ops = Counter(nodes[key].node_def.op
                                for scope in self.walk() for key in scope.leaves)
        return self._ops

    def walk(self):
        """This scope and every scope under it, depth first, children in name order."""
        stack = [self]
        while stack:
            scope = stack.pop()
            yield scope
            stack.extend(scope.children[name] for name in sorted(scope.children, reverse=True))

    def dominant_ops(self, limit=3):
        """The most frequent ops under this scope, most first, ties by name.

        >>> scope = Scope("s", ops=Counter({"Add": 2, "MatMul": 2, "Relu": 1, "Const": 3}))
        >>> scope.dominant_ops(2)
        [('Const', 3), ('Add', 2)]
        """
        return sorted(self.ops.items(), key=lambda item: (-item[1], item[0]))[:limit]


def find_scopes(root, pattern):
    """Scopes whose path matches a name or a glob (fnmatch), in walk order.

    >>> root = Scope("", children={"a": Scope("a", children={"b": Scope("a/b")})})
    >>> [scope.name for scope in find_scopes(root, "a/*")], len(find_scopes(root, "a"))
    (['a/b'], 1)
    """
    return [scope for scope in root.walk() if scope.name and fnmatchcase(scope.name, pattern)]


class _Part:
    """One partition's nodes: names sorted for prefix ranges, keys by name."""

    def __init__(self, device, keys_by_name):
        self.device = device
        self.keys = keys_by_name
        self.names = sorted(keys_by_name)


class GraphIndex:
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
        self.devices = sorted({part.device for part in self.parts}) if len(parts) > 1 else []
        self._links = self._consumers = self._rendezvous = self._edges = None
        self._scope_root = self._twins = self._search_text = None

    @classmethod
    def of_graph(cls, graph_def):
        return cls([(graph_def, "")])

    @classmethod
    def of_partitions(cls, graph_defs):
        """Several partition graphs as one view: one device each, _Send/_Recv paired."""
        return cls([(g, graph_device(g) or f"partition {n}") for n, g in enumerate(graph_defs)])

    @property
    def is_partitioned(self):
        return len(self.parts) > 1

    def __len__(self):
        return len(self.nodes)

    def part_of(self, key):
        return self._part_of[key] if self._part_of is not None else 0

    def key_of(self, name, partition=0):
        """The key of node `name` in a partition (None if it has none)."""
        return self.parts[partition].keys.get(name)

    # ---- the scope tree, one level at a time (the TUI) ---------------------------------------

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
                scopes[head] = scopes.get(head, 0) + end - i
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

    # ---- the whole scope tree (the exporter) -----------------------------------------------

    def scope_tree(self):
        """The root Scope; in a partition view its children are the devices. A node whose name
        is also a scope, in any partition (a Variable `w` with `w/read`), sits inside it, as
        TensorBoard draws it."""
        if self._scope_root is None:
            self._scope_root = self._build_scope_tree()
        return self._scope_root

    def _build_scope_tree(self):
        names = sorted({node.name for node in self.nodes.values()})
        root = Scope("", nodes=self.nodes)
        tops = {"": root}
        for device in self.devices:
            tops[device] = root.children[device] = Scope("", device, 0, nodes=self.nodes)
        made = {}  # (device, path) -> Scope

        def scope_at(top, path):
            scope = made.get((top.device, path))
            if scope is not None:
                return scope
            # The missing ancestors, innermost first, made outermost first (no recursion).
            missing = [path]
            parent_path, sep, _ = path.rpartition("/")
            while sep and (top.device, parent_path) not in made:
                missing.append(parent_path)
                parent_path, sep, _ = parent_path.rpartition("/")
            parent = made[(top.device, parent_path)] if sep else top
            for scope_path in reversed(missing):
                scope = Scope(scope_path, top.device, parent.depth + 1, nodes=self.nodes)
                parent.children[scope_path.rpartition("/")[2]] = made[(top.device, scope_path)] = scope
                parent = scope
            return scope

        for key, node in self.nodes.items():
            top = tops[node.partition] if self.devices else root
            name = node.name
            if _has_prefix(names, name + "/"):
                scope = scope_at(top, name)
            else:
                head, sep, _ = name.rpartition("/")
                scope = scope_at(top, head) if sep else top
            scope.leaves.append(key)
        return root

    # ---- edges ---------------------------------------------------------------------------------

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
            else:
                found.append(self.edge((producer_key, key, output)))
        return found

    def consumers(self, key):
        """Edges out of `key`, consumers in graph order (the reverse map is built once)."""
        if self._consumers is None:
            consumers = {}
            for link in self.links():
                consumers.setdefault(link[0], []).append(link)
            self._consumers = consumers
        return [self.edge(link) for link in self._consumers.get(key, ())]

    def links(self):
        """(producer key, consumer key, output) for every input naming a node of its partition,
        consumers in graph order, inputs in order; no kinds or labels (see edge())."""
        if self._links is None:
            links = []
            parse = edge_rules.parse_input
            for part in self.parts:
                keys = part.keys
                for consumer_key in keys.values():
                    for text in self.nodes[consumer_key].node_def.input:
                        source, output = parse(text)
                        producer_key = keys.get(source)
                        if producer_key is not None:
                            links.append((producer_key, consumer_key, output))
            self._links = links
        return self._links

    def edge(self, link):
        """The Edge of a link, with its kind and label."""
        src, dst, output = link
        producer = self.nodes[src].node_def
        kind = edge_rules.edge_kind(producer, self.nodes[dst].node_def, output)
        return Edge(src, dst, output, kind, edge_rules.edge_label(producer, output))

    def sendrecv_edges(self):
        """One "sendrecv" edge per _Send and each _Recv of its rendezvous, sends in graph order."""
        sends, receivers = self._rendezvous_keys()
        return [Edge(send, receiver, 0, "sendrecv", tensor[0])
                for send, tensor in sends for receiver in receivers.get(tensor, ())]

    @property
    def edges(self):
        """Every edge with its kind and label: links in order, then the _Send/_Recv pairs."""
        if self._edges is None:
            self._edges = [self.edge(link) for link in self.links()] + self.sendrecv_edges()
        return self._edges

    def neighbours(self):
        """Undirected adjacency by key, neighbours sorted, for --focus."""
        adjacency = {key: set() for key in self.nodes}
        pairs = [link[:2] for link in self.links()]
        for src, dst in pairs + [(edge.src, edge.dst) for edge in self.sendrecv_edges()]:
            adjacency[src].add(dst)
            adjacency[dst].add(src)
        return {key: sorted(found) for key, found in adjacency.items()}

    def twin(self, key):
        """The _Recv paired with a _Send (or the _Send of a _Recv), by rendezvous; None if none."""
        if self._twins is None:
            sends, receivers = self._rendezvous_keys()
            self._twins = {}
            for tensor, send in {tensor: send for send, tensor in sends}.items():
                if tensor in receivers:   # the last _Send and _Recv of a rendezvous pair up
                    self._twins[send] = receivers[tensor][-1]
                    self._twins[receivers[tensor][-1]] = send
        return self._twins.get(key)

    def _rendezvous_keys(self):
        """([(send key, rendezvous)] in graph order, {rendezvous: [recv keys]})."""
        if self._rendezvous is None:
            sends, receivers = [], {}
            for key, node in self.nodes.items():
                if node.op in op_families.SEND:
                    sends.append((key, rendezvous(node.node_def)))
                elif node.op in op_families.RECV:
                    receivers.setdefault(rendezvous(node.node_def), []).append(key)
            self._rendezvous = sends, receivers
        return self._rendezvous

    def search_lines(self):
        """Per node, in graph order, "name<TAB>op<TAB>device": what the filter box matches."""
        if self._search_text is None:
            keys = list(self.nodes)
            text = "\n".join(f"{n.node_def.name}\t{n.node_def.op}\t{n.node_def.device or n.partition}"
                             for n in self.nodes.values())
            self._search_text = (keys, text)
        return self._search_text


def rendezvous(node_def):
    """A _Send's or _Recv's (tensor_name, send_device, recv_device); "" for a missing attr.

    >>> from engine.proto import node_def_pb2
    >>> rendezvous(node_def_pb2.NodeDef(op="_Recv", attr={"tensor_name": {"s": b"edge_1"}}))
    ('edge_1', '', '')
    """
    attr = node_def.attr
    return tuple(attr[name].s.decode() if name in attr else ""
                 for name in ("tensor_name", "send_device", "recv_device"))


def _repeated(names):
    seen, repeated = set(), set()
    for name in names:
        (repeated if name in seen else seen).add(name)
    return repeated


def _has_prefix(names, prefix):
    """Whether any of the sorted `names` starts with `prefix`."""
    i = bisect_left(names, prefix)
    return i < len(names) and names[i].startswith(prefix)


def _prefix_range(names, prefix):
    """The [lo, hi) range of sorted `names` that start with `prefix` ("" : all of them).

    >>> _prefix_range(["a", "a-b", "a/b", "a/c", "b"], "a/")
    (2, 4)
    """
    if not prefix:
        return 0, len(names)
    lo = bisect_left(names, prefix)
    return lo, bisect_left(names, prefix[:-1] + _AFTER_SLASH, lo)
