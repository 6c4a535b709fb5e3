"""Which checkpoint entry a graph's variable holds: for a variable node, and for any node reading
it (a ReadVariableOp in a function body, a ResourceGather, an Assign), through the calls.

A TF2 SavedModel's top-level graph holds a VarHandleOp per variable (often named `Variable_3`
or `dense/kernel_1`, nothing like its checkpoint key), and its saver's restore function says
which key goes to which handle: the function's RestoreV2 names the keys, an AssignVariableOp
writes tensor i of it to one of the function's arguments, and the call node (the saver_def's
restore_op_name) passes a VarHandleOp as that argument. A TF1 graph's saver does the same in
the graph itself (`save/Assign` of `save/RestoreV2:i` to the variable). A node that reads a
variable is followed back through Identity nodes and, from a function's `_Arg`, to what each
call of the function passes (a call's inputs are its arguments; If and Case pass theirs after
the condition or branch index), up to the variable node.

Graphs are named by their labels among a Loaded's graphs (parsers.functions): the top-level
graph's label ("serve") or `function NAME`.
"""

from __future__ import annotations

import numpy as np

from engine.framework import tensor_util

VARIABLE_OPS = frozenset({"VarHandleOp", "VariableV2", "Variable", "TemporaryVariable"})
ASSIGN_OPS = frozenset({"AssignVariableOp", "Assign"})
PASS_THROUGH = frozenset({"Identity", "RefIdentity"})
# Ops whose first data input is the condition or branch index: the callee's argument i is the
# call's input i + 1.
_ARGS_AFTER_FIRST = frozenset({"If", "StatelessIf", "Case", "StatelessCase"})
_MAX_DEPTH = 64
_VARIABLE_USERS = frozenset({"VarIsInitializedOp", "VariableShape", "DestroyResourceOp",
                             "DisableCopyOnRead", "IsVariableInitialized", "ScatterUpdate"})


def uses_variable(op):
    """Whether op `op` reads or writes the variable its first input is (ReadVariableOp,
    ResourceGather, AssignVariableOp, ResourceApplyAdam, a TF1 Assign, ...).

    >>> uses_variable("ReadVariableOp"), uses_variable("ResourceGather"), uses_variable("MatMul")
    (True, True, False)
    """
    return (op in _VARIABLE_USERS or op.endswith("VariableOp")
            or op.startswith(("Resource", "Assign", "ApplyA", "ApplyG", "ApplyM", "ApplyR",
                              "Scatter")))


class SavedVariables:
    """The checkpoint keys a Loaded's variables restore from, found once, on first question."""

    def __init__(self, loaded):
        self.loaded = loaded
        self.library = loaded.functions
        self.checkpoint = loaded.checkpoint
        self._nodes = {}        # graph label -> {node name: NodeDef}
        self._restored = None   # (graph label, variable node) -> checkpoint key
        self._sources = {}      # (graph label, node name) -> its variable nodes, once found

    def key_of(self, graph, node):
        """The checkpoint key of the variable node `node` of graph `graph`, or of the variable a
        node reads or writes; None when it leads to no saved variable."""
        keys = self.keys_of(graph, node)
        return keys[0] if keys else None

    def keys_of(self, graph, node):
        """Every key `node` may hold (a function called with different variables: one each)."""
        restored = self.restored()
        keys = []
        for source in self._variable_nodes(graph, node, 0):
            key = restored.get(source)
            if key is None and self.checkpoint is not None and source[1] in self.checkpoint:
                key = self.checkpoint.info(source[1]).key  # a TF1 variable named as its key
            if key is not None and key not in keys:
                keys.append(key)
        return keys

    def info_of(self, graph, node):
        """The checkpoint's VariableInfo (name, dtype, shape, key) for `node`, or None."""
        key = self.key_of(graph, node)
        return self.checkpoint.info(key) if key is not None and self.checkpoint is not None else None

    def value_of(self, graph, node):
        """The saved value (NumPy) of the variable `node` is or reads, or None."""
        info = self.info_of(graph, node)
        return self.checkpoint.value(info.key) if info is not None else None

    def restored(self):
        """(graph label, variable node name) -> checkpoint key, for every variable a saver's
        RestoreV2 writes."""
        if self._restored is None:
            found = {}
            labels = self.library.graph_labels + [f.label for f in self.library]
            for label in labels:
                nodes = self._graph_nodes(label)
                if not any(node.op == "RestoreV2" for node in nodes.values()):
                    continue
                for node in nodes.values():
                    if node.op not in ASSIGN_OPS or len(node.input) < 2:
                        continue
                    key = self._restored_key(label, node.input[1])
                    if key is None:
                        continue
                    for source in self._variable_nodes(label, _node_name(node.input[0]), 0):
                        found.setdefault(source, key)
            self._restored = found
        return self._restored

    def _restored_key(self, label, tensor, depth=0):
        """The key of `RestoreV2:i` that `tensor` (through Identity nodes) is, or None."""
        nodes = self._graph_nodes(label)
        name, index = _split(tensor)
        node = nodes.get(name)
        if node is None or depth > _MAX_DEPTH:
            return None
        if node.op in PASS_THROUGH and node.input:
            return self._restored_key(label, node.input[0], depth + 1)
        if node.op != "RestoreV2" or len(node.input) < 2:
            return None
        names = nodes.get(_node_name(node.input[1]))
        if names is None or names.op != "Const" or "value" not in names.attr:
            return None
        try:
            keys = np.asarray(tensor_util.MakeNdarray(names.attr["value"].tensor)).ravel()
        except (ValueError, TypeError):
            return None
        if index >= len(keys):
            return None
        key = keys[index]
        return key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)

    def _variable_nodes(self, label, name, depth):
        """(graph label, node name) of each variable node `name` of graph `label` is, reads or
        writes (its first data input followed back); remembered, so that functions called
        from many places are followed once."""
        key = (label, name, depth == 0)
        if key not in self._sources:
            self._sources[key] = self._follow(label, name, depth)
        return self._sources[key]

    def _follow(self, label, name, depth):
        nodes = self._graph_nodes(label)
        node = nodes.get(name)
        if node is None or depth > _MAX_DEPTH:
            return []
        if node.op in VARIABLE_OPS:
            return [(label, name)]
        if node.op == "_Arg":
            return self._passed_to(label, node.attr["index"].i, depth)
        data = [i for i in node.input if not i.startswith("^")]
        if not data or not (node.op in PASS_THROUGH or depth == 0 and uses_variable(node.op)):
            return []
        return self._variable_nodes(label, _node_name(data[0]), depth + 1)

    def _passed_to(self, function_label, index, depth):
        """What each call of a function passes as its argument `index`, followed back."""
        found = []
        for site in self.library.callers(function_label):
            call = self._graph_nodes(site.graph).get(site.node)
            if call is None:
                continue
            data = [i for i in call.input if not i.startswith("^")]
            position = index + (1 if call.op in _ARGS_AFTER_FIRST else 0)
            if position < len(data):
                for source in self._variable_nodes(site.graph, _node_name(data[position]),
                                                   depth + 1):
                    if source not in found:
                        found.append(source)
        return found

    def _graph_nodes(self, label):
        nodes = self._nodes.get(label)
        if nodes is None:
            graph_def = self.library.graph_def(label)
            nodes = {n.name: n for n in graph_def.node} if graph_def is not None else {}
            self._nodes[label] = nodes
        return nodes


def _split(tensor):
    name, _, index = tensor.lstrip("^").partition(":")
    return name, int(index) if index.isdigit() else 0


def _node_name(tensor):
    return _split(tensor)[0]
