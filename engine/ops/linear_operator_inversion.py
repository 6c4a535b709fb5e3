"""tf.linalg.LinearOperatorInversion: TensorFlow 2.21's linear_operator_inversion.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_inversion.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import linalg, ops


@linear_operator.register_algebra_class
class LinearOperatorInversion(linear_operator.LinearOperator):
    """The inverse of an operator (its matmul is the operator's solve)."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(
                'Argument `is_non_singular` or argument `operator` must have supplied hint '
                '`is_non_singular` equal to `True` or `None`. Found `operator.is_non_singular`: '
                f'{operator.is_non_singular}, `is_non_singular`: {is_non_singular}.')
        if operator.is_square is False or is_square is False:
            raise ValueError(
                'Argument `is_square` or argument `operator` must have supplied hint `is_square` '
                f'equal to `True` or `None`. Found `operator.is_square`: {operator.is_square}, '
                f'`is_square`: {is_square}.')
        combine_hint = linear_operator_util.use_operator_or_provided_hint_unless_contradicting
        is_square = combine_hint(operator, 'is_square', is_square,
                                 'An operator is square if and only if its inverse is square.')
        is_non_singular = combine_hint(
            operator, 'is_non_singular', is_non_singular,
            'An operator is non-singular if and only if its inverse is non-singular.')
        is_self_adjoint = combine_hint(
            operator, 'is_self_adjoint', is_self_adjoint,
            'An operator is self-adjoint if and only if its inverse is self-adjoint.')
        is_positive_definite = combine_hint(
            operator, 'is_positive_definite', is_positive_definite,
            'An operator is positive-definite if and only if its inverse is positive-definite.')
        if name is None:
            name = operator.name + '_inv'
        with ops.name_scope(name):
            super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operator(self) -> 'LinearOperatorInversion':
        return self._operator

    def _linop_inverse(self) -> linear_operator.LinearOperator:
        return self.operator

    def _linop_solve(
        self, left_operator: 'LinearOperatorInversion',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        return left_operator.operator.matmul(right_operator)

    def _assert_non_singular(self):
        return self.operator.assert_non_singular()

    def _assert_positive_definite(self):
        return self.operator.assert_positive_definite()

    def _assert_self_adjoint(self):
        return self.operator.assert_self_adjoint()

    def _shape(self):
        return self.operator.shape

    def _shape_tensor(self):
        return self.operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self.operator.determinant()

    def _log_abs_determinant(self):
        return -1.0 * self.operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _eigvals(self):
        return 1.0 / self.operator.eigvals()

    def _cond(self):
        return self.operator.cond()
