"""Linear algebra as TF 1.x builds it: matrix_inverse, matrix_determinant, cholesky, einsum,
tensordot, trace and the diagonal and band ops (linalg_ops.py, special_math_ops.py,
math_ops.py, array_ops.py)."""

import builtins
import collections
import re

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002
    return apply_op("MatrixInverse", input=input, adjoint=adjoint, name=name)


def matrix_determinant(input, name=None):  # noqa: A002
    return apply_op("MatrixDeterminant", input=input, name=name)


def cholesky(input, name=None):  # noqa: A002
    return apply_op("Cholesky", input=input, name=name)


def diag(diagonal, name=None):
    return apply_op("Diag", diagonal=diagonal, name=name)


def diag_part(input, name=None):  # noqa: A002
    return apply_op("DiagPart", input=input, name=name)


def _padding(tensor, padding_value):
    return bool(padding_value) if getattr(tensor, "dtype", None) == dtypes.bool \
        else padding_value


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
                align="RIGHT_LEFT"):
    return apply_op("MatrixDiagV3", diagonal=diagonal, k=k, num_rows=num_rows,
                    num_cols=num_cols, padding_value=_padding(diagonal, padding_value),
                    align=align, name=name)


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0,  # noqa: A002
                     align="RIGHT_LEFT"):
    return apply_op("MatrixDiagPartV3", input=input, k=k,
                    padding_value=_padding(input, padding_value), align=align, name=name)


def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    return apply_op("MatrixSetDiagV3", input=input, diagonal=diagonal, k=k, align=align,
                    name=name)


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    return apply_op("MatrixBandPart", input=input, num_lower=num_lower, num_upper=num_upper,
                    name=name)


def trace(x, name=None):
    with name_scope(name, "Trace") as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.reduce_sum(matrix_diag_part(x), [-1], name=scope)


def _resolve_equation(equation, count):
    """TensorFlow's _einsum_v2_parse_and_resolve_equation for one or two inputs."""
    resolved = equation.replace(" ", "")
    ellipsis = None
    if "..." in equation:
        ellipsis = "0"
        if ellipsis in resolved:
            raise ValueError(f'Invalid character "{ellipsis}" in equation: {equation}.')
        resolved = resolved.replace("...", ellipsis)
    allowed = "a-zA-Z" + (ellipsis or "")
    match = re.match("^([{0},]*)(->[{0}]*)?$".format(allowed), resolved)
    if not match:
        raise ValueError("Subscripts have incorrect format: {}".format(resolved))
    input_labels = match.group(1).split(",")
    output_labels = match.group(2)[2:] if match.group(2) else None
    if count != len(input_labels):
        raise ValueError('Got {} inputs for equation "{}", expecting {}'.format(
            count, equation, len(input_labels)))
    if "->" not in resolved:
        counts = collections.Counter(match.group(1))
        output_labels = "".join(x for x in sorted(counts) if x != "," and counts[x] == 1)
        resolved += "->" + output_labels
    if output_labels and len(set(output_labels)) != len(output_labels):
        raise ValueError("Output subscripts contain a label appearing more than once: "
                         "{}".format(equation))
    for label in output_labels:
        if label != ellipsis and label not in set(match.group(1)):
            raise ValueError("Output subscripts contain the label {} not present in the "
                             "input subscripts.".format(label))
    return resolved.replace(ellipsis, "...") if ellipsis else resolved


