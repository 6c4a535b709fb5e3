"""`run --restore CKPT`: give a graph's variables the values a checkpoint holds before running it.

Any GraphDef works, with or without a Saver in it: each variable node (VariableV2, or a
VarHandleOp by its shared_name) whose name the checkpoint holds is assigned from a
placeholder fed with the checkpoint's value, in one Session.run under `restore_from_checkpoint/`.
A partitioned variable's parts (`name/part_K`, as tf.get_variable names them) take the K-th
slice, by position, of the checkpoint's `name`.
"""

from __future__ import annotations

import re

from parsers.checkpoint import Checkpoint
from parsers.errors import InputError

_REF_VARIABLES = ("VariableV2", "Variable")
_PART = re.compile(r"^(?P<base>.+)/part_(?P<index>\d+)$")


def _checkpoint_name(op):
    if op.type == "VarHandleOp":
        shared = op.get_attr("shared_name")
        shared = shared.decode() if isinstance(shared, bytes) else shared
        return shared or op.name
    return op.name


def _stored_value(checkpoint, name):
    """(checkpoint name, value) for a variable: the tensor itself, or a part's slice of it."""
    if name in checkpoint:
        return name, lambda: checkpoint.value(name)
    part = _PART.match(name)
    if part and part["base"] in checkpoint and checkpoint.info(part["base"]).partitioned:
        slices = checkpoint.slices(part["base"])
        index = int(part["index"])
        if index < len(slices):
            box = tuple(slice(start, start + length) for start, length in slices[index])
            return part["base"], lambda: checkpoint.value(part["base"])[box]
    return None, None


def build_restore(graph, path):
    """(assign ops, {placeholder: value}) restoring every variable of `graph` the checkpoint holds."""
    import engine as tf
    from engine.ops.op_def_library import apply_op

    checkpoint = Checkpoint(path)
    assigns, feeds = [], {}
    with graph.as_default(), graph.name_scope("restore_from_checkpoint"):
        for op in graph.get_operations():
            if op.type not in _REF_VARIABLES + ("VarHandleOp",):
                continue
            name = _checkpoint_name(op)
            stored, read = _stored_value(checkpoint, name)
            if stored is None:
                continue
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
    if not assigns:
        raise InputError(checkpoint.prefix, "holds none of the graph's variables")
    return assigns, feeds
