"""tf.linalg.LinearOperatorIdentity, LinearOperatorScaledIdentity: TensorFlow 2.21's
linear_operator_identity.py on the engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_identity.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import numpy as np

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_diag, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, linalg, math_ops, ops, tensor_shape,
                                             tensor_util)


class BaseLinearOperatorIdentity(linear_operator.LinearOperator):

    def _check_num_rows_possibly_add_asserts(self):
        if self._assert_proper_shapes:
            self._num_rows = control_flow_ops.with_dependencies(
                [
                    check_ops.assert_rank(self._num_rows, 0,
                                          message='Argument num_rows must be a 0-D Tensor.'),
                    check_ops.assert_non_negative(
                        self._num_rows, message='Argument num_rows must be non-negative.')],
                self._num_rows)
        if not self._num_rows.dtype.is_integer:
            raise TypeError('Argument num_rows must be integer type.  Found: %s' % self._num_rows)
        num_rows_static = self._num_rows_static
        if num_rows_static is None:
            return
        if num_rows_static.ndim != 0:
            raise ValueError(
                'Argument num_rows must be a 0-D Tensor.  Found: %s' % num_rows_static)
        if num_rows_static < 0:
            raise ValueError(
                'Argument num_rows must be non-negative.  Found: %s' % num_rows_static)

    def _min_matrix_dim(self):
        domain_dim = tensor_shape.dimension_value(self.domain_dimension)
        range_dim = tensor_shape.dimension_value(self.range_dimension)
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _min_matrix_dim_tensor(self):
        return math_ops.reduce_min(self.shape_tensor()[-2:])

    def _ones_diag(self):
        if self.shape.is_fully_defined():
            d_shape = self.batch_shape.concatenate([self._min_matrix_dim()])
        else:
            d_shape = array_ops.concat(
                [self.batch_shape_tensor(), [self._min_matrix_dim_tensor()]], axis=0)
        return array_ops.ones(shape=d_shape, dtype=self.dtype)


class LinearOperatorIdentity(BaseLinearOperatorIdentity):
    """The identity matrix, made of no tensor."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name='LinearOperatorIdentity'):
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtype or dtypes.float32
        self._assert_proper_shapes = assert_proper_shapes
        with ops.name_scope(name):
            dtype = dtypes.as_dtype(dtype)
            if not is_self_adjoint:
                raise ValueError('An identity operator is always self adjoint.')
            if not is_non_singular:
                raise ValueError('An identity operator is always non-singular.')
            if not is_positive_definite:
                raise ValueError('An identity operator is always positive-definite.')
            if not is_square:
                raise ValueError('An identity operator is always square.')
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            linear_operator_util.assert_not_ref_type(num_rows, 'num_rows')
            linear_operator_util.assert_not_ref_type(batch_shape, 'batch_shape')
            self._num_rows = linear_operator_util.shape_tensor(num_rows, name='num_rows')
            self._num_rows_static = tensor_util.constant_value(self._num_rows)
            self._check_num_rows_possibly_add_asserts()
            if batch_shape is None:
                self._batch_shape_arg = None
            else:
                self._batch_shape_arg = linear_operator_util.shape_tensor(
                    batch_shape, name='batch_shape_arg')
                self._batch_shape_static = tensor_util.constant_value(self._batch_shape_arg)
                self._check_batch_shape_possibly_add_asserts()

    def _shape(self):
        matrix_shape = tensor_shape.TensorShape((self._num_rows_static, self._num_rows_static))
        if self._batch_shape_arg is None:
            return matrix_shape
        batch_shape = tensor_shape.TensorShape(self._batch_shape_static)
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        matrix_shape = array_ops_stack.stack((self._num_rows, self._num_rows), axis=0)
        if self._batch_shape_arg is None:
            return matrix_shape
        return array_ops.concat((self._batch_shape_arg, matrix_shape), 0)

    def _linop_adjoint(self) -> 'LinearOperatorIdentity':
        return self

    def _linop_cholesky(self) -> 'LinearOperatorIdentity':
        return LinearOperatorIdentity(num_rows=self._num_rows, batch_shape=self.batch_shape,
                                      dtype=self.dtype, is_non_singular=True, is_self_adjoint=True,
                                      is_positive_definite=True, is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorIdentity':
        return self

    def _linop_matmul(self, left_operator: 'LinearOperatorIdentity',
                      right_operator: linear_operator.LinearOperator) -> 'LinearOperatorIdentity':
        del left_operator
        return right_operator

    def _linop_solve(
        self, left_operator: 'LinearOperatorIdentity',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        del left_operator
        return right_operator

    def _assert_non_singular(self):
        return control_flow_ops.no_op('assert_non_singular')

    def _assert_positive_definite(self):
        return control_flow_ops.no_op('assert_positive_definite')

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
        x = linalg.adjoint(x) if adjoint_arg else x
        if self._assert_proper_shapes:
            aps = linear_operator_util.assert_compatible_matrix_dimensions(self, x)
            x = control_flow_ops.with_dependencies([aps], x)
        return self._possibly_broadcast_batch_shape(x)

    def _determinant(self):
        return array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _trace(self):
        if self.batch_shape.is_fully_defined():
            batch_of_ones = array_ops.ones(shape=self.batch_shape, dtype=self.dtype)
        else:
            batch_of_ones = array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)
        if self._min_matrix_dim() is not None:
            return self._min_matrix_dim() * batch_of_ones
        else:
            return math_ops.cast(self._min_matrix_dim_tensor(), self.dtype) * batch_of_ones

    def _diag_part(self):
        return self._ones_diag()

    def add_to_tensor(self, mat, name='add_to_tensor'):
        with self._name_scope(name):
            mat = ops.convert_to_tensor(mat, name='mat')
            mat_diag = array_ops.matrix_diag_part(mat)
            new_diag = 1 + mat_diag
            return array_ops.matrix_set_diag(mat, new_diag)

    def _eigvals(self):
        return self._ones_diag()

    def _cond(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _check_num_rows_possibly_add_asserts(self):
        if self._assert_proper_shapes:
            self._num_rows = control_flow_ops.with_dependencies(
                [
                    check_ops.assert_rank(self._num_rows, 0,
                                          message='Argument num_rows must be a 0-D Tensor.'),
                    check_ops.assert_non_negative(
                        self._num_rows, message='Argument num_rows must be non-negative.')],
                self._num_rows)
        if not self._num_rows.dtype.is_integer:
            raise TypeError('Argument num_rows must be integer type.  Found: %s' % self._num_rows)
        num_rows_static = self._num_rows_static
        if num_rows_static is None:
            return
        if num_rows_static.ndim != 0:
            raise ValueError(
                'Argument num_rows must be a 0-D Tensor.  Found: %s' % num_rows_static)
        if num_rows_static < 0:
            raise ValueError(
                'Argument num_rows must be non-negative.  Found: %s' % num_rows_static)

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


class LinearOperatorScaledIdentity(BaseLinearOperatorIdentity):
    """A multiple of the identity matrix."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name='LinearOperatorScaledIdentity'):
        parameters = dict(num_rows=num_rows, multiplier=multiplier,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        self._assert_proper_shapes = assert_proper_shapes
        with ops.name_scope(name, values=[multiplier, num_rows]):
            self._multiplier = linear_operator_util.convert_nonref_to_tensor(
                multiplier, name='multiplier')
            if not self._multiplier.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError('A real diagonal operator is always self adjoint.')
                else:
                    is_self_adjoint = True
            if not is_square:
                raise ValueError('A ScaledIdentity operator is always square.')
            linear_operator_util.assert_not_ref_type(num_rows, 'num_rows')
            super().__init__(dtype=self._multiplier.dtype.base_dtype,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            self._num_rows = linear_operator_util.shape_tensor(num_rows, name='num_rows')
            self._num_rows_static = tensor_util.constant_value(self._num_rows)
            self._check_num_rows_possibly_add_asserts()
            self._num_rows_cast_to_dtype = math_ops.cast(self._num_rows, self.dtype)
            self._num_rows_cast_to_real_dtype = math_ops.cast(
                self._num_rows, self.dtype.real_dtype)

    def _shape(self):
        matrix_shape = tensor_shape.TensorShape((self._num_rows_static, self._num_rows_static))
        batch_shape = self.multiplier.shape
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        matrix_shape = array_ops_stack.stack((self._num_rows, self._num_rows), axis=0)
        batch_shape = array_ops.shape(self.multiplier)
        return array_ops.concat((batch_shape, matrix_shape), 0)

    def _assert_non_singular(self):
        return check_ops.assert_positive(math_ops.abs(self.multiplier),
                                         message='LinearOperator was singular')

    def _assert_positive_definite(self):
        return check_ops.assert_positive(math_ops.real(self.multiplier),
                                         message='LinearOperator was not positive definite.')

    def _assert_self_adjoint(self):
        imag_multiplier = math_ops.imag(self.multiplier)
        return check_ops.assert_equal(array_ops.zeros_like(imag_multiplier), imag_multiplier,
                                      message='LinearOperator was not self-adjoint')

    def _make_multiplier_matrix(self, conjugate=False):
        multiplier_matrix = array_ops.expand_dims(array_ops.expand_dims(self.multiplier, -1), -1)
        if conjugate:
            multiplier_matrix = math_ops.conj(multiplier_matrix)
        return multiplier_matrix

    def _linop_adjoint(self) -> 'LinearOperatorScaledIdentity':
        multiplier = self.multiplier
        if multiplier.dtype.is_complex:
            multiplier = math_ops.conj(multiplier)
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite,
                                            is_square=True)

    def _linop_cholesky(self) -> 'LinearOperatorScaledIdentity':
        return LinearOperatorScaledIdentity(num_rows=self._num_rows,
                                            multiplier=math_ops.sqrt(self.multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True, is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorScaledIdentity':
        return LinearOperatorScaledIdentity(num_rows=self._num_rows,
                                            multiplier=1.0 / self.multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=True,
                                            is_positive_definite=self.is_positive_definite,
                                            is_square=True)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorScaledIdentity',
        right_operator: linear_operator.LinearOperator) -> 'LinearOperatorScaledIdentity':
        is_non_singular = linear_operator_util.combined_non_singular_hint(
            left_operator, right_operator)
        is_self_adjoint = linear_operator_util.combined_commuting_self_adjoint_hint(
            left_operator, right_operator)
        is_positive_definite = linear_operator_util.combined_commuting_positive_definite_hint(
            left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(
                num_rows=left_operator.domain_dimension_tensor(),
                multiplier=left_operator.multiplier * right_operator.multiplier,
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=is_positive_definite, is_square=True)
        elif isinstance(right_operator, linear_operator_diag.LinearOperatorDiag):
            return linear_operator_diag.LinearOperatorDiag(
                diag=right_operator.diag * left_operator.multiplier,
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=is_positive_definite, is_square=True)
        else:
            return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(
        self, left_operator: 'LinearOperatorScaledIdentity',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        is_non_singular = linear_operator_util.combined_non_singular_hint(
            left_operator, right_operator)
        is_self_adjoint = linear_operator_util.combined_commuting_self_adjoint_hint(
            left_operator, right_operator)
        is_positive_definite = linear_operator_util.combined_commuting_positive_definite_hint(
            left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(
                num_rows=left_operator.domain_dimension_tensor(),
                multiplier=right_operator.multiplier / left_operator.multiplier,
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=is_positive_definite, is_square=True)
        elif isinstance(right_operator, linear_operator_diag.LinearOperatorDiag):
            return linear_operator_diag.LinearOperatorDiag(
                diag=right_operator.diag / left_operator.multiplier,
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=is_positive_definite, is_square=True)
        else:
            return super()._linop_solve(left_operator, right_operator)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = linalg.adjoint(x) if adjoint_arg else x
        if self._assert_proper_shapes:
            aps = linear_operator_util.assert_compatible_matrix_dimensions(self, x)
            x = control_flow_ops.with_dependencies([aps], x)
        return x * self._make_multiplier_matrix(conjugate=adjoint)

    def _determinant(self):
        return self.multiplier ** self._num_rows_cast_to_dtype

    def _log_abs_determinant(self):
        return self._num_rows_cast_to_real_dtype * math_ops.log(math_ops.abs(self.multiplier))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        if self._assert_proper_shapes:
            aps = linear_operator_util.assert_compatible_matrix_dimensions(self, rhs)
            rhs = control_flow_ops.with_dependencies([aps], rhs)
        return rhs / self._make_multiplier_matrix(conjugate=adjoint)

    def _trace(self):
        if self.batch_shape.is_fully_defined():
            batch_of_ones = array_ops.ones(shape=self.batch_shape, dtype=self.dtype)
        else:
            batch_of_ones = array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)
        if self._min_matrix_dim() is not None:
            return self.multiplier * self._min_matrix_dim() * batch_of_ones
        else:
            return self.multiplier * math_ops.cast(
                self._min_matrix_dim_tensor(), self.dtype) * batch_of_ones

    def _diag_part(self):
        return self._ones_diag() * self.multiplier[..., array_ops.newaxis]

    def add_to_tensor(self, mat, name='add_to_tensor'):
        with self._name_scope(name):
            multiplier_vector = array_ops.expand_dims(self.multiplier, -1)
            mat = ops.convert_to_tensor(mat, name='mat')
            mat_diag = array_ops.matrix_diag_part(mat)
            new_diag = multiplier_vector + mat_diag
            return array_ops.matrix_set_diag(mat, new_diag)

    def _eigvals(self):
        return self._ones_diag() * self.multiplier[..., array_ops.newaxis]

    def _cond(self):
        return array_ops.where_v2(math_ops.equal(self._multiplier, 0.0),
                                  math_ops.cast(np.nan, dtype=self.dtype),
                                  math_ops.cast(1.0, dtype=self.dtype))

    @property
    def multiplier(self):
        return self._multiplier
