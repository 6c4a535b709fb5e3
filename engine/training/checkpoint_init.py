"""tf.train.init_from_checkpoint: variables whose initializers restore tensors of a checkpoint
(TensorFlow's checkpoint_utils.py), by variable, by name in the variable store, or scope to
scope ("scope/": "other_scope/", "/": "/"). Each initializer becomes a RestoreV2 on the CPU
(named checkpoint_initializer) assigned to the variable, as TensorFlow rewrites it."""

import os

from engine.checkpoint.reader import load_checkpoint
from engine.checkpoint.state import latest_checkpoint
from engine.ops import array_ops, state_ops
from engine.ops.op_def_library import apply_op
from engine.ops.variable_scope import stored_variables
from engine.ops.variables import ResourceVariable, Variable
from engine.platform import tf_logging


def _checkpoint_filename(ckpt_dir_or_file):
    if os.path.isdir(ckpt_dir_or_file):
        return latest_checkpoint(ckpt_dir_or_file)
    return ckpt_dir_or_file


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name, slice_spec,
                                name="checkpoint_initializer"):
    graph = variable.graph
    with graph.device(variable.device), graph.device("/cpu:0"):
        restore_op = apply_op("RestoreV2", prefix=ckpt_file, tensor_names=[tensor_name],
                              shape_and_slices=[slice_spec],
                              dtypes=[variable.dtype.base_dtype], name=name)
    restore_op = restore_op[0] if isinstance(restore_op, (list, tuple)) else restore_op
    if isinstance(variable, ResourceVariable):
        with graph.device(variable.device):
            restored = array_ops.identity(restore_op)
            init_op = apply_op("AssignVariableOp", resource=variable.handle, value=restored)
    else:
        init_op = state_ops.assign(variable._ref(), restore_op,
                                   validate_shape=variable.shape.is_fully_defined())
    variable._initializer_op = init_op if isinstance(variable, ResourceVariable) else init_op.op
    restore_op.set_shape(variable.shape)
    variable._initial_value = restore_op


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Initializes the variables assignment_map names from the checkpoint's tensors."""
    ckpt_file = _checkpoint_filename(ckpt_dir_or_file)
    variable_map = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    if hasattr(assignment_map, "items"):
        assignment_map = assignment_map.items()
    store_vars = stored_variables()
    for tensor_name_in_ckpt, current_var_or_name in sorted(assignment_map,
                                                           key=lambda pair: pair[0]):
        if isinstance(current_var_or_name, Variable):
            var = current_var_or_name
        else:
            var = store_vars.get(current_var_or_name, None)
        if var is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError("Tensor %s is not found in %s checkpoint %s"
                                 % (tensor_name_in_ckpt, ckpt_dir_or_file, variable_map))
            if not var.shape.is_compatible_with(variable_map[tensor_name_in_ckpt]):
                raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor "
                                 "%s (%s) from checkpoint reader."
                                 % (var.name, str(var.shape), tensor_name_in_ckpt,
                                    str(variable_map[tensor_name_in_ckpt])))
            _set_checkpoint_initializer(var, ckpt_file, tensor_name_in_ckpt, "")
            tf_logging.debug("Initialize variable %s from checkpoint %s with %s", var.name,
                             ckpt_dir_or_file, tensor_name_in_ckpt)
            continue
        scopes = ""
        if "/" in current_var_or_name:
            scopes = current_var_or_name[:current_var_or_name.rindex("/")]
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError("Assignment map with scope only name {} should map to scope only "
                             "{}. Should be 'scope/': 'other_scope/'.".format(
                                 scopes, tensor_name_in_ckpt))
        scope_variables = {name for name in store_vars
                           if not scopes or name.startswith(scopes + "/")}
        for var_name in sorted(scope_variables):
            full_tensor_name = var_name[len(scopes):]
            if current_var_or_name != "/":
                full_tensor_name = full_tensor_name[1:]
            if tensor_name_in_ckpt != "/":
                full_tensor_name = tensor_name_in_ckpt + full_tensor_name
            if full_tensor_name.endswith("/"):
                full_tensor_name = full_tensor_name[:-1]
            if full_tensor_name not in variable_map:
                raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint"
                                 % (full_tensor_name, var_name[len(scopes) + 1:],
                                    tensor_name_in_ckpt, ckpt_dir_or_file))
            _set_checkpoint_initializer(store_vars[var_name], ckpt_file, full_tensor_name, "")
            tf_logging.debug("Initialize variable %s from checkpoint %s with %s", var_name,
                             ckpt_dir_or_file, full_tensor_name)
