"""tf.linalg.LinearOperatorLowerTriangular: TensorFlow 2.21's linear_operator_lower_triangular.py
on the engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_lower_triangular.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import array_ops, linalg, math_ops, ops


@linear_operator.register_algebra_class
class LinearOperatorLowerTriangular(linear_operator.LinearOperator):
    """A lower triangular matrix (the upper triangle ignored)."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name='LinearOperatorLowerTriangular'):
        parameters = dict(tril=tril, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        if is_square is False:
            raise ValueError('Only square lower triangular operators supported at this time.')
        is_square = True
        with ops.name_scope(name, values=[tril]):
            self._tril = linear_operator_util.convert_nonref_to_tensor(tril, name='tril')
            self._check_tril(self._tril)
            super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def tril(self):
        return self._tril

    def _check_tril(self, tril):
        if tril.shape.ndims is not None and tril.shape.ndims < 2:
            raise ValueError('Argument tril must have at least 2 dimensions.  Found: %s' % tril)

    def _get_tril(self):
        return array_ops.matrix_band_part(self._tril, -1, 0)

    def _get_diag(self):
        return array_ops.matrix_diag_part(self._tril)

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return array_ops.shape(self._tril)

    def _assert_non_singular(self):
        return linear_operator_util.assert_no_entries_with_modulus_zero(
            self._get_diag(), message='Singular operator:  Diagonal contained zero values.')

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorLowerTriangular',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if hasattr(right_operator, '_check_diag'):
            return LinearOperatorLowerTriangular(
                tril=left_operator.to_dense() * right_operator.diag,
                is_non_singular=linear_operator_util.combined_non_singular_hint(
                    right_operator, left_operator),
                is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                    right_operator, left_operator),
                is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _determinant(self):
        return math_ops.reduce_prod(self._get_diag(), axis=[-1])

    def _log_abs_determinant(self):
        return math_ops.reduce_sum(math_ops.log(math_ops.abs(self._get_diag())), axis=[-1])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        return linalg.triangular_solve(self._get_tril(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self):
        return self._get_tril()

    def _eigvals(self):
        return self._get_diag()
