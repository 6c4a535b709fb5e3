"""tf.matrix_solve_ls (tf.linalg.lstsq) as TensorFlow 2.21 builds it: for fast=True, the
regularised normal equations through a Cholesky factor, as ops (linalg_ops.matrix_solve_ls's
composite form, what a TF1 graph holds); for fast=False, or a large batch of large
matrices, the MatrixSolveLs op."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import array_ops, linalg_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op

_L2_CACHE_SIZE_GUESSTIMATE = 256000  # TensorFlow's threshold for the composite form


def regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    """The Cholesky factor of A^H A + l2 I (first kind) or A A^H + l2 I (second kind)."""
    gramian = math_ops.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, Tensor) or l2_regularizer != 0:
        matrix_shape = array_ops.shape(matrix)
        batch_shape = matrix_shape[:-2]
        small_dim = matrix_shape[-1] if first_kind else matrix_shape[-2]
        identity = linalg_ops.eye(small_dim, batch_shape=batch_shape, dtype=matrix.dtype)
        small_dim_static = matrix.shape[-1 if first_kind else -2]
        identity.set_shape(matrix.shape[:-2].concatenate([small_dim_static, small_dim_static]))
        gramian += l2_regularizer * identity
    return apply_op("Cholesky", input=gramian)


def _use_composite(fast, matrix):
    if fast is False:
        return False
    shape = matrix.get_shape()
    if not shape.is_fully_defined():
        return True
    size = shape.num_elements() * matrix.dtype.size
    io_bound = shape[:-2].num_elements() > np.min(shape.as_list()[-2:])
    return not (size > _L2_CACHE_SIZE_GUESSTIMATE and io_bound)


def overdetermined(matrix, rhs, l2_regularizer):
    """(A^H A + l2 I)^-1 A^H rhs."""
    chol = regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=True)
    return linalg_ops.cholesky_solve(chol, math_ops.matmul(matrix, rhs, adjoint_a=True))


def underdetermined(matrix, rhs, l2_regularizer):
    """A^H (A A^H + l2 I)^-1 rhs."""
    chol = regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=False)
    return math_ops.matmul(matrix, linalg_ops.cholesky_solve(chol, rhs), adjoint_a=True)


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    matrix = convert_to_tensor(matrix, name="matrix")
    if matrix.dtype == dtypes.complex128 and l2_regularizer != 0:
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 and "
                                  "l2_regularizer != 0 due to poor accuracy.")
    if not _use_composite(fast, matrix):
        return apply_op("MatrixSolveLs", matrix=matrix, rhs=rhs, l2_regularizer=l2_regularizer,
                        fast=fast, name=name)
    with name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        matrix_shape = matrix.get_shape()[-2:]
        if matrix_shape.is_fully_defined():
            if matrix_shape[-2] >= matrix_shape[-1]:
                return overdetermined(matrix, rhs, l2_regularizer)
            return underdetermined(matrix, rhs, l2_regularizer)
        dynamic_shape = array_ops.shape(matrix)[-2:]
        return cond(dynamic_shape[-2] >= dynamic_shape[-1],
                    lambda: overdetermined(matrix, rhs, l2_regularizer),
                    lambda: underdetermined(matrix, rhs, l2_regularizer))
