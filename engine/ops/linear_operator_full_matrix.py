"""tf.linalg.LinearOperatorFullMatrix: TensorFlow 2.21's linear_operator_full_matrix.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_full_matrix.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import array_ops, linalg, math_ops, ops


class LinearOperatorFullMatrix(linear_operator.LinearOperator):
    """A dense (batch) matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorFullMatrix'):
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[matrix]):
            self._matrix = linear_operator_util.convert_nonref_to_tensor(matrix, name='matrix')
            self._check_matrix(self._matrix)
            super().__init__(dtype=self._matrix.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_matrix(self, matrix):
        allowed_dtypes = [dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
                          dtypes.complex128]
        matrix = ops.convert_to_tensor(matrix, name='matrix')
        dtype = matrix.dtype
        if dtype not in allowed_dtypes:
            raise TypeError(
                f'Argument `matrix` must have dtype in {allowed_dtypes}. Received: {dtype}.')
        if matrix.shape.ndims is not None and matrix.shape.ndims < 2:
            raise ValueError(
                f'Argument `matrix` must have at least 2 dimensions. Received: {matrix}.')

    @property
    def matrix(self):
        return self._matrix

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return array_ops.shape(self._matrix)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return self._matrix
