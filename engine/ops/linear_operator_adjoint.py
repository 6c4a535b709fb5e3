"""tf.linalg.LinearOperatorAdjoint: TensorFlow 2.21's linear_operator_adjoint.py on the engine's
ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_adjoint.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import array_ops, linalg, math_ops, ops


@linear_operator.register_algebra_class
class LinearOperatorAdjoint(linear_operator.LinearOperator):
    """The adjoint (conjugate transpose) of an operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operator = operator
        combine_hint = linear_operator_util.use_operator_or_provided_hint_unless_contradicting
        is_square = combine_hint(operator, 'is_square', is_square,
                                 'An operator is square if and only if its adjoint is square.')
        is_non_singular = combine_hint(
            operator, 'is_non_singular', is_non_singular,
            'An operator is non-singular if and only if its adjoint is non-singular.')
        is_self_adjoint = combine_hint(
            operator, 'is_self_adjoint', is_self_adjoint,
            'An operator is self-adjoint if and only if its adjoint is self-adjoint.')
        is_positive_definite = combine_hint(
            operator, 'is_positive_definite', is_positive_definite,
            'An operator is positive-definite if and only if its adjoint is positive-definite.')
        if name is None:
            name = operator.name + '_adjoint'
        with ops.name_scope(name):
            super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operator(self):
        return self._operator

    def _linop_adjoint(self) -> linear_operator.LinearOperator:
        return self.operator

    def _assert_non_singular(self):
        return self.operator.assert_non_singular()

    def _assert_positive_definite(self):
        return self.operator.assert_positive_definite()

    def _assert_self_adjoint(self):
        return self.operator.assert_self_adjoint()

    def _shape(self):
        shape = self.operator.shape
        return shape[:-2].concatenate([shape[-1], shape[-2]])

    def _shape_tensor(self):
        shape = self.operator.shape_tensor()
        return array_ops.concat([shape[:-2], [shape[-1], shape[-2]]], axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self.operator.matvec(x, adjoint=not adjoint)

    def _determinant(self):
        if self.is_self_adjoint:
            return self.operator.determinant()
        return math_ops.conj(self.operator.determinant())

    def _log_abs_determinant(self):
        return self.operator.log_abs_determinant()

    def _trace(self):
        if self.is_self_adjoint:
            return self.operator.trace()
        return math_ops.conj(self.operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self.operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self):
        if self.is_self_adjoint:
            return self.operator.to_dense()
        return linalg.adjoint(self.operator.to_dense())

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def _eigvals(self):
        eigvals = self.operator.eigvals()
        if not self.operator.is_self_adjoint:
            eigvals = math_ops.conj(eigvals)
        return eigvals

    def _cond(self):
        return self.operator.cond()
