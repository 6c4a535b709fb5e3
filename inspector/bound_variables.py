"""Variables a TF2 SavedModel's functions read that its restore function does not restore,
restored from the checkpoint by their objects' paths, as tf.saved_model.load binds them.

tf.saved_model.save writes one VarHandleOp per variable object, which the signatures' calls
capture, and traces the restore function (`__inference__traced_restore`) over the handles the
objects' save hooks give. Where these differ, as for a Keras 3 model saved through
tf.saved_model.save (a subclassed one, or one wrapped in a tf.Module for a custom signature:
its variables' save hooks give `Variable`, `Variable_1`, the signatures read `dense/kernel`),
TensorFlow's TF1 loader (saved_model_cli, TensorFlow Serving) restores the former and the run
fails on the first read ('Could not find variable dense/kernel'), while tf.saved_model.load
restores every variable object through the object graph and binds each function's captures
(its SavedConcreteFunction's `bound_inputs`, the object node ids of the call's trailing
inputs) to them. `graph-inspector run` restores through the model's restore function, then
these (with a note: a model TensorFlow Serving cannot run).

The checkpoint's key of a variable object: the checkpoint's own object graph, walked from the
root along the SavedModel's object graph's child names (TensorFlow matches them so), gives
the node whose VARIABLE_VALUE attribute names it.
"""

from __future__ import annotations

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.proto import trackable_object_graph_pb2

_CALLS = ("StatefulPartitionedCall", "PartitionedCall")
_VALUE = "VARIABLE_VALUE"


def unrestored_captures(meta_graph_def, restore_op_name):
    """{VarHandleOp name: object node id} of the handles the graph's function calls capture
    as variable objects and the restore op (`restore_op_name`) does not assign."""
    objects = meta_graph_def.object_graph_def
    graph_def = meta_graph_def.graph_def
    by_name = {node.name: node for node in graph_def.node}
    restore = by_name.get(restore_op_name.split(":")[0]) if restore_op_name else None
    if restore is None or not objects.nodes:
        return {}
    restored = {name.split(":")[0].lstrip("^") for name in restore.input}
    found = {}
    for node in graph_def.node:
        if node.op not in _CALLS or node.name == restore.name or "f" not in node.attr:
            continue
        function = objects.concrete_functions.get(node.attr["f"].func.name)
        if function is None or not function.bound_inputs:
            continue
        data_inputs = [name for name in node.input if not name.startswith("^")]
        bound = list(function.bound_inputs)
        for name, node_id in zip(data_inputs[-len(bound):], bound):
            handle = by_name.get(name.split(":")[0])
            if (handle is not None and handle.op == "VarHandleOp" and handle.name not in restored
                    and 0 <= node_id < len(objects.nodes)
                    and objects.nodes[node_id].WhichOneof("kind") == "variable"):
                found.setdefault(handle.name, node_id)
    return found


def checkpoint_keys(object_graph_def, checkpoint):
    """{object node id: checkpoint key} of the SavedModel's objects the checkpoint (a
    parsers.checkpoint.Checkpoint of a TF2 checkpoint) holds a value for."""
    if OBJECT_GRAPH_KEY not in checkpoint:
        return {}
    stored = trackable_object_graph_pb2.TrackableObjectGraph()
    stored.ParseFromString(checkpoint.value(OBJECT_GRAPH_KEY).item())
    if not stored.nodes or not object_graph_def.nodes:
        return {}
    pairs, seen, keys = [(0, 0)], {0}, {}
    for saved_id, stored_id in pairs:
        for attribute in stored.nodes[stored_id].attributes:
            if attribute.name == _VALUE:
                keys.setdefault(saved_id, attribute.checkpoint_key)
        children = {child.local_name: child.node_id for child in stored.nodes[stored_id].children}
        for child in object_graph_def.nodes[saved_id].children:
            match = children.get(child.local_name)
            if (match is not None and child.node_id not in seen
                    and 0 <= child.node_id < len(object_graph_def.nodes)
                    and 0 <= match < len(stored.nodes)):
                seen.add(child.node_id)
                pairs.append((child.node_id, match))
    return keys
