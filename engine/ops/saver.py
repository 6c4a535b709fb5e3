"""tf.train.Saver as TensorFlow 1.x builds it: save/SaveV2, save/RestoreV2, save/Assign_N, save/restore_all.

The graph is TensorFlow's (tensorflow/python/training/saver.py, V2 format): a filename
placeholder `save/Const`, one SaveV2 over the variables sorted by name and
`save/control_dependency`, one RestoreV2 on CPU:0 feeding an Assign per variable; with
sharded=True one SaveV2 per device into a temporary prefix, merged by MergeV2Checkpoints.
save() runs it, writes the `checkpoint` state file and the .meta, and deletes checkpoints
beyond max_to_keep, so TensorFlow reads what the engine saves and the other way round.
"""

import os
import time

from engine.framework import dtypes, errors
from engine.checkpoint import state as checkpoint_state
from engine.checkpoint.bundle import data_path, index_path
from engine.framework.devices import DeviceSpec
from engine.framework.graph import GraphKeys, get_default_graph
from engine.ops import state_ops
from engine.ops.array_ops import identity, placeholder_with_default, stack
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import group, with_dependencies
from engine.ops.meta_graph import export_meta_graph, import_scoped_meta_graph
from engine.ops.op_def_library import apply_op
from engine.ops.partitioned_variables import PartitionedVariable
from engine.ops.variables import RefVariable, ResourceVariable, Variable
from engine.proto import saver_pb2


def _saveables(var_list):
    """[(checkpoint name, variable)] sorted by name, as TensorFlow's op_list_to_dict orders them.
    A partitioned variable's parts all take its full name, in offset order, each saved as
    its slice (_slice_spec)."""
    if var_list is None:
        graph = get_default_graph()
        var_list = graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + \
            graph.get_collection(GraphKeys.SAVEABLE_OBJECTS)
    if isinstance(var_list, dict):
        named = []
        for name, value in var_list.items():
            if isinstance(value, (list, tuple, PartitionedVariable)):
                _check_slices(list(value))
                named.extend((name, part) for part in value)
            else:
                named.append((name, value))
    else:
        named = []
        for variable in var_list:
            if isinstance(variable, (list, tuple)):
                raise TypeError("Saver's var_list holds a nested list; pass a partitioned "
                                "variable's parts in a dict under their full name")
            for part in (list(variable) if isinstance(variable, PartitionedVariable)
                         else [variable]):
                info = part._get_save_slice_info() if isinstance(part, Variable) else None
                named.append((info.full_name if info else part.op.name, part))
    seen = {}
    for name, variable in named:
        if name in seen and not (_slice_spec(variable) and _slice_spec(seen[name][-1])):
            raise ValueError(f"At least two variables have the same name: {name}")
        seen.setdefault(name, []).append(variable)
    return [(name, part) for name, parts in sorted(seen.items()) for part in parts]


def _check_slices(parts):
    """TensorFlow's saveable_objects_for_op over a list: slices of one variable, only."""
    slice_name = None
    for part in parts:
        if not isinstance(part, Variable):
            raise ValueError("Slices must all be Variables: %s" % part)
        info = part._get_save_slice_info()
        if info is None:
            raise ValueError("Slices must all be slices: %s" % part)
        if slice_name is None:
            slice_name = info.full_name
        elif slice_name != info.full_name:
            raise ValueError(f"Slices must all be from the same tensor: {slice_name} != "
                             f"{info.full_name}")


def _slice_spec(variable):
    """SaveV2's shape_and_slices entry: a part's "<full shape> <offset>,<length>:...", else
    "" for a whole variable."""
    info = variable._get_save_slice_info() if isinstance(variable, Variable) else None
    return info.spec if info is not None else ""


def _save_tensor(variable):
    if isinstance(variable, ResourceVariable):
        return variable._graph_element  # its Read/ReadVariableOp, as TensorFlow's saveable reads it
    return variable._ref() if isinstance(variable, RefVariable) else variable


def _restore(variable, value):
    """Assign the restored value (ref variables) or AssignVariableOp it (resource variables)."""
    if isinstance(variable, ResourceVariable):
        return apply_op("AssignVariableOp", resource=variable.handle, value=identity(value),
                        name="AssignVariableOp")
    ref = variable._ref() if isinstance(variable, RefVariable) else variable
    return state_ops.assign(ref, value, validate_shape=ref.shape.is_fully_defined())


def _dtype_of(variable):
    return dtypes.as_dtype(variable.dtype).base_dtype


