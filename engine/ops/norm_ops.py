"""tf.norm and tf.nn.l2_normalize, with their TF 1.x keywords (keep_dims=, dim=)."""

import numpy as np

from engine.framework import dtypes
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.functional_ops import map_fn
from engine.ops.op_def_library import apply_op


def _matrix_2_norm(tensor, axis):
    """The largest singular value over `axis` (two axes), the others kept: TensorFlow's graph
    (the axes made non-negative and the permutations found by map_fn at run time)."""
    rank = array_ops.rank(tensor)
    positive_axis = map_fn(lambda i: cond(i >= 0, lambda: i, lambda: i + rank),
                           convert_to_tensor(axis))
    axes = math_ops.range(rank)
    perm_before = array_ops.concat(
        [apply_op("ListDiff", x=axes, y=positive_axis, out_idx=dtypes.int32)[0],
         positive_axis], axis=0)
    perm_after = map_fn(
        lambda i: math_ops.cast(array_ops.squeeze(array_ops.where_v2(
            math_ops.equal(perm_before, i))), dtype=dtypes.int32), axes)
    permed = array_ops.transpose(tensor, perm=perm_before)
    singular_values = apply_op("Svd", input=permed, compute_uv=False)[0]
    matrix_2_norm = array_ops.expand_dims(
        math_ops.reduce_max(math_ops.abs(singular_values), axis=-1, keepdims=True), axis=-1)
    return array_ops.transpose(matrix_2_norm, perm=perm_after)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002
         keep_dims=None):
    """Vector norms (euclidean, 1, inf, p) and the matrix norms fro, 1, 2 and inf."""
    keepdims = bool(deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not all(isinstance(a, int) for a in axis) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        supported = ["euclidean", "fro", 1, 2, np.inf]
        if ord not in supported:
            raise ValueError(f"'ord' must be a supported matrix norm in {supported}, got {ord}")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        if (not np.isreal(ord) or ord <= 0) and ord not in ["euclidean", 1, 2, np.inf]:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    with get_default_graph().name_scope(name or "norm"):
        tensor = convert_to_tensor(tensor)
        if is_matrix_norm and ord in (2, 2.0):
            result = _matrix_2_norm(tensor, axis)
        elif ord in ("fro", "euclidean", 2, 2.0):
            # tensor * conj(tensor): conj of a real tensor is the tensor itself.
            result = math_ops.sqrt(math_ops.reduce_sum(tensor * tensor, axis, keepdims=True))
        else:
            result = math_ops.abs(tensor)
            if ord == 1:
                sum_axis = None if axis is None else axis[0]
                result = math_ops.reduce_sum(result, sum_axis, keepdims=True)
                if is_matrix_norm:
                    result = math_ops.reduce_max(result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix_norm:
                    result = math_ops.reduce_sum(result, axis[1], keepdims=True)
                max_axis = None if axis is None else axis[0]
                result = math_ops.reduce_max(result, max_axis, keepdims=True)
            else:
                result = math_ops.pow(
                    math_ops.reduce_sum(math_ops.pow(result, ord), axis, keepdims=True),
                    1.0 / ord)
        if not keepdims:
            result = array_ops.squeeze(result, axis)
        return result


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    axis = deprecated_argument_lookup("axis", axis, "dim", dim)
    with get_default_graph().name_scope(name or "l2_normalize") as name:
        x = convert_to_tensor(x, name="x")
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=name)
