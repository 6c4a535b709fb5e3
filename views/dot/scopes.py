"""The name-scope tree of a graph: which nodes each scope holds, how many, and of which ops.

A node whose name is also a scope (a Variable `w` with `w/read`, `w/Assign`) belongs inside
that scope, as TensorBoard draws it. In a partition view each device is a top-level scope.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Scope:
    """One name scope. name: its full path ("" for the root); device: its partition ("" if none);
    depth: how many parts its name has (0 for the root and for a device).

    leaves: keys of the nodes directly in it; children: sub-scopes by their last name part;
    count and ops: every node under it, and how many of each op.
    """

    name: str
    device: str = ""
    depth: int = 0
    leaves: list[str] = field(default_factory=list)
    children: dict[str, "Scope"] = field(default_factory=dict)
    count: int = 0
    ops: Counter = field(default_factory=Counter)

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

    def walk(self):
        """This scope and every scope under it, depth first, children in name order."""
        yield self
        for name in sorted(self.children):
            yield from self.children[name].walk()

    def dominant_ops(self, limit=3):
        """The most frequent ops under this scope, most first, ties by name.

        >>> scope = Scope("s", ops=Counter({"Add": 2, "MatMul": 2, "Relu": 1, "Const": 3}))
        >>> scope.dominant_ops(2)
        [('Const', 3), ('Add', 2)]
        """
        return sorted(self.ops.items(), key=lambda item: (-item[1], item[0]))[:limit]


def scope_parts(name, scope_names):
    """The scope path of a node: its name's directories, or its whole name if that is a scope.

    >>> scope_parts("layer/MatMul", set()), scope_parts("w", {"w"}), scope_parts("x", set())
    (['layer'], ['w'], [])
    """
    if name in scope_names:
        return name.split("/")
    return name.split("/")[:-1]


def scope_tree(index):
    """The root Scope of a GraphIndex; in a partition view, its children are the devices."""
    scope_names = set()
    for node in index.nodes.values():
        parts = node.name.split("/")
        for end in range(1, len(parts)):
            scope_names.add("/".join(parts[:end]))
    root = Scope("")
    if index.is_partitioned:
        for device in index.devices:
            root.children[device] = Scope("", device=device, depth=0)
    for key, node in index.nodes.items():
        scope = root
        trail = [root]
        if index.is_partitioned:
            scope = root.children[node.partition]
            trail.append(scope)
        path = []
        for part in scope_parts(node.name, scope_names):
            path.append(part)
            child = scope.children.get(part)
            if child is None:
                child = Scope("/".join(path), scope.device, scope.depth + 1)
                scope.children[part] = child
            scope = child
            trail.append(scope)
        scope.leaves.append(key)
        for ancestor in trail:
            ancestor.count += 1
            ancestor.ops[node.op] += 1
    return root


def find_scopes(root, pattern):
    """Scopes whose path matches a name or a glob (fnmatch), in walk order.

    >>> root = Scope("", children={"a": Scope("a", children={"b": Scope("a/b")})})
    >>> [scope.name for scope in find_scopes(root, "a/*")], len(find_scopes(root, "a"))
    (['a/b'], 1)
    """
    from fnmatch import fnmatchcase

    return [scope for scope in root.walk() if scope.name and fnmatchcase(scope.name, pattern)]
