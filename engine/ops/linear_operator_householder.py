"""tf.linalg.LinearOperatorHouseholder: TensorFlow 2.21's linear_operator_householder.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_householder.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import errors
from engine.ops import linear_operator, linear_operator_util, norm_ops as nn
from engine.ops.linear_operator_util import array_ops, control_flow_ops, linalg, math_ops, ops


class LinearOperatorHouseholder(linear_operator.LinearOperator):
    """The reflection I - 2 v v^H / |v|^2 about a hyperplane."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorHouseholder'):
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[reflection_axis]):
            self._reflection_axis = linear_operator_util.convert_nonref_to_tensor(
                reflection_axis, name='reflection_axis')
            self._check_reflection_axis(self._reflection_axis)
            if is_self_adjoint is False:
                raise ValueError('A Householder operator is always self adjoint.')
            else:
                is_self_adjoint = True
            if is_positive_definite is True:
                raise ValueError('A Householder operator is always non-positive definite.')
            else:
                is_positive_definite = False
            if is_square is False:
                raise ValueError('A Householder operator is always square.')
            is_square = True
            super().__init__(dtype=self._reflection_axis.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_reflection_axis(self, reflection_axis):
        if reflection_axis.shape.ndims is not None and reflection_axis.shape.ndims < 1:
            raise ValueError(
                'Argument reflection_axis must have at least 1 dimension.  Found: '
                '%s' % reflection_axis)

    def _shape(self):
        d_shape = self._reflection_axis.shape
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self):
        d_shape = array_ops.shape(self._reflection_axis)
        k = d_shape[-1]
        return array_ops.concat((d_shape, [k]), 0)

    def _assert_non_singular(self):
        return control_flow_ops.no_op('assert_non_singular')

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(
            None, None, 'Householder operators are always non-positive definite.')

    def _assert_self_adjoint(self):
        return control_flow_ops.no_op('assert_self_adjoint')

    def _linop_adjoint(self) -> 'LinearOperatorHouseholder':
        return self

    def _linop_inverse(self) -> 'LinearOperatorHouseholder':
        return self

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        reflection_axis = ops.convert_to_tensor(self.reflection_axis)
        x = linalg.adjoint(x) if adjoint_arg else x
        normalized_axis = nn.l2_normalize(reflection_axis, axis=-1)
        mat = normalized_axis[..., array_ops.newaxis]
        x_dot_normalized_v = math_ops.matmul(mat, x, adjoint_a=True)
        return x - 2 * mat * x_dot_normalized_v

    def _trace(self):
        shape = self.shape_tensor()
        return math_ops.cast(
            self._domain_dimension_tensor(shape=shape) - 2,
            self.dtype) * array_ops.ones(shape=self._batch_shape_tensor(shape=shape),
                                         dtype=self.dtype)

    def _determinant(self):
        return -array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        reflection_axis = ops.convert_to_tensor(self.reflection_axis)
        normalized_axis = nn.l2_normalize(reflection_axis, axis=-1)
        mat = normalized_axis[..., array_ops.newaxis]
        matrix = -2 * math_ops.matmul(mat, mat, adjoint_b=True)
        return array_ops.matrix_set_diag(matrix, 1.0 + array_ops.matrix_diag_part(matrix))

    def _diag_part(self):
        reflection_axis = ops.convert_to_tensor(self.reflection_axis)
        normalized_axis = nn.l2_normalize(reflection_axis, axis=-1)
        return 1.0 - 2 * normalized_axis * math_ops.conj(normalized_axis)

    def _eigvals(self):
        result_shape = array_ops.shape(self.reflection_axis)
        n = result_shape[-1]
        ones_shape = array_ops.concat([result_shape[:-1], [n - 1]], axis=-1)
        neg_shape = array_ops.concat([result_shape[:-1], [1]], axis=-1)
        eigvals = array_ops.ones(shape=ones_shape, dtype=self.dtype)
        eigvals = array_ops.concat([-array_ops.ones(shape=neg_shape, dtype=self.dtype), eigvals],
                                   axis=-1)
        return eigvals

    def _cond(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    @property
    def reflection_axis(self):
        return self._reflection_axis
