"""The difference between two GraphDefs, node by node name: added, removed, changed (and how).

A node is changed when its op, its inputs, its attrs or its device differ. Data inputs are
compared in order (their position is the input slot); control inputs (`^name`) as a set, since
their order means nothing to TensorFlow. Pure functions over the messages.

>>> from engine.proto import graph_pb2
>>> a = graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder"},
...                              {"name": "y", "op": "Add", "input": ["x", "x"]}])
>>> b = graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder"},
...                              {"name": "y", "op": "AddV2", "input": ["x", "x"]},
...                              {"name": "z", "op": "Neg", "input": ["y"]}])
>>> d = diff(a, b)
>>> d.added, d.removed, [c.what for c in d.changed], d.summary()
(('z',), (), ['op: Add -> AddV2'], '1 added, 0 removed, 1 changed, 1 unchanged')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from views.attr_text import summarize_attr

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
STATUSES = (ADDED, REMOVED, CHANGED)
# What the TUI and text output put before a node name of each status.
MARKS = {ADDED: "+", REMOVED: "-", CHANGED: "~"}


@dataclass(frozen=True)
class NodeChange:
    """One node in both graphs that differs: which fields (op, inputs, attrs, device) and a
    line per difference ("op: Add -> AddV2", "attr T: DT_FLOAT -> DT_INT32", "input 1: x -> y",
    "control input added: ^init")."""

    name: str
    fields: tuple[str, ...]
    details: tuple[str, ...]

    @property
    def what(self):
        return "; ".join(self.details)


@dataclass(frozen=True)
class GraphDiff:
    """added: names only in the second graph (its order); removed: only in the first (its
    order); changed: NodeChanges (second graph's order); unchanged: how many are equal."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[NodeChange, ...]
    unchanged: int
    _status: dict = field(default_factory=dict, repr=False, compare=False)
    _changes: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        status = {name: ADDED for name in self.added}
        status.update((name, REMOVED) for name in self.removed)
        status.update((change.name, CHANGED) for change in self.changed)
        self._status.update(status)
        self._changes.update((change.name, change) for change in self.changed)

    def status(self, name):
        """ADDED, REMOVED, CHANGED, or None for a node that is the same in both (or in neither)."""
        return self._status.get(name)

    def statuses(self):
        """Node name -> status, for every node that differs."""
        return dict(self._status)

    def change(self, name):
        """The NodeChange of node `name`, or None when it is not changed."""
        return self._changes.get(name)

    @property
    def empty(self):
        return not (self.added or self.removed or self.changed)

    def summary(self):
        return (f"{len(self.added)} added, {len(self.removed)} removed, {len(self.changed)} changed,"
                f" {self.unchanged} unchanged")

    def to_json(self):
        """A dict for `diff --json`: counts, then the names and what changed."""
        return {"added": list(self.added), "removed": list(self.removed),
                "changed": [{"name": change.name, "fields": list(change.fields),
                             "details": list(change.details)} for change in self.changed],
                "counts": {"added": len(self.added), "removed": len(self.removed),
                           "changed": len(self.changed), "unchanged": self.unchanged}}


def diff(before, after, renamed=None):
    """The GraphDiff from GraphDef `before` to GraphDef `after` (a node is matched by name; a
    name twice in one graph, which TensorFlow refuses, counts its last node). renamed: function
    name in `before` -> its counterpart in `after` (views/function_diff.py): a call of a
    function is the same call as one of its counterpart."""
    old = {node.name: node for node in before.node}
    new = {node.name: node for node in after.node}
    added = tuple(name for name in new if name not in old)
    removed = tuple(name for name in old if name not in new)
    changed, unchanged = [], 0
    for name, node in new.items():
        if name not in old:
            continue
        change = node_change(old[name], node, renamed)
        if change is None:
            unchanged += 1
        else:
            changed.append(change)
    return GraphDiff(added, removed, tuple(changed), unchanged)


def node_change(old, new, renamed=None):
    """The NodeChange from NodeDef `old` to `new`, or None when they are the same (calls of
    functions `renamed` pairs counting as the same)."""
    fields, details = [], []
    if (renamed or {}).get(old.op, old.op) != new.op:
        fields.append("op")
        details.append(f"op: {old.op} -> {new.op}")
    input_details = _input_changes(list(old.input), list(new.input))
    if input_details:
        fields.append("inputs")
        details += input_details
    attr_details = _attr_changes(old.attr, new.attr, renamed)
    if attr_details:
        fields.append("attrs")
        details += attr_details
    if old.device != new.device:
        fields.append("device")
        details.append(f"device: {old.device or '(none)'} -> {new.device or '(none)'}")
    if not fields:
        return None
    return NodeChange(new.name, tuple(fields), tuple(details))


def _input_changes(old, new):
    """Lines for the inputs that differ: data inputs by slot, control inputs as a set.

    >>> _input_changes(["a", "b", "^c"], ["a", "d", "e", "^f"])
    ['input 1: b -> d', 'input 2 added: e', 'control input removed: ^c', 'control input added: ^f']
    """
    old_data = [name for name in old if not name.startswith("^")]
    new_data = [name for name in new if not name.startswith("^")]
    lines = []
    for slot in range(max(len(old_data), len(new_data))):
        if slot >= len(new_data):
            lines.append(f"input {slot} removed: {old_data[slot]}")
        elif slot >= len(old_data):
            lines.append(f"input {slot} added: {new_data[slot]}")
        elif old_data[slot] != new_data[slot]:
            lines.append(f"input {slot}: {old_data[slot]} -> {new_data[slot]}")
    old_control = [name for name in old if name.startswith("^")]
    new_control = [name for name in new if name.startswith("^")]
    lines += [f"control input removed: {name}" for name in old_control if name not in new_control]
    lines += [f"control input added: {name}" for name in new_control if name not in old_control]
    return lines


def _attr_changes(old, new, renamed=None):
    """Lines for the attrs added, removed or with another value (by their serialized bytes;
    a function name `renamed` maps to its counterpart first)."""
    lines = []
    for key in sorted(set(old) | set(new)):
        if key not in new:
            lines.append(f"attr {key} removed: {summarize_attr(old[key])}")
        elif key not in old:
            lines.append(f"attr {key} added: {summarize_attr(new[key])}")
        elif (_renamed_functions(old[key], renamed).SerializeToString(deterministic=True)
              != new[key].SerializeToString(deterministic=True)):
            before, after = summarize_attr(old[key]), summarize_attr(new[key])
            if before == after:  # a summary too short to show where two tensors differ
                after += " (other values)"
            lines.append(f"attr {key}: {before} -> {after}")
    return lines


def _renamed_functions(value, renamed):
    """An AttrValue with the functions it names renamed (the value itself when none is)."""
    if not renamed:
        return value
    kind = value.WhichOneof("value")
    names = [value.func.name] if kind == "func" else \
        [f.name for f in value.list.func] if kind == "list" else []
    if not any(name in renamed for name in names):
        return value
    copy = type(value)()
    copy.CopyFrom(value)
    for func in ([copy.func] if kind == "func" else copy.list.func):
        func.name = renamed.get(func.name, func.name)
    return copy


def merged(before, after, graph_diff=None):
    """One GraphDef holding every node of `after` and, after them, the nodes `before` had that
    `after` lost: the graph a diff is drawn on (removed nodes keep their inputs, which name
    nodes of either graph)."""
    graph_diff = graph_diff or diff(before, after)
    result = type(after)()
    result.CopyFrom(after)
    removed = set(graph_diff.removed)
    result.node.extend(node for node in before.node if node.name in removed)
    return result
