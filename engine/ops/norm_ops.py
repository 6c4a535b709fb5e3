"""tf.norm and tf.nn.l2_normalize, with their TF 1.x keywords (keep_dims=, dim=)."""

import numpy as np

from engine.framework.api_namespace import NotSupportedError
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002
         keep_dims=None):
    """Vector norms (euclidean, 1, inf, p) and the matrix norms fro, 1 and inf."""
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
        if ord in (2, 2.0):
            raise NotSupportedError("tf.norm(ord=2) of a matrix (its largest singular value) "
                                    "is not supported by the engine yet")
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
        if ord in ("fro", "euclidean", 2, 2.0):
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
