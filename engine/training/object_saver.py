"""Object-based saving in graph mode: TensorFlow's TrackableSaver and its load statuses.

save() builds, once per object graph, the ops TensorFlow's MultiDeviceSaver builds (a sharded
SaveV2 of every variable by its object path plus the serialized TrackableObjectGraph, merged
by MergeV2Checkpoints) and runs them with the prefix and the graph proto fed. restore() matches
the checkpoint's object graph to the Python objects by local names, from the root, and builds
RestoreV2 ops (one per slot variable, one for the rest, each checkpoint key once per saver);
the status runs them. A checkpoint without an object graph (tf.compat.v1.train.Saver's) is
restored by variable names. A matched optimizer's slots and beta powers made after restore()
get their restore ops as they are made (TensorFlow's deferred restorations).
"""

import os
import weakref

from google.protobuf.message import DecodeError

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.checkpoint.reader import CheckpointReader
from engine.framework import dtypes
from engine.framework.default_graph import get_default_session, init_scope
from engine.framework.graph import get_default_graph
from engine.ops.array_ops import identity, stack
from engine.ops.constant_op import constant
from engine.ops.op_def_library import apply_op
from engine.ops.optimizers import VARIABLE_CREATED_CALLBACKS, Optimizer
from engine.ops.saver import Saver
from engine.ops import state_ops
from engine.ops.variables import ResourceVariable, Variable
from engine.proto import trackable_object_graph_pb2
from engine.training.trackable_graph import ObjectGraph, children, full_name

CPU0 = "/device:CPU:0"


def get_session():
    """The default session (checkpoint.get_session), or None."""
    return get_default_session()


def _slice_spec(variable):
    info = variable._get_save_slice_info()
    return info.spec if info is not None else ""


def _serialized_tensor(graph, variable):
    """What a variable saves: a resource variable's value read without copy, identity on CPU
    (ResourceVariable._serialize_to_tensors); a ref variable's `<name>/read` snapshot."""
    if not isinstance(variable, ResourceVariable):
        return variable.value()
    with graph.device(variable.device):
        with graph.name_scope("Read"):
            apply_op("DisableCopyOnRead", resource=variable.handle, name="DisableCopyOnRead")
            value = variable._read_variable_op()
        value = identity(value)
        with graph.device(CPU0):
            return identity(value)


def serialized_handle_value(graph, handle, dtype):
    """_serialized_tensor of a resource variable known by its handle alone (the graph a
    SavedModel's save function reads its variables in)."""
    with graph.name_scope("Read"):
        apply_op("DisableCopyOnRead", resource=handle, name="DisableCopyOnRead")
        value = apply_op("ReadVariableOp", resource=handle, dtype=dtype, name="ReadVariableOp")
    value = identity(value)
    with graph.device(CPU0):
        return identity(value)


def save_ops(graph, prefix, names, slices, tensors):
    """MultiDeviceSaver.save: one shard on CPU:0 in `<prefix>_temp/part`, then merged into
    `prefix`; returns the prefix once written. `tensors` are read after the prefix is
    joined, as TensorFlow orders them."""
    with graph.device("CPU"):
        is_s3 = apply_op("StaticRegexFullMatch", input=prefix, pattern="^s3://.*",
                         name="StaticRegexFullMatch")
        suffix = apply_op("Select", condition=is_s3, t=constant(".part"),
                          e=constant("_temp/part"), name="Select")
        temporary = apply_op("StringJoin", inputs=[prefix, suffix], name="StringJoin")
    tensors = tensors()
    num_shards = constant(1, name="num_shards")
    with graph.device(CPU0):
        shard = apply_op("ShardedFilename", basename=temporary, shard=0,
                         num_shards=num_shards, name="ShardedFilename")
        save = apply_op("SaveV2", prefix=shard, tensor_names=names, shape_and_slices=slices,
                        tensors=tensors, name="SaveV2")
        with graph.control_dependencies([save]):
            shards = stack([shard], name="MergeV2Checkpoints/checkpoint_prefixes")
        merge = apply_op("MergeV2Checkpoints", checkpoint_prefixes=shards,
                         destination_prefix=prefix, delete_old_dirs=True,
                         name="MergeV2Checkpoints")
    with graph.device("/cpu:0"), graph.control_dependencies([merge]):
        return identity(prefix)