class Saver:
    """Saves and restores variables in TensorFlow's checkpoint format (tf.compat.v1.train.Saver)."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=saver_pb2.SaverDef.V2, pad_step_number=False,
                 save_relative_paths=False, filename=None):
        self._var_list, self._sharded, self._name, self._filename = var_list, sharded, name, filename
        self._max_to_keep, self._hours = max_to_keep, keep_checkpoint_every_n_hours
        self._allow_empty, self._pad_step_number = allow_empty, pad_step_number
        self._save_relative_paths = save_relative_paths
        self._last_checkpoints = []  # [(prefix, time)], oldest first
        self._to_delete = []
        self._next_keep_time = time.time() + keep_checkpoint_every_n_hours * 3600
        self.saver_def = saver_def
        self._is_empty = False
        if saver_def is None and not defer_build:
            self.build()

    def build(self):
        if self.saver_def is not None:
            return
        saveables = _saveables(self._var_list)
        if not saveables:
            if not self._allow_empty:
                raise ValueError("No variables to save")
            self._is_empty = True
            return
        graph = get_default_graph()
        with graph.name_scope(self._name or "save"):
            filename = placeholder_with_default(self._filename or "model", shape=[], name="filename")
            filename = placeholder_with_default(filename, shape=[], name="Const")
            if self._sharded:
                save_tensor, restore_op = self._sharded_ops(graph, filename, saveables)
            else:
                save_tensor = self._save_ops(filename, saveables)
                restore_op = group(*self._restore_ops(graph, filename, saveables), name="restore_all")
        self.saver_def = saver_pb2.SaverDef(
            filename_tensor_name=filename.name, save_tensor_name=save_tensor.name,
            restore_op_name=restore_op.name, max_to_keep=self._max_to_keep or 0,
            sharded=self._sharded, keep_checkpoint_every_n_hours=self._hours,
            version=saver_pb2.SaverDef.V2)
        graph.add_to_collection(GraphKeys.SAVERS, self)

    def _save_ops(self, filename, saveables):
        names = [name for name, _ in saveables]
        save = apply_op("SaveV2", prefix=filename, tensor_names=names,
                        shape_and_slices=[_slice_spec(v) for _, v in saveables],
                        tensors=[_save_tensor(v) for _, v in saveables], name="SaveV2")
        return with_dependencies([save], filename)

    def _restore_ops(self, graph, filename, saveables, name="RestoreV2"):
        names = [name for name, _ in saveables]
        with graph.device("/device:CPU:0"):
            restored = apply_op("RestoreV2", prefix=filename, tensor_names=names,
                                shape_and_slices=[_slice_spec(v) for _, v in saveables],
                                dtypes=[_dtype_of(v) for _, v in saveables], name=name)
        restored = restored if isinstance(restored, (list, tuple)) else [restored]
        assigns = []
        for (_, variable), value in zip(saveables, restored):
            with graph.device(variable.device):
                assigns.append(_restore(variable, value))
        return assigns

    def _sharded_ops(self, graph, filename, saveables):
        """One SaveV2 per device into `<prefix>_temp/part-*`, merged into the prefix (V2 sharded)."""
        by_device = {}
        for name, variable in saveables:
            by_device.setdefault(variable.device or "", []).append((name, variable))
        devices = sorted(by_device)
        with graph.device("CPU"):  # TensorFlow writes s3:// shards beside the prefix, others in a temp dir
            is_s3 = apply_op("StaticRegexFullMatch", input=filename, pattern="^s3://.*",
                             name="StaticRegexFullMatch")
            suffix = apply_op("Select", condition=is_s3, t=constant(".part"), e=constant("_temp/part"),
                              name="Select")
            temporary = apply_op("StringJoin", inputs=[filename, suffix], name="StringJoin")
        num_shards = constant(len(devices), name="num_shards")
        shard_prefixes, saves = [], []
        for shard, device in enumerate(devices):
            with graph.device(_cpu0(device)):
                shard_prefix = apply_op("ShardedFilename", basename=temporary, shard=shard,
                                        num_shards=num_shards, name="ShardedFilename")
                shard_prefixes.append(shard_prefix)
                saves.append(self._save_ops(shard_prefix, by_device[device]))
        with graph.control_dependencies([save.op for save in saves]):
            with graph.device(_cpu0(devices[-1])):
                merge = apply_op("MergeV2Checkpoints",
                                 checkpoint_prefixes=stack(shard_prefixes, name="MergeV2Checkpoints/checkpoint_prefixes"),
                                 destination_prefix=filename, delete_old_dirs=True, name="MergeV2Checkpoints")
                with graph.control_dependencies([merge]):
                    save_tensor = identity(filename)
        restores = []
        for shard, device in enumerate(devices):
            with graph.device(device):
                restores.append(group(*self._restore_ops(graph, filename, by_device[device]),
                                      name="restore_shard"))
        return save_tensor, group(*restores, name="restore_all")

    # -- running it --

    @property
    def last_checkpoints(self):
        return [path for path, _ in self._last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        self._last_checkpoints = [(path, time.time()) for path in checkpoint_paths
                                  if checkpoint_state.checkpoint_exists(path)]

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Write the variables to `save_path[-global_step]`; returns that prefix."""
        if global_step is not None:
            if not isinstance(global_step, (int,)):
                global_step = int(sess.run(global_step))
            checkpoint_file = (f"{save_path}-{global_step:08d}" if self._pad_step_number
                               else f"{save_path}-{global_step}")
        else:
            checkpoint_file = save_path
        save_dir = os.path.dirname(save_path)
        model_checkpoint_path = checkpoint_file
        if not self._is_empty:
            # SaveV2 makes the prefix's directory, as TensorFlow's BundleWriter does; a save
            # that fails where there is no such directory says so, as TensorFlow's Saver.
            try:
                result = sess.run(self.saver_def.save_tensor_name,
                                  {self.saver_def.filename_tensor_name: checkpoint_file})
            except (errors.FailedPreconditionError, errors.NotFoundError) as error:
                if save_dir and not os.path.isdir(save_dir):
                    raise ValueError(
                        f"Parent directory of {save_path} doesn't exist, can't save.") from error
                raise
            model_checkpoint_path = result.decode() if isinstance(result, bytes) else str(result)
            if write_state:
                self._record(model_checkpoint_path)
                checkpoint_state.update_checkpoint_state(
                    save_dir, model_checkpoint_path, self.last_checkpoints, latest_filename,
                    self._save_relative_paths)
                self._delete_old_checkpoints(meta_graph_suffix)
        if write_meta_graph:
            self.export_meta_graph(f"{checkpoint_file}.{meta_graph_suffix}",
                                   strip_default_attrs=strip_default_attrs)
        return model_checkpoint_path

    def _record(self, path):
        """Remember the new checkpoint; the oldest beyond max_to_keep waits to be deleted."""
        if not self._max_to_keep:
            return
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != path]
        self._last_checkpoints.append((path, time.time()))
        if len(self._last_checkpoints) > self._max_to_keep:
            self._to_delete.append(self._last_checkpoints.pop(0))

    def _delete_old_checkpoints(self, meta_graph_suffix):
        while self._to_delete:
            path, stamp = self._to_delete.pop(0)
            if stamp > self._next_keep_time:  # keep one every keep_checkpoint_every_n_hours
                self._next_keep_time += self._hours * 3600
                continue
            for file in checkpoint_state.checkpoint_files(path) + [f"{path}.{meta_graph_suffix}"]:
                if os.path.exists(file):
                    os.remove(file)

    def restore(self, sess, save_path):
        """Run the restore op with `save_path` as the filename."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        if not checkpoint_state.checkpoint_exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        if self._is_empty:
            return
        try:
            sess.run(self.saver_def.restore_op_name,
                     {self.saver_def.filename_tensor_name: save_path})
        except errors.NotFoundError as err:
            if _has_object_graph(save_path):
                raise  # an object-based checkpoint: TensorFlow's name-based restore says no more
            raise _wrap_restore_error(err, "a Variable name or other graph key that is "
                                           "missing") from None
        except errors.InvalidArgumentError as err:
            raise _wrap_restore_error(err, "a mismatch between the current graph and the "
                                           "graph") from None

    def as_saver_def(self):
        return self.saver_def

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                          export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                          strip_default_attrs=False, save_debug_info=False):
        return export_meta_graph(filename=filename, saver_def=self.saver_def,
                                 collection_list=collection_list, as_text=as_text,
                                 clear_devices=clear_devices)


def _has_object_graph(save_path):
    from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
    from engine.checkpoint.reader import NewCheckpointReader
    try:
        return NewCheckpointReader(save_path).has_tensor(OBJECT_GRAPH_KEY)
    except (errors.OpError, ValueError, OSError):
        return False


def _wrap_restore_error(err, extra_verbiage):
    """TensorFlow's _wrap_restore_error_with_msg: the same error class, its message prefixed."""
    message = (f"Restoring from checkpoint failed. This is most likely due to {extra_verbiage} "
               f"from the checkpoint. Please ensure that you have not altered the graph "
               f"expected based on the checkpoint. Original error:\n\n{err.message}")
    wrapped = type(err)(err.node_def, err.op, message)
    for field in ("node_name", "op_type", "kernel_message", "function_name"):
        setattr(wrapped, field, getattr(err, field, None))
    return wrapped


def _cpu0(device):
    """The CPU:0 of a device's task (saveable_object_util.set_cpu0)."""
    spec = DeviceSpec.from_string(device or "")
    return DeviceSpec(job=spec.job, replica=spec.replica, task=spec.task,
                      device_type="CPU", device_index=0).to_string()


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """tf.train.import_meta_graph: import a .meta (or a MetaGraphDef) into the default graph;
    a Saver over its SaverDef (over all global variables when it has none), or None."""
    saver_def = import_scoped_meta_graph(meta_graph_or_file, clear_devices, import_scope)
    if saver_def is not None:
        return Saver(saver_def=saver_def, max_to_keep=saver_def.max_to_keep)
    if get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES):
        return Saver()
    return None


__all__ = ["Saver", "data_path", "import_meta_graph", "index_path"]
