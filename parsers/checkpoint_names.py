"""Readable names for a TF2 checkpoint's keys, from its TrackableObjectGraph.

A TF2 checkpoint (tf.train.Checkpoint, a SavedModel's variables) keys each value by the object
path that reaches it: `layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, an optimizer
slot as `<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot>/.ATTRIBUTES/VARIABLE_VALUE`.
The `_CHECKPOINTABLE_OBJECT_GRAPH` entry holds the object graph those paths walk. A variable is
called by its own name where the SavedObjectGraph records one (`hidden/kernel`), else by its
object path (`layer_with_weights-0/kernel`); an optimizer slot by the name the checkpoint
records for it (`Adam/hidden/kernel/m`), else its variable's name and the slot's
(`hidden/kernel/m`); another attribute by its object's name and the attribute's. A name two
keys would share goes to the first object the graph reaches (breadth first); the others are
told apart by their object path: `conv/kernel (_all_variables/0)`. A path deeper than
PATH_LEVELS objects keeps its last PATH_LEVELS names after `…`: a chain of 30,000 objects in a
433 KB file spelled out in full took 2.6 GB.

>>> from engine.proto import trackable_object_graph_pb2
>>> key = "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"
>>> graph = trackable_object_graph_pb2.TrackableObjectGraph(nodes=[
...     {"children": [{"node_id": 1, "local_name": "dense"}]},
...     {"children": [{"node_id": 2, "local_name": "kernel"}]},
...     {"attributes": [{"name": "VARIABLE_VALUE", "checkpoint_key": key}]}])
>>> readable_names(graph)
{'dense/kernel/.ATTRIBUTES/VARIABLE_VALUE': 'dense/kernel'}
>>> readable_names(graph, {"dense/kernel": "my_dense/kernel"})
{'dense/kernel/.ATTRIBUTES/VARIABLE_VALUE': 'my_dense/kernel'}
"""

from __future__ import annotations

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
PATH_LEVELS = 32
VALUE_ATTRIBUTE = "VARIABLE_VALUE"


def readable_names(object_graph, variable_names=None):
    """Checkpoint key -> readable name for every attribute the object graph lists.
    variable_names: object path (`/`-joined) -> the variable's own name (a SavedObjectGraph's
    SavedVariable.name: parsers.saved_objects.SavedObjects.variable_names)."""
    variable_names = variable_names or {}
    nodes = object_graph.nodes
    paths, order = first_paths(nodes)
    slots = {}  # slot variable node -> (original variable node, slot name)
    for node_id in order:
        for slot in nodes[node_id].slot_variables:
            if 0 <= slot.slot_variable_node_id < len(nodes):
                slots.setdefault(slot.slot_variable_node_id,
                                 (slot.original_variable_node_id, slot.slot_name))
    order += [node_id for node_id in slots if node_id not in paths]

    def object_name(node_id, depth=0):
        if node_id in slots and depth < 8:
            original, slot_name = slots[node_id]
            return f"{object_name(original, depth + 1)}/{slot_name}"
        path = paths.get(node_id, f"(object {node_id})")
        return variable_names.get(path, path)

    names, taken = {}, set()
    for node_id in order:
        for attribute in nodes[node_id].attributes:
            name = object_name(node_id)
            if node_id in slots and attribute.full_name:
                name = attribute.full_name
            elif attribute.name != VALUE_ATTRIBUTE:
                name += f"/{attribute.name}"
            if name in taken:
                name += f" ({paths.get(node_id) or attribute.checkpoint_key})"
            taken.add(name)
            names[attribute.checkpoint_key] = name
    return names


def first_paths(nodes, separator="/"):
    """(node id -> first path from the root, breadth first; node ids in that order). Children
    outside the graph are skipped; a path keeps its last PATH_LEVELS names (`…` before them),
    so the paths of a chain of objects grow with its length, not its length squared."""
    if not nodes:
        return {}, []
    parent, local_names, order = {0: None}, {0: ""}, [0]
    for node_id in order:
        for child in nodes[node_id].children:
            if child.node_id not in parent and 0 <= child.node_id < len(nodes):
                parent[child.node_id] = node_id
                local_names[child.node_id] = child.local_name
                order.append(child.node_id)
    paths = {}
    for node_id in order:
        names, at = [], node_id
        while at and len(names) < PATH_LEVELS:
            names.append(local_names[at])
            at = parent[at]
        if at:
            names.append("…")
        paths[node_id] = separator.join(reversed(names))
    return paths, order