class TrackableSaver:
    """Saves and restores a root object and what it tracks (checkpoint.TrackableSaver)."""

    def __init__(self, root):
        self._root = root
        self._object_graph_feed = self._prefix_feed = None
        self._last_save_graph, self._save_op = None, None
        self._restore_prefix = None
        self._restore_op_cache = {}  # checkpoint key -> its restore ops

    def object_graph(self):
        return ObjectGraph(self._root, get_default_graph())

    def save(self, file_prefix, session=None):
        """Writes the checkpoint at file_prefix; returns the prefix (as TensorFlow, a str)."""
        graph = get_default_graph()
        if self._object_graph_feed is None:
            with graph.device("/cpu:0"):
                self._object_graph_feed = constant("", dtype=dtypes.string)
                self._prefix_feed = constant("", dtype=dtypes.string)
        os.makedirs(os.path.dirname(file_prefix) or ".", exist_ok=True)
        objects = self.object_graph()
        graph_proto = objects.proto()
        if self._last_save_graph != graph_proto:
            self._save_op = self._save_ops(graph, objects)
            self._last_save_graph = graph_proto
        session = session or get_session()
        if session is None:
            raise RuntimeError(f"Unable to save checkpoint to \"{file_prefix}\" in graph mode "
                               "without a default session. Please use `with tf.Session():` to "
                               "create a session.")
        path = session.run(self._save_op, feed_dict={
            self._prefix_feed: file_prefix,
            self._object_graph_feed: graph_proto.SerializeToString()})
        return path.decode() if isinstance(path, bytes) else str(path)

    def _save_ops(self, graph, objects):
        """MultiDeviceSaver.save: one shard on CPU:0 in `<prefix>_temp/part`, then merged."""
        saved = objects.variables()
        names = [key for key, _ in saved] + [OBJECT_GRAPH_KEY]
        slices = [_slice_spec(variable) for _, variable in saved] + [""]
        # A resource variable's value is read when the shard is written, after the prefix.
        return save_ops(graph, self._prefix_feed, names, slices, lambda: [
            _serialized_tensor(graph, variable) for _, variable in saved] + [self._object_graph_feed])

    def restore(self, save_path):
        """The load status of save_path (None: InitializationOnlyStatus)."""
        if save_path is None:
            return InitializationOnlyStatus(self._root)
        reader = CheckpointReader(save_path)
        if not reader.has_tensor(OBJECT_GRAPH_KEY):
            return NameBasedSaverStatus(self._root, save_path, reader)
        graph_proto = trackable_object_graph_pb2.TrackableObjectGraph()
        try:
            graph_proto.ParseFromString(reader.get_tensor(OBJECT_GRAPH_KEY))
        except DecodeError as error:
            raise ValueError(f"{OBJECT_GRAPH_KEY} is not a TrackableObjectGraph "
                             f"({error})") from None
        if self._restore_prefix is None:
            with get_default_graph().device("/cpu:0"):
                self._restore_prefix = constant("model")
        coordinator = _RestoreCoordinator(self, graph_proto, save_path, reader)
        coordinator.match()
        return CheckpointLoadStatus(coordinator)

    def restore_ops(self, entries):
        """The ops restoring [(checkpoint key, variable)] in one RestoreV2, or the cached ones."""
        graph = get_default_graph()
        new = [(key, variable) for key, variable in entries if key not in self._restore_op_cache]
        if new:
            with graph.device(CPU0):
                restored = apply_op(
                    "RestoreV2", prefix=self._restore_prefix,
                    tensor_names=[key for key, _ in new],
                    shape_and_slices=[_slice_spec(variable) for _, variable in new],
                    dtypes=[variable.dtype.base_dtype for _, variable in new], name="RestoreV2")
            restored = restored if isinstance(restored, (list, tuple)) else [restored]
            for (key, variable), value in zip(new, restored):
                self._restore_op_cache[key] = [_assign(graph, variable, value)]
        return [op for key, _ in entries for op in self._restore_op_cache[key]]


def _assign(graph, variable, value):
    if isinstance(variable, ResourceVariable):
        with graph.device(CPU0):
            return apply_op("AssignVariableOp", resource=variable.handle, value=identity(value),
                            name="AssignVariableOp")
    ref = variable._ref()
    return state_ops.assign(ref, value, validate_shape=ref.shape.is_fully_defined())


def list_objects(root):
    """Every object the root tracks, slot variables included, in node order."""
    return ObjectGraph(root, get_default_graph()).objects


