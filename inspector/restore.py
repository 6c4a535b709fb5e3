"""`run --restore CKPT`: give a graph's variables the values a checkpoint holds before running it.

Any GraphDef works, with or without a Saver in it: each variable node (VariableV2, or a
VarHandleOp by its shared_name) whose name the checkpoint holds is assigned from a
placeholder fed with the checkpoint's value, in one Session.run under `restore_from_checkpoint/`.
A partitioned variable's parts (`name/part_K`, as tf.get_variable names them) take the K-th
slice, by position, of the checkpoint's `name`. A TF2 checkpoint keeps its variables under
object paths; its object graph names the variable each key holds
(engine.checkpoint.object_graph), and a variable a SavedModel's graph holds twice
(`dense/kernel` and the signatures' `dense/kernel_1`) takes the value of the name before
TensorFlow's `_N` suffix.

A TF2 checkpoint into a graph with a saver (a TF2 SavedModel's saver_def, whose restore op
calls its `__inference__traced_restore` function) is restored as TensorFlow's loader restores
it: that restore op, run with the checkpoint's prefix fed to its filename tensor; it assigns
every variable the model tracks, those the graph holds twice included.
"""

from __future__ import annotations

import os
import re

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY, variable_keys
from parsers import model_files
from parsers.checkpoint import Checkpoint
from parsers.errors import InputError

_REF_VARIABLES = ("VariableV2", "Variable")
_PART = re.compile(r"^(?P<base>.+)/part_(?P<index>\d+)$")
_UNIQUIFIED = re.compile(r"^(?P<base>.+)_\d+$")


def _checkpoint_name(op):
    if op.type == "VarHandleOp":
        shared = op.get_attr("shared_name")
        shared = shared.decode() if isinstance(shared, bytes) else shared
        return shared or op.name
    return op.name


def _object_keys(checkpoint):
    """{variable name: key} of a TF2 checkpoint (empty for a name-based one)."""
    if OBJECT_GRAPH_KEY not in checkpoint:
        return {}
    try:
        return variable_keys(checkpoint.value(OBJECT_GRAPH_KEY).item())
    except (ValueError, AttributeError) as error:
        raise InputError(checkpoint.prefix, str(error)) from None


def _stored_value(checkpoint, name, object_keys=None):
    """(checkpoint name, value) for a variable: the tensor itself, a part's slice of it, or
    the key a TF2 checkpoint's object graph gives its name (or its name without `_N`)."""
    if name in checkpoint:
        return name, lambda: checkpoint.value(name)
    uniquified = _UNIQUIFIED.match(name)
    for candidate in (name, uniquified and uniquified["base"]):
        key = (object_keys or {}).get(candidate)
        if key is not None and key in checkpoint:
            return key, lambda: checkpoint.value(key)
    part = _PART.match(name)
    if part and part["base"] in checkpoint and checkpoint.info(part["base"]).partitioned:
        slices = checkpoint.slices(part["base"])
        index = int(part["index"])
        if index < len(slices):
            box = tuple(slice(start, start + length) for start, length in slices[index])
            return part["base"], lambda: checkpoint.value(part["base"])[box]
    return None, None


def saver_restore(graph, saver_def, prefix):
    """([restore op], {filename tensor: prefix}) when `graph` holds the saver `saver_def`
    describes, else None."""
    if saver_def is None or not saver_def.restore_op_name:
        return None
    try:
        restore = graph.get_operation_by_name(saver_def.restore_op_name)
        filename = graph.get_tensor_by_name(saver_def.filename_tensor_name)
    except (KeyError, ValueError):
        return None
    return [restore], {filename: prefix}


def _refuse_model_files(path):
    """A Keras .keras zip or .h5 file given as the checkpoint: said so (it read as a prefix
    whose .index is missing, "model.keras.index: no such file")."""
    if not os.path.isfile(path):  # a prefix, a directory; a pipe is never opened here
        return
    try:
        with open(path, "rb") as file:
            head = file.read(2056)  # HDF5's signature may follow a user block of up to 2048
    except OSError:
        return  # Checkpoint names what cannot be read
    if head.startswith(model_files.ZIP_MAGIC) or model_files.is_hdf5(head):
        raise InputError(path, "a Keras model file, not a TensorFlow checkpoint: --restore takes "
                               "a checkpoint prefix, its .index, a checkpoint directory or a "
                               "SavedModel")


def build_restore(graph, path, saver_def=None, through_saver=False):
    """(ops to run, {tensor: value} to feed) restoring every variable of `graph` the
    checkpoint holds: through the graph's own saver when `saver_def` names one in it and
    `through_saver` asks for it (a SavedModel's loader) or the checkpoint is a TF2 one, else
    each variable assigned from the tensor found by its name."""
    _refuse_model_files(path)
    checkpoint = Checkpoint(path)
    if through_saver or OBJECT_GRAPH_KEY in checkpoint:
        by_saver = saver_restore(graph, saver_def, checkpoint.prefix)
        if by_saver is not None:
            return by_saver
    object_keys = _object_keys(checkpoint)
    found = {}
    for op in graph.get_operations():
        if op.type in _REF_VARIABLES + ("VarHandleOp",):
            stored, read = _stored_value(checkpoint, _checkpoint_name(op), object_keys)
            if stored is not None:
                found[op] = stored, read
    if not found:
        raise InputError(checkpoint.prefix, "holds none of the graph's variables")
    return assign_variables(graph, checkpoint, found, "restore_from_checkpoint")


def assign_variables(graph, checkpoint, found, scope):
    """(assign ops, {placeholder: value}) giving each variable op of `found` ({op: (checkpoint
    key, read)}) the checkpoint's value, under name scope `scope`; InputError for a value
    whose dtype or shape does not fit its variable."""
    import engine as tf
    from engine.ops.op_def_library import apply_op

    assigns, feeds = [], {}
    with graph.as_default(), graph.name_scope(scope):
        for op, (stored, read) in found.items():
            name = _checkpoint_name(op)
            info = checkpoint.info(stored)
            dtype = tf.as_dtype(op.get_attr("dtype")).base_dtype
            if dtype.name != info.dtype:
                raise InputError(checkpoint.prefix, f"{name}: the checkpoint holds {info.dtype}, "
                                 f"the graph's variable is {dtype.name}")
            stored_value = read()
            shape = tf.TensorShape(op.get_attr("shape"))
            if not shape.is_compatible_with(tf.TensorShape(list(stored_value.shape))):
                raise InputError(checkpoint.prefix, f"{name}: the checkpoint's shape "
                                 f"{list(stored_value.shape)} does not fit the variable's {shape}")
            value = tf.placeholder(dtype, list(stored_value.shape))
            feeds[value] = stored_value
            with graph.device(op.device):
                if op.type == "VarHandleOp":
                    assigns.append(apply_op("AssignVariableOp", resource=op.outputs[0], value=value))
                else:
                    assigns.append(tf.assign(op.outputs[0], value, validate_shape=False).op)
    return assigns, feeds
