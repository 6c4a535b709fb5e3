"""tf.linalg.LinearOperatorZeros: TensorFlow 2.21's linear_operator_zeros.py on the engine's ops
(the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_zeros.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import numpy as np

from engine.framework import dtypes, errors
from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, linalg, math_ops, ops, tensor_shape,
                                             tensor_util)


class LinearOperatorZeros(linear_operator.LinearOperator):
    """The zero matrix, made of no tensor."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name='LinearOperatorZeros'):
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape,
                          dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtype or dtypes.float32
        self._assert_proper_shapes = assert_proper_shapes
        with ops.name_scope(name):
            dtype = dtypes.as_dtype(dtype)
            if not is_self_adjoint and is_square:
                raise ValueError('A zero operator is always self adjoint.')
            if is_non_singular:
                raise ValueError('A zero operator is always singular.')
            if is_positive_definite:
                raise ValueError('A zero operator is always not positive-definite.')
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            linear_operator_util.assert_not_ref_type(num_rows, 'num_rows')
            linear_operator_util.assert_not_ref_type(num_columns, 'num_columns')
            linear_operator_util.assert_not_ref_type(batch_shape, 'batch_shape')
            self._num_rows = linear_operator_util.shape_tensor(num_rows, name='num_rows')
            self._num_rows_static = tensor_util.constant_value(self._num_rows)
            if num_columns is None:
                num_columns = num_rows
            self._num_columns = linear_operator_util.shape_tensor(num_columns, name='num_columns')
            self._num_columns_static = tensor_util.constant_value(self._num_columns)
            self._check_domain_range_possibly_add_asserts()
            if self._num_rows_static is not None and self._num_columns_static is not None:
                if is_square and self._num_rows_static != self._num_columns_static:
                    raise ValueError(
                        'LinearOperatorZeros initialized as is_square=True, but got num_rows({}) '
                        '!= '
                        'num_columns({})'.format(self._num_rows_static, self._num_columns_static))
            if batch_shape is None:
                self._batch_shape_arg = None
            else:
                self._batch_shape_arg = linear_operator_util.shape_tensor(
                    batch_shape, name='batch_shape_arg')
                self._batch_shape_static = tensor_util.constant_value(self._batch_shape_arg)
                self._check_batch_shape_possibly_add_asserts()

    def _shape(self):
        matrix_shape = tensor_shape.TensorShape((self._num_rows_static, self._num_columns_static))
        if self._batch_shape_arg is None:
            return matrix_shape
        batch_shape = tensor_shape.TensorShape(self._batch_shape_static)
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        matrix_shape = array_ops_stack.stack((self._num_rows, self._num_columns), axis=0)
        if self._batch_shape_arg is None:
            return matrix_shape
        return array_ops.concat((self._batch_shape_arg, matrix_shape), 0)

    def _assert_non_singular(self):
        raise errors.InvalidArgumentError(None, None, 'Zero operators are always non-invertible.')

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(None, None,
                                          'Zero operators are always non-positive definite.')

    def _assert_self_adjoint(self):
        return control_flow_ops.no_op('assert_self_adjoint')

    def _possibly_broadcast_batch_shape(self, x):
        if self._batch_shape_arg is None:
            return x
        special_shape = self.batch_shape.concatenate([1, 1])
        bshape = array_ops.broadcast_static_shape(x.shape, special_shape)
        if special_shape.is_fully_defined():
            if bshape == x.shape:
                return x
            zeros = array_ops.zeros(shape=special_shape, dtype=self.dtype)
            return x + zeros
        special_shape = array_ops.concat((self.batch_shape_tensor(), [1, 1]), 0)
        zeros = array_ops.zeros(shape=special_shape, dtype=self.dtype)
        return x + zeros

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        if self._assert_proper_shapes:
            x = linalg.adjoint(x) if adjoint_arg else x
            aps = linear_operator_util.assert_compatible_matrix_dimensions(self, x)
            x = control_flow_ops.with_dependencies([aps], x)
        if self.is_square:
            if adjoint_arg:
                output_shape = array_ops.concat(
                    [array_ops.shape(x)[:-2], [array_ops.shape(x)[-1], array_ops.shape(x)[-2]]],
                    axis=0)
            else:
                output_shape = array_ops.shape(x)
            return self._possibly_broadcast_batch_shape(
                array_ops.zeros(shape=output_shape, dtype=x.dtype))
        x_shape = array_ops.shape(x)
        n = self._num_columns if adjoint else self._num_rows
        m = x_shape[-2] if adjoint_arg else x_shape[-1]
        output_shape = array_ops.concat([x_shape[:-2], [n, m]], axis=0)
        zeros = array_ops.zeros(shape=output_shape, dtype=x.dtype)
        return self._possibly_broadcast_batch_shape(zeros)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorZeros',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if not left_operator.is_square or not right_operator.is_square:
            raise ValueError(
                'Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not '
                'supported at this time.')
        return left_operator

    def _determinant(self):
        if self.batch_shape.is_fully_defined():
            return array_ops.zeros(shape=self.batch_shape, dtype=self.dtype)
        else:
            return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _trace(self):
        if self.batch_shape.is_fully_defined():
            return array_ops.zeros(shape=self.batch_shape, dtype=self.dtype)
        else:
            return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _diag_part(self):
        return self._zeros_diag()

    def add_to_tensor(self, mat, name='add_to_tensor'):
        return self._possibly_broadcast_batch_shape(mat)

    def _check_domain_range_possibly_add_asserts(self):
        if self._assert_proper_shapes:
            self._num_rows = control_flow_ops.with_dependencies(
                [
                    check_ops.assert_rank(self._num_rows, 0,
                                          message='Argument num_rows must be a 0-D Tensor.'),
                    check_ops.assert_non_negative(
                        self._num_rows, message='Argument num_rows must be non-negative.')],
                self._num_rows)
            self._num_columns = control_flow_ops.with_dependencies(
                [
                    check_ops.assert_rank(self._num_columns, 0,
                                          message='Argument num_columns must be a 0-D Tensor.'),
                    check_ops.assert_non_negative(
                        self._num_columns, message='Argument num_columns must be non-negative.')],
                self._num_columns)
        if not self._num_rows.dtype.is_integer:
            raise TypeError('Argument num_rows must be integer type.  Found: %s' % self._num_rows)
        if not self._num_columns.dtype.is_integer:
            raise TypeError(
                'Argument num_columns must be integer type.  Found: %s' % self._num_columns)
        num_rows_static = self._num_rows_static
        num_columns_static = self._num_columns_static
        if num_rows_static is not None:
            if num_rows_static.ndim != 0:
                raise ValueError(
                    'Argument num_rows must be a 0-D Tensor.  Found: %s' % num_rows_static)
            if num_rows_static < 0:
                raise ValueError(
                    'Argument num_rows must be non-negative.  Found: %s' % num_rows_static)
        if num_columns_static is not None:
            if num_columns_static.ndim != 0:
                raise ValueError(
                    'Argument num_columns must be a 0-D Tensor.  Found: %s' % num_columns_static)
            if num_columns_static < 0:
                raise ValueError(
                    'Argument num_columns must be non-negative.  Found: %s' % num_columns_static)

    def _check_batch_shape_possibly_add_asserts(self):
        if self._batch_shape_arg is None:
            return
        if self._assert_proper_shapes:
            self._batch_shape_arg = control_flow_ops.with_dependencies(
                [
                    check_ops.assert_rank(self._batch_shape_arg, 1,
                                          message='Argument batch_shape must be a 1-D Tensor.'),
                    check_ops.assert_non_negative(
                        self._batch_shape_arg,
                        message='Argument batch_shape must be non-negative.')],
                self._batch_shape_arg)
        if not self._batch_shape_arg.dtype.is_integer:
            raise TypeError(
                'Argument batch_shape must be integer type.  Found: %s' % self._batch_shape_arg)
        if self._batch_shape_static is None:
            return
        if self._batch_shape_static.ndim != 1:
            raise ValueError(
                'Argument batch_shape must be a 1-D Tensor.  Found: %s' % self._batch_shape_static)
        if np.any(self._batch_shape_static < 0):
            raise ValueError(
                'Argument batch_shape must be non-negative.  Found:%s' % self._batch_shape_static)

    def _min_matrix_dim(self):
        domain_dim = self.domain_dimension.value
        range_dim = self.range_dimension.value
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _min_matrix_dim_tensor(self):
        return math_ops.reduce_min(self.shape_tensor()[-2:])

    def _zeros_diag(self):
        if self.shape.is_fully_defined():
            d_shape = self.batch_shape.concatenate([self._min_matrix_dim()])
        else:
            d_shape = array_ops.concat(
                [self.batch_shape_tensor(), [self._min_matrix_dim_tensor()]], axis=0)
        return array_ops.zeros(shape=d_shape, dtype=self.dtype)

    def _eigvals(self):
        return self._zeros_diag()