class _RestoreCoordinator:
    """The checkpoint's object graph matched against the Python objects (by proto node id)."""

    def __init__(self, saver, graph_proto, save_path, reader):
        self.saver, self.proto, self.save_path, self.reader = saver, graph_proto, save_path, reader
        self.object_by_proto_id = {0: saver._root}
        self.restore_ops = []
        self.unresolved_slots = {}  # slot node id -> (optimizer id, original id, slot name)
        self._slots_of = {}  # optimizer or variable node id -> its slot node ids
        for optimizer_id, node in enumerate(graph_proto.nodes):
            for ref in node.slot_variables:
                self.unresolved_slots[ref.slot_variable_node_id] = (
                    optimizer_id, ref.original_variable_node_id, ref.slot_name)
                for end in (optimizer_id, ref.original_variable_node_id):
                    self._slots_of.setdefault(end, []).append(ref.slot_variable_node_id)
        self.matched_python = set()
        self.visited = {}  # proto id -> when first visited
        self.graph = get_default_graph()
        self._watch_optimizers()

    def _watch_optimizers(self):
        """Matches what a matched optimizer makes later (slots, beta powers) when it is made."""
        coordinator = weakref.ref(self)

        def created(optimizer, variable):
            this = coordinator()
            if this is None or this.complete():
                VARIABLE_CREATED_CALLBACKS.remove(created)
            elif variable.graph is this.graph and any(
                    obj is optimizer for obj in this.object_by_proto_id.values()):
                with init_scope():
                    this.match()

        VARIABLE_CREATED_CALLBACKS.append(created)

    def complete(self):
        return len(self.object_by_proto_id) == len(self.proto.nodes)

    def match(self):
        """Walks the proto from the root (again: objects made since are matched now) and adds
        restore ops for what is newly matched: slot variables one by one as their variable
        is reached, the rest in one RestoreV2 sorted by key."""
        graph = get_default_graph()
        queue, seen, batch = [0], {0}, []
        while queue:
            proto_id = queue.pop(0)
            obj = self.object_by_proto_id[proto_id]
            node = self.proto.nodes[proto_id]
            if isinstance(obj, Variable) and id(obj) not in self.matched_python:
                for attribute in node.attributes:
                    if attribute.name == "VARIABLE_VALUE":
                        batch.append((attribute.checkpoint_key, obj))
                self.matched_python.add(id(obj))
            named = dict(children(obj, graph))
            for ref in node.children:
                child = self.object_by_proto_id.get(ref.node_id)
                if child is None and ref.local_name in named:
                    child = self.object_by_proto_id[ref.node_id] = named[ref.local_name]
                if child is not None and ref.node_id not in seen:
                    seen.add(ref.node_id)
                    queue.append(ref.node_id)
            self._restore_slots(proto_id)
        if batch:
            self.restore_ops.extend(self.saver.restore_ops(sorted(batch, key=lambda e: e[0])))

    def _restore_slots(self, proto_id):
        """A slot is restored when the later of its variable and optimizer is visited: for a
        variable, its slots in proto order; for an optimizer, those of the variables visited
        before it, in their visiting order (restore.py's slot and deferred restorations)."""
        self.visited.setdefault(proto_id, len(self.visited))
        pending = [(slot_id, self.unresolved_slots[slot_id])
                   for slot_id in self._slots_of.get(proto_id, ())
                   if slot_id in self.unresolved_slots]
        pending = [(slot_id, entry) for slot_id, entry in pending
                   if entry[0] in self.visited and entry[1] in self.visited]
        pending.sort(key=lambda item: self.visited[item[1][1]])
        for slot_id, (optimizer_id, original_id, slot_name) in pending:
            optimizer = self.object_by_proto_id.get(optimizer_id)
            original = self.object_by_proto_id.get(original_id)
            if not isinstance(optimizer, Optimizer) or not isinstance(original, Variable):
                continue
            slot = optimizer.get_slot(original, slot_name)
            if slot is None:
                continue  # made later by minimize(): matched when the status is next used
            del self.unresolved_slots[slot_id]
            self.object_by_proto_id[slot_id] = slot
            self.matched_python.add(id(slot))
            key = self.proto.nodes[slot_id].attributes[0].checkpoint_key
            self.restore_ops.extend(self.saver.restore_ops([(key, slot)]))

    def node_names(self):
        """ObjectGraphProtoPrettyPrinter.node_names: "(root).opt.beta1_power" and slots."""
        names, queue = {0: "(root)"}, [0]
        while queue:
            node_id = queue.pop(0)
            for child in self.proto.nodes[node_id].children:
                if child.node_id not in names:
                    names[child.node_id] = f"{names[node_id]}.{child.local_name}"
                    queue.append(child.node_id)
        for node_id, node in enumerate(self.proto.nodes):
            for ref in node.slot_variables:
                names[ref.slot_variable_node_id] = (
                    f"{names.get(node_id)}'s state '{ref.slot_name}' for "
                    f"{names.get(ref.original_variable_node_id)}")
        return names


def _session(session):
    return session if session is not None else get_session()


class _LoadStatus:
    def expect_partial(self):
        """Silence warnings about incomplete checkpoint restores."""
        return self