def einsum(equation, *inputs, **kwargs):
    """tf.einsum of one or two tensors: one Einsum op, as TensorFlow 2.21 builds it."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f'Invalid keyword arguments for einsum: {", ".join(kwargs)}. '
                        f'Valid arguments: name, optimize, greedy.')
    if len(inputs) > 2:
        raise NotImplementedError("tf.einsum of more than two tensors (TensorFlow's "
                                  "opt_einsum contraction order) is not supported yet")
    with name_scope(name, "einsum"):
        inputs = [convert_to_tensor(x) for x in inputs]
        return apply_op("Einsum", inputs=inputs,
                        equation=_resolve_equation(equation, len(inputs)))


def _tensordot_reshape(a, axes, flipped=False):
    """TensorFlow's tensordot helper: `a` transposed and reshaped to a matrix."""
    if a.get_shape().is_fully_defined() and isinstance(axes, (list, tuple)):
        shape_a = a.get_shape().as_list()
        axes = [i if i >= 0 else i + len(shape_a) for i in axes]
        free = [i for i in builtins.range(len(shape_a)) if i not in axes]
        free_dims = [shape_a[i] for i in free]
        prod_free = int(np.prod([shape_a[i] for i in free]))
        prod_axes = int(np.prod([shape_a[i] for i in axes]))
        perm = list(axes) + free if flipped else free + list(axes)
        new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        a_trans = array_ops.transpose(a, perm) \
            if (perm != np.arange(len(shape_a))).any() else a
        reshaped = array_ops.reshape(a_trans, new_shape) \
            if a_trans.get_shape().as_list() != new_shape else a_trans
        return reshaped, free_dims, free_dims
    if a.get_shape().ndims is not None and isinstance(axes, (list, tuple)):
        shape_a = a.get_shape().as_list()
        axes = [i if i >= 0 else i + len(shape_a) for i in axes]
        free = [i for i in builtins.range(len(shape_a)) if i not in axes]
        free_dims_static = [shape_a[i] for i in free]
        axes = convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        free = convert_to_tensor(free, dtype=dtypes.int32, name="free")
        shape_a = array_ops.shape(a)
    else:
        free_dims_static = None
        shape_a = array_ops.shape(a)
        rank_a = array_ops.rank(a)
        axes = convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        axes = array_ops.where(axes >= 0, axes, axes + rank_a)
        free, _ = apply_op("ListDiff", x=math_ops.range(rank_a), y=axes,
                           out_idx=dtypes.int32)
    free_dims = array_ops.gather(shape_a, free)
    axes_dims = array_ops.gather(shape_a, axes)
    prod_free_dims = math_ops.reduce_prod(free_dims)
    prod_axes_dims = math_ops.reduce_prod(axes_dims)
    if flipped:
        perm = array_ops.concat([axes, free], 0)
        new_shape = array_ops.stack([prod_axes_dims, prod_free_dims])
    else:
        perm = array_ops.concat([free, axes], 0)
        new_shape = array_ops.stack([prod_free_dims, prod_axes_dims])
    reshaped = array_ops.reshape(array_ops.transpose(a, perm), new_shape)
    return reshaped, free_dims, free_dims_static


def _tensordot_axes(a, axes):
    a_shape = a.get_shape()
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        if a_shape.ndims is not None:
            if axes > a_shape.ndims:
                raise ValueError(f"`axes` must not be larger than the number of dimensions "
                                 f"of tensor {a}.  Received {axes}, vs tensor dimensions "
                                 f"{a_shape.ndims}.")
            return (list(builtins.range(a_shape.ndims - axes, a_shape.ndims)),
                    list(builtins.range(axes)))
        rank = array_ops.rank(a)
        return (math_ops.range(rank - axes, rank, dtype=dtypes.int32),
                math_ops.range(axes, dtype=dtypes.int32))
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = axes
        if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
            a_axes, b_axes = [a_axes], [b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, "
                             f"{len(a_axes)} != {len(b_axes)}.")
        return a_axes, b_axes
    axes = convert_to_tensor(axes, name="axes", dtype=dtypes.int32)
    return axes[0], axes[1]


def tensordot(a, b, axes, name=None):
    with name_scope(name, "Tensordot") as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(a, axes)
        a_reshape, a_free_dims, a_free_static = _tensordot_reshape(a, a_axes)
        b_reshape, b_free_dims, b_free_static = _tensordot_reshape(b, b_axes, True)
        ab_matmul = math_ops.matmul(a_reshape, b_reshape)
        if isinstance(a_free_dims, list) and isinstance(b_free_dims, list):
            if (ab_matmul.get_shape().is_fully_defined()
                    and ab_matmul.get_shape().as_list() == a_free_dims + b_free_dims):
                return ab_matmul
            return array_ops.reshape(ab_matmul, a_free_dims + b_free_dims, name=scope)
        a_free_dims = convert_to_tensor(a_free_dims, dtype=dtypes.int32)
        b_free_dims = convert_to_tensor(b_free_dims, dtype=dtypes.int32)
        product = array_ops.reshape(ab_matmul, array_ops.concat([a_free_dims, b_free_dims], 0),
                                    name=scope)
        if a_free_static is not None and b_free_static is not None:
            product.set_shape(a_free_static + b_free_static)
        return product
