"""The object graph tf.train.Checkpoint saves: trackables reached from a root, their keys and proto.

TensorFlow's graph_view and save_util_v1: a breadth-first walk from the root numbers the
objects (node 0 is the root), each reached first by a path of local names; a variable is
saved under `<path>/.ATTRIBUTES/VARIABLE_VALUE`; after the walk each optimizer's slot
variables are appended, saved under `<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot>`.
The TrackableObjectGraph proto records the children, attributes and slot references.

>>> escape_local_name("a/b.c")
'a.Sb..c'
"""

from engine.ops.optimizers import Optimizer
from engine.ops.variables import Variable
from engine.proto import trackable_object_graph_pb2

ATTRIBUTES = ".ATTRIBUTES"
OPTIMIZER_SLOT = ".OPTIMIZER_SLOT"
VARIABLE_VALUE = "VARIABLE_VALUE"


def escape_local_name(name):
    """A local name as it stands in a path: '.' doubled, '/' as '.S' (trackable_utils)."""
    return name.replace(".", "..").replace("/", ".S")


def is_trackable(value):
    """What tf.train.Checkpoint accepts: variables, optimizers, objects with trackable children
    (`_trackable_children`, or a tf.Module: a class with TensorFlow's
    `_TF_MODULE_IGNORED_PROPERTIES`), and lists, tuples and dicts, which TensorFlow wraps as
    trackable data structures. Other Python objects are not tracked, as in TensorFlow."""
    return (isinstance(value, (Variable, Optimizer, list, tuple, dict))
            or callable(getattr(value, "_trackable_children", None))
            or _is_module(value))


def _is_module(value):
    return (not isinstance(value, type)
            and hasattr(type(value), "_TF_MODULE_IGNORED_PROPERTIES"))


def _module_children(module):
    """A tf.Module's dependencies: its attributes holding trackables, in the order they were
    set (AutoTrackable tracks each assignment), but the ignored properties."""
    ignored = type(module)._TF_MODULE_IGNORED_PROPERTIES
    return [(name, value) for name, value in vars(module).items()
            if name not in ignored and is_trackable(value)]


def children(obj, graph):
    """[(local name, child)] of one object, in TensorFlow's order."""
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, Optimizer):
        # Optimizer._trackable_children: the non-slot variables of the current graph, by name.
        return [(name, variable) for (name, owner), variable
                in sorted(obj._non_slot_dict.items(), key=lambda item: item[0][0])
                if owner is graph]
    if isinstance(obj, (list, tuple)):
        return [(str(i), value) for i, value in enumerate(obj) if is_trackable(value)]
    if isinstance(obj, dict):
        return [(str(key), value) for key, value in obj.items() if is_trackable(value)]
    if not callable(getattr(obj, "_trackable_children", None)) and _is_module(obj):
        return _module_children(obj)
    found = obj._trackable_children()
    return list(found.items()) if isinstance(found, dict) else list(found)


class ObjectGraph:
    """One walk from a root: objects in node order, their paths, children and slot references."""

    def __init__(self, root, graph):
        self.objects, self.paths, self.edges = [root], {id(root): ""}, {}
        self.slots = {}  # optimizer node id -> [(slot name, original node id, slot node id)]
        node_ids = {id(root): 0}
        queue = [root]
        while queue:
            obj = queue.pop(0)
            refs = []
            for name, child in children(obj, graph):
                if id(child) not in node_ids:
                    node_ids[id(child)] = len(self.objects)
                    self.objects.append(child)
                    prefix = self.paths[id(obj)]
                    self.paths[id(child)] = ((prefix + "/" if prefix else "")
                                             + escape_local_name(name))
                    queue.append(child)
                refs.append((node_ids[id(child)], name))
            self.edges[node_ids[id(obj)]] = refs
        self._add_slot_variables(node_ids)
        self.node_ids = node_ids

    def _add_slot_variables(self, node_ids):
        """save_util_v1.serialize_slot_variables: per optimizer, per sorted slot name, per
        object in node order."""
        non_slot = list(self.objects)
        for optimizer_id, optimizer in enumerate(non_slot):
            if not isinstance(optimizer, Optimizer):
                continue
            for slot_name in optimizer.get_slot_names():
                for original_id, original in enumerate(non_slot):
                    if not isinstance(original, Variable):
                        continue
                    slot = optimizer.get_slot(original, slot_name)
                    if slot is None or id(slot) in node_ids:
                        continue
                    node_ids[id(slot)] = len(self.objects)
                    self.objects.append(slot)
                    self.paths[id(slot)] = (f"{self.paths[id(original)]}/{OPTIMIZER_SLOT}/"
                                            f"{self.paths[id(optimizer)]}/"
                                            f"{escape_local_name(slot_name)}")
                    self.slots.setdefault(optimizer_id, []).append(
                        (slot_name, original_id, node_ids[id(slot)]))

    def checkpoint_key(self, obj):
        return f"{self.paths[id(obj)]}/{ATTRIBUTES}/{VARIABLE_VALUE}"

    def variables(self):
        """[(checkpoint key, variable)] in node order: what SaveV2 writes, before the graph."""
        return [(self.checkpoint_key(obj), obj) for obj in self.objects if isinstance(obj, Variable)]

    def proto(self):
        """The TrackableObjectGraph TensorFlow writes under _CHECKPOINTABLE_OBJECT_GRAPH."""
        graph_proto = trackable_object_graph_pb2.TrackableObjectGraph()
        for node_id, obj in enumerate(self.objects):
            node = graph_proto.nodes.add()
            for child_id, name in self.edges.get(node_id, []):
                node.children.add(node_id=child_id, local_name=name)
            if isinstance(obj, Variable):
                node.attributes.add(name=VARIABLE_VALUE, full_name=full_name(obj),
                                    checkpoint_key=self.checkpoint_key(obj))
            for slot_name, original_id, slot_id in self.slots.get(node_id, []):
                node.slot_variables.add(original_variable_node_id=original_id,
                                        slot_name=slot_name, slot_variable_node_id=slot_id)
        mark_checkpoint_values(graph_proto)
        return graph_proto


def full_name(variable):
    """A variable's name in a name-based checkpoint: its full name when partitioned."""
    info = variable._get_save_slice_info()
    return info.full_name if info is not None else variable.op.name


def mark_checkpoint_values(graph_proto):
    """has_checkpoint_values: a node with attributes or slots, and every node above one."""
    parents, marked = {}, set()
    for node_id, node in enumerate(graph_proto.nodes):
        if node.attributes or node.slot_variables:
            marked.add(node_id)
        for child in node.children:
            parents.setdefault(child.node_id, set()).add(node_id)
    to_visit = set(marked)
    while to_visit:
        for parent in parents.pop(to_visit.pop(), ()):
            if parent not in marked:
                marked.add(parent)
                to_visit.add(parent)
    for node_id, node in enumerate(graph_proto.nodes):
        node.has_checkpoint_values.value = node_id in marked
