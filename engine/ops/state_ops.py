"""Ref-variable state ops: tf.assign, tf.assign_add, tf.assign_sub, is_variable_initialized."""

from engine.ops.op_def_library import apply_op


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    return apply_op("VariableV2", shape=shape, dtype=dtype, name=name, container=container,
                    shared_name=shared_name)


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """Assign for a ref tensor or ref variable; a resource variable assigns itself."""
    if ref.dtype._is_ref_dtype:
        return apply_op("Assign", ref=ref, value=value, use_locking=use_locking,
                        validate_shape=validate_shape, name=name)
    return ref.assign(value, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    if ref.dtype._is_ref_dtype:
        return apply_op("AssignAdd", ref=ref, value=value, use_locking=use_locking, name=name)
    return ref.assign_add(value, use_locking=use_locking, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    if ref.dtype._is_ref_dtype:
        return apply_op("AssignSub", ref=ref, value=value, use_locking=use_locking, name=name)
    return ref.assign_sub(value, use_locking=use_locking, name=name)


def is_variable_initialized(ref, name=None):
    if ref.dtype._is_ref_dtype:
        return apply_op("IsVariableInitialized", ref=ref, name=name)
    return ref.is_initialized(name=name)