class CheckpointLoadStatus(_LoadStatus):
    """What Checkpoint.restore returns for an object-based checkpoint."""

    def __init__(self, coordinator):
        self._checkpoint = coordinator
        self._feed_dict = {coordinator.saver._restore_prefix: coordinator.save_path}

    def _unmatched_python_objects(self):
        self._checkpoint.match()
        matched = {id(obj) for obj in self._checkpoint.object_by_proto_id.values()}
        return [obj for obj in list_objects(self._checkpoint.saver._root)
                if isinstance(obj, Variable) and id(obj) not in matched]

    def assert_consumed(self):
        """AssertionError unless every object and every checkpointed value was matched."""
        self.assert_existing_objects_matched()
        names = None
        for node_id, node in enumerate(self._checkpoint.proto.nodes):
            if node.attributes and node_id not in self._checkpoint.object_by_proto_id:
                names = names or self._checkpoint.node_names()
                raise AssertionError(f"Unresolved object in checkpoint {names[node_id]}: {node}")
        if self._checkpoint.unresolved_slots:
            raise AssertionError(
                f"Unresolved slot restorations: {self._checkpoint.unresolved_slots}")
        return self

    def assert_existing_objects_matched(self):
        """AssertionError when an existing variable has no value in the checkpoint."""
        unused = self._unmatched_python_objects()
        if unused:
            shown = min(10, len(unused))
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed "
                "values, likely due to changes in the Python program. Showing "
                f"{shown} of {len(unused)} unmatched objects: {unused[:shown]}")
        return self

    def assert_nontrivial_match(self):
        """AssertionError when nothing but the root matched."""
        self._checkpoint.match()
        if len(self._checkpoint.object_by_proto_id) <= 1:
            unused = self._unmatched_python_objects()
            if unused:
                raise AssertionError(
                    "Nothing except the root object matched a checkpointed value. Typically "
                    "this means that the checkpoint does not match the Python program. The "
                    f"following objects have no matching checkpointed value: {unused}")
            raise AssertionError("Nothing to load. No dependencies have been added to "
                                 f"{self._checkpoint.saver._root} yet.")
        return self

    def run_restore_ops(self, session=None):
        """Runs the restore ops (the default session unless one is given)."""
        self._checkpoint.match()
        _session(session).run(self._checkpoint.restore_ops, feed_dict=self._feed_dict)

    def initialize_or_restore(self, session=None):
        """Restores what the checkpoint holds and initializes the other variables."""
        session = _session(session)
        self._checkpoint.match()
        matched = {id(obj) for obj in self._checkpoint.object_by_proto_id.values()}
        initializers = [obj.initializer for obj in list_objects(self._checkpoint.saver._root)
                        if isinstance(obj, Variable) and id(obj) not in matched]
        self.run_restore_ops(session)
        session.run(initializers)


class InitializationOnlyStatus(_LoadStatus):
    """What restore(None) returns: initialize_or_restore initializes; the rest fails."""

    def __init__(self, root):
        self._root = root

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def run_restore_ops(self, session=None):
        raise AssertionError("No checkpoint specified, so no restore ops are available "
                             "(save_path=None to Saver.restore).")

    def initialize_or_restore(self, session=None):
        """Runs the initializers of every variable the root tracks."""
        _session(session).run([obj.initializer for obj in list_objects(self._root)
                               if isinstance(obj, Variable)])


class NameBasedSaverStatus(_LoadStatus):
    """Restores a tf.compat.v1.train.Saver checkpoint by variable names."""

    def __init__(self, root, save_path, reader):
        self._root, self._save_path, self._reader = root, save_path, reader
        self._optionally_restored = []
        self._restored = set()

    def add_to_optionally_restored(self, var):
        self._optionally_restored.append(var)

    def _variables(self):
        return [obj for obj in list_objects(self._root) if isinstance(obj, Variable)]

    def assert_consumed(self):
        unused = [var for var in self._variables()
                  if not self._reader.has_tensor(full_name(var))
                  and all(var is not other for other in self._optionally_restored)]
        if unused:
            listed = "".join(f"\n    {var}: ['VARIABLE_VALUE']" for var in unused)
            raise AssertionError(f"Some objects had attributes which were not restored: {listed}")
        for var in self._variables():
            if id(var) not in self._restored and self._reader.has_tensor(full_name(var)):
                raise AssertionError(f"Object not restored: {var}")
        return self

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def run_restore_ops(self, session=None):
        """A tf.compat.v1.train.Saver over the variables the checkpoint names, restored."""
        found = {}
        for var in self._variables():
            if id(var) not in self._restored and self._reader.has_tensor(full_name(var)):
                found[full_name(var)] = var
                self._restored.add(id(var))
        if found:
            with get_default_graph().device("/cpu:0"):
                saver = Saver(found)
            saver.restore(_session(session), self._save_path)

    def initialize_or_restore(self, session=None):
        self.run_restore_ops(session)
