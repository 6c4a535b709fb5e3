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


def _ref_scatter(op_type, default_locking):
    """tf.scatter_* on a ref variable (or ref tensor), as TF 1.x's state_ops."""
    def scatter(ref, indices, updates, use_locking=default_locking, name=None):
        if not ref.dtype._is_ref_dtype:
            raise NotImplementedError(f"tf.{scatter.__name__} on a resource variable is not "
                                      f"supported by the engine yet")
        return apply_op(op_type, ref=ref, indices=indices, updates=updates,
                        use_locking=use_locking, name=name)
    return scatter


scatter_update = _ref_scatter("ScatterUpdate", True)
scatter_add = _ref_scatter("ScatterAdd", False)
scatter_sub = _ref_scatter("ScatterSub", False)
scatter_mul = _ref_scatter("ScatterMul", False)
scatter_div = _ref_scatter("ScatterDiv", False)
scatter_min = _ref_scatter("ScatterMin", False)
scatter_max = _ref_scatter("ScatterMax", False)
scatter_nd_update = _ref_scatter("ScatterNdUpdate", True)
scatter_nd_add = _ref_scatter("ScatterNdAdd", False)
scatter_nd_sub = _ref_scatter("ScatterNdSub", False)
for _fn, _name in ((scatter_update, "scatter_update"), (scatter_add, "scatter_add"),
                   (scatter_sub, "scatter_sub"), (scatter_mul, "scatter_mul"),
                   (scatter_div, "scatter_div"), (scatter_min, "scatter_min"),
                   (scatter_max, "scatter_max"), (scatter_nd_update, "scatter_nd_update"),
                   (scatter_nd_add, "scatter_nd_add"), (scatter_nd_sub, "scatter_nd_sub")):
    _fn.__name__ = _fn.__qualname__ = _name


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return apply_op("TensorScatterUpdate", tensor=tensor, indices=indices, updates=updates,
                    name=name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    return apply_op("TensorScatterAdd", tensor=tensor, indices=indices, updates=updates,
                    name=name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    return apply_op("TensorScatterSub", tensor=tensor, indices=indices, updates=updates,
                    name=name)


def _check_bad_indices_policy(policy):
    if policy not in ("", "DEFAULT", "ERROR"):
        raise NotImplementedError(f"bad_indices_policy={policy!r} is not supported by the "
                                  "engine yet")


def tensor_scatter_nd_max(tensor, indices, updates, bad_indices_policy="", name=None):
    _check_bad_indices_policy(bad_indices_policy)
    return apply_op("TensorScatterMax", tensor=tensor, indices=indices, updates=updates,
                    bad_indices_policy=bad_indices_policy, name=name)


def tensor_scatter_nd_min(tensor, indices, updates, bad_indices_policy="", name=None):
    _check_bad_indices_policy(bad_indices_policy)
    return apply_op("TensorScatterMin", tensor=tensor, indices=indices, updates=updates,
                    bad_indices_policy=bad_indices_policy, name=name)
