"""tf.linalg.LinearOperatorDiag: TensorFlow 2.21's linear_operator_diag.py on the engine's ops (the
same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_diag.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import linear_operator, linear_operator_lower_triangular, linear_operator_util
from engine.ops.linear_operator_util import array_ops, check_ops, linalg, math_ops, ops


class LinearOperatorDiag(linear_operator.LinearOperator):
    """A diagonal matrix known by its diagonal."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name='LinearOperatorDiag'):
        parameters = dict(diag=diag, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[diag]):
            self._diag = linear_operator_util.convert_nonref_to_tensor(diag, name='diag')
            self._check_diag(self._diag)
            if not self._diag.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError('A real diagonal operator is always self adjoint.')
                else:
                    is_self_adjoint = True
            if is_square is False:
                raise ValueError('Only square diagonal operators currently supported.')
            is_square = True
            super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_diag(self, diag):
        if diag.shape.ndims is not None and diag.shape.ndims < 1:
            raise ValueError('Argument diag must have at least 1 dimension.  Found: %s' % diag)

    def _shape(self):
        d_shape = self._diag.shape
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self):
        d_shape = array_ops.shape(self._diag)
        k = d_shape[-1]
        return array_ops.concat((d_shape, [k]), 0)

    @property
    def diag(self):
        return self._diag

    def _linop_inverse(self) -> 'LinearOperatorDiag':
        return LinearOperatorDiag(1.0 / self.diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorDiag',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        is_non_singular = linear_operator_util.combined_non_singular_hint(
            left_operator, right_operator)
        is_self_adjoint = linear_operator_util.combined_commuting_self_adjoint_hint(
            left_operator, right_operator)
        is_positive_definite = linear_operator_util.combined_commuting_positive_definite_hint(
            left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=left_operator.diag * right_operator.diag,
                                      is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        elif hasattr(right_operator, '_ones_diag') and hasattr(right_operator, 'multiplier'):
            return LinearOperatorDiag(diag=left_operator.diag * right_operator.multiplier,
                                      is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        elif isinstance(right_operator,
                        linear_operator_lower_triangular.LinearOperatorLowerTriangular):
            return linear_operator_lower_triangular.LinearOperatorLowerTriangular(
                tril=left_operator.diag[..., None] * right_operator.to_dense(),
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=None, is_square=True)
        else:
            return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(
        self, left_operator: 'LinearOperatorDiag',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        is_non_singular = linear_operator_util.combined_non_singular_hint(
            left_operator, right_operator)
        is_self_adjoint = linear_operator_util.combined_commuting_self_adjoint_hint(
            left_operator, right_operator)
        is_positive_definite = linear_operator_util.combined_commuting_positive_definite_hint(
            left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(diag=right_operator.diag / left_operator.diag,
                                      is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        elif hasattr(right_operator, '_ones_diag') and hasattr(right_operator, 'multiplier'):
            return LinearOperatorDiag(diag=right_operator.multiplier / left_operator.diag,
                                      is_non_singular=is_non_singular,
                                      is_self_adjoint=is_self_adjoint,
                                      is_positive_definite=is_positive_definite, is_square=True)
        elif isinstance(right_operator,
                        linear_operator_lower_triangular.LinearOperatorLowerTriangular):
            return linear_operator_lower_triangular.LinearOperatorLowerTriangular(
                tril=right_operator.to_dense() / left_operator.diag[..., None],
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=None, is_square=True)
        else:
            return super()._linop_solve(left_operator, right_operator)

    def _assert_non_singular(self):
        return linear_operator_util.assert_no_entries_with_modulus_zero(
            self._diag, message='Singular operator:  Diagonal contained zero values.')

    def _assert_positive_definite(self):
        if self.dtype.is_complex:
            message = ('Diagonal operator had diagonal entries with non-positive real part, thus '
                       'was not positive definite.')
        else:
            message = ('Real diagonal operator had non-positive diagonal entries, thus was not '
                       'positive definite.')
        return check_ops.assert_positive(math_ops.real(self._diag), message=message)

    def _assert_self_adjoint(self):
        return linear_operator_util.assert_zero_imag_part(
            self._diag,
            message='This diagonal operator contained non-zero imaginary values.   '
                    'Thus it was not self-adjoint.')

    def _linop_adjoint(self) -> 'LinearOperatorDiag':
        diag = self.diag
        if diag.dtype.is_complex:
            diag = math_ops.conj(diag)
        return LinearOperatorDiag(diag=diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self) -> 'LinearOperatorDiag':
        return LinearOperatorDiag(math_ops.sqrt(self.diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True, is_square=True)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        diag_term = math_ops.conj(self._diag) if adjoint else self._diag
        x = linalg.adjoint(x) if adjoint_arg else x
        diag_mat = array_ops.expand_dims(diag_term, -1)
        return diag_mat * x

    def _matvec(self, x, adjoint=False):
        diag_term = math_ops.conj(self._diag) if adjoint else self._diag
        return diag_term * x

    def _determinant(self):
        return math_ops.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        log_det = math_ops.reduce_sum(math_ops.log(math_ops.abs(self._diag)), axis=[-1])
        if self.dtype.is_complex:
            log_det = math_ops.cast(log_det, dtype=self.dtype)
        return log_det

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        diag_term = math_ops.conj(self._diag) if adjoint else self._diag
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        inv_diag_mat = array_ops.expand_dims(1.0 / diag_term, -1)
        return rhs * inv_diag_mat

    def _to_dense(self):
        return array_ops.matrix_diag(self._diag)

    def _diag_part(self):
        return self.diag

    def _add_to_tensor(self, x):
        x_diag = array_ops.matrix_diag_part(x)
        new_diag = self._diag + x_diag
        return array_ops.matrix_set_diag(x, new_diag)

    def _eigvals(self):
        return ops.convert_to_tensor(self.diag)

    def _cond(self):
        abs_diag = math_ops.abs(self.diag)
        return math_ops.reduce_max(abs_diag, axis=-1) / math_ops.reduce_min(abs_diag, axis=-1)
