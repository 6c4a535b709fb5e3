"""Linear algebra as TF 1.x builds it: inverses, determinants, decompositions (cholesky, qr,
svd, self_adjoint_eig), solvers, cross products, eye, tensordot, trace and the diagonal and
band ops (linalg_ops.py, linalg_impl.py, math_ops.py, array_ops.py). tf.einsum is
engine/ops/einsum_ops.py, least squares engine/ops/least_squares.py."""

import builtins

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import array_ops, complex_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002
    return apply_op("MatrixInverse", input=input, adjoint=adjoint, name=name)


def matrix_determinant(input, name=None):  # noqa: A002
    return apply_op("MatrixDeterminant", input=input, name=name)


def cholesky(input, name=None):  # noqa: A002
    return apply_op("Cholesky", input=input, name=name)


def log_matrix_determinant(input, name=None):  # noqa: A002
    """(sign, log |det|): tf.linalg.slogdet."""
    return tuple(apply_op("LogMatrixDeterminant", input=input, name=name))


def logdet(matrix, name=None):
    """tf.linalg.logdet of a positive definite matrix: 2 * sum(log(diag(cholesky)))."""
    with name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        # real(diag_part(chol)): a real tensor is its own real part (no op), as in TensorFlow
        return 2.0 * math_ops.reduce_sum(math_ops.log(matrix_diag_part(chol)), axis=[-1])


def self_adjoint_eig(tensor, name=None):
    """(e, v): the eigenvalues ascending and the eigenvectors as columns."""
    return tuple(apply_op("SelfAdjointEigV2", input=tensor, compute_v=True,
                          name=name))


def self_adjoint_eigvals(tensor, name=None):
    return apply_op("SelfAdjointEigV2", input=tensor, compute_v=False, name=name)[0]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """s, or (s, u, v) with tensor = u @ diag(s) @ adjoint(v)."""
    s, u, v = apply_op("Svd", input=tensor, compute_uv=compute_uv,
                       full_matrices=full_matrices, name=name)
    if s.dtype.is_complex:  # real(s) of a real s is s itself, no op
        s = complex_ops.real(s)
    return (s, u, v) if compute_uv else s


def qr(input, full_matrices=False, name=None):  # noqa: A002
    return tuple(apply_op("Qr", input=input, full_matrices=full_matrices, name=name))


def cross(a, b, name=None):
    return apply_op("Cross", a=a, b=b, name=name)


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    return apply_op("MatrixSolve", matrix=matrix, rhs=rhs, adjoint=adjoint, name=name)


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    with name_scope(name, "triangular_solve", [matrix, rhs]):
        return apply_op("MatrixTriangularSolve", matrix=matrix, rhs=rhs, lower=lower,
                        adjoint=adjoint)


def cholesky_solve(chol, rhs, name=None):
    """X with (chol @ adjoint(chol)) @ X = rhs: two triangular solves."""
    with name_scope(name, "cholesky_solve", [chol, rhs]):
        y = apply_op("MatrixTriangularSolve", matrix=chol, rhs=rhs, adjoint=False, lower=True)
        return apply_op("MatrixTriangularSolve", matrix=chol, rhs=y, adjoint=True, lower=True)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """The last two dimensions swapped (conjugated too where asked, for complex tensors)."""
    with name_scope(name, values=[a]):
        a = convert_to_tensor(a, name="a")
        ndims = a.get_shape().ndims
        if ndims is not None:
            if ndims < 2:
                raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  "
                                 f"Received `a` = {a} with shape: {a.get_shape()}")
            perm = list(builtins.range(ndims - 2)) + [ndims - 1, ndims - 2]
        else:
            a_rank = array_ops.rank(a)
            perm = array_ops.concat(
                (apply_op("Range", start=0, limit=a_rank - 2, delta=1),
                 [a_rank - 1, a_rank - 2]), 0)
        return array_ops.transpose(a, perm=perm, conjugate=conjugate)


def adjoint(matrix, name=None):
    with name_scope(name, "adjoint", [matrix]):
        matrix = convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix, or a batch of them, as TensorFlow's linalg_ops_impl.eye builds it."""
    with name_scope(name, "eye", [num_rows, num_columns, batch_shape]):
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        if isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor):
            diag_size = math_ops.minimum(num_rows, num_columns)
        else:
            is_square = num_rows == num_columns
            diag_size = np.minimum(num_rows, num_columns)
        if isinstance(batch_shape, Tensor) or isinstance(diag_size, Tensor):
            batch_shape = convert_to_tensor(batch_shape, name="shape", dtype=dtypes.int32)
            diag_shape = array_ops.concat((batch_shape, [diag_size]), axis=0)
            if not is_square:
                shape = array_ops.concat((batch_shape, [num_rows, num_columns]), axis=0)
        else:
            batch_shape = list(batch_shape)
            diag_shape = batch_shape + [diag_size]
            if not is_square:
                shape = batch_shape + [num_rows, num_columns]
        diag_ones = array_ops.ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(diag_ones)
        return matrix_set_diag(array_ops.zeros(shape, dtype=dtype), diag_ones)


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
