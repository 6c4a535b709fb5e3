"""tf.linalg.LinearOperatorToeplitz: TensorFlow 2.21's linear_operator_toeplitz.py on the engine's
ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_toeplitz.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_circulant, linear_operator_util
from engine.ops.linear_operator_util import array_ops, check_ops, fft_ops, linalg, math_ops, ops


class LinearOperatorToeplitz(linear_operator.LinearOperator):
    """A Toeplitz matrix known by its first column and row."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorToeplitz'):
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[row, col]):
            self._row = linear_operator_util.convert_nonref_to_tensor(row, name='row')
            self._col = linear_operator_util.convert_nonref_to_tensor(col, name='col')
            self._check_row_col(self._row, self._col)
            if is_square is False:
                raise ValueError('Only square Toeplitz operators currently supported.')
            is_square = True
            super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_row_col(self, row, col):
        for name, tensor in [['row', row], ['col', col]]:
            if tensor.shape.ndims is not None and tensor.shape.ndims < 1:
                raise ValueError(
                    'Argument {} must have at least 1 dimension.  Found: {}'.format(name, tensor))
        if row.shape[-1] is not None and col.shape[-1] is not None:
            if row.shape[-1] != col.shape[-1]:
                raise ValueError(
                    'Expected square matrix, got row and col with mismatched dimensions.')

    def _shape(self):
        v_shape = array_ops.broadcast_static_shape(self.row.shape, self.col.shape)
        return v_shape.concatenate(v_shape[-1:])

    def _shape_tensor(self, row=None, col=None):
        row = self.row if row is None else row
        col = self.col if col is None else col
        v_shape = array_ops.broadcast_dynamic_shape(array_ops.shape(row), array_ops.shape(col))
        k = v_shape[-1]
        return array_ops.concat((v_shape, [k]), 0)

    def _assert_self_adjoint(self):
        return check_ops.assert_equal(
            self.row, self.col,
            message='row and col are not the same, and so this operator is not self-adjoint.')

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = linalg.adjoint(x) if adjoint_arg else x
        expanded_x = array_ops.concat([x, array_ops.zeros_like(x)], axis=-2)
        col = ops.convert_to_tensor(self.col)
        row = ops.convert_to_tensor(self.row)
        circulant_col = array_ops.concat(
            [col, array_ops.zeros_like(col[..., 0:1]), array_ops.reverse(row[..., 1:], axis=[-1])],
            axis=-1)
        circulant = linear_operator_circulant.LinearOperatorCirculant(
            fft_ops.fft(_to_complex(circulant_col)), input_output_dtype=row.dtype)
        result = circulant.matmul(expanded_x, adjoint=adjoint, adjoint_arg=False)
        shape = self._shape_tensor(row=row, col=col)
        return math_ops.cast(result[..., :self._domain_dimension_tensor(shape=shape), :],
                             self.dtype)

    def _trace(self):
        return math_ops.cast(self.domain_dimension_tensor(), dtype=self.dtype) * self.col[..., 0]

    def _diag_part(self):
        diag_entry = self.col[..., 0:1]
        return diag_entry * array_ops.ones([self.domain_dimension_tensor()], self.dtype)

    def _to_dense(self):
        row = ops.convert_to_tensor(self.row)
        col = ops.convert_to_tensor(self.col)
        total_shape = array_ops.broadcast_dynamic_shape(array_ops.shape(row), array_ops.shape(col))
        n = array_ops.shape(row)[-1]
        row = array_ops.broadcast_to(row, total_shape)
        col = array_ops.broadcast_to(col, total_shape)
        elements = array_ops.concat([array_ops.reverse(col, axis=[-1]), row[..., 1:]], axis=-1)
        indices = math_ops.mod(
            math_ops.range(0, n) + math_ops.range(n - 1, -1, -1)[..., array_ops.newaxis],
            2 * n - 1)
        return array_ops.gather(elements, indices, axis=-1)

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row


def _to_complex(x):
    dtype = dtypes.complex64
    if x.dtype in [dtypes.float64, dtypes.complex128]:
        dtype = dtypes.complex128
    return math_ops.cast(x, dtype)
