"""tf.linalg.LinearOperatorComposition: TensorFlow 2.21's linear_operator_composition.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_composition.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_lower_triangular, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, linalg, linalg_ops, math_ops, ops,
                                             tensor_shape)


@linear_operator.register_algebra_class
class LinearOperatorComposition(linear_operator.LinearOperator):
    """The product of operators, applied right to left."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        check_ops.assert_proper_iterable(operators)
        operators = list(operators)
        if not operators:
            raise ValueError('Expected a non-empty list of operators. Found: %s' % operators)
        self._operators = operators
        dtype = operators[0].dtype
        for operator in operators:
            if operator.dtype != dtype:
                name_type = (str((o.name, o.dtype)) for o in operators)
                raise TypeError(
                    'Expected all operators to have the same dtype.  Found '
                    '%s' % '   '.join(name_type))
        if all((operator.is_non_singular for operator in operators)):
            if is_non_singular is False:
                raise ValueError(
                    'The composition of non-singular operators is always non-singular.')
            is_non_singular = True
        if _composition_must_be_self_adjoint(operators):
            if is_self_adjoint is False:
                raise ValueError(
                    'The composition was determined to be self-adjoint but user provided '
                    'incorrect `False` hint.')
            is_self_adjoint = True
        if linear_operator_util.is_aat_form(operators):
            if is_square is False:
                raise ValueError(
                    'The composition was determined have the form A @ A.H, hence it must be '
                    'square. The user provided an incorrect `False` hint.')
            is_square = True
        if linear_operator_util.is_aat_form(operators) and is_non_singular:
            if is_positive_definite is False:
                raise ValueError(
                    'The composition was determined to be non-singular and have the form A @ A.H, '
                    'hence it must be positive-definite. The user provided an incorrect `False` '
                    'hint.')
            is_positive_definite = True
        if name is None:
            name = '_o_'.join((operator.name for operator in operators))
        with ops.name_scope(name):
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        domain_dimension = self.operators[0].domain_dimension
        for operator in self.operators[1:]:
            domain_dimension.assert_is_compatible_with(operator.range_dimension)
            domain_dimension = operator.domain_dimension
        matrix_shape = tensor_shape.TensorShape(
            [self.operators[0].range_dimension, self.operators[-1].domain_dimension])
        batch_shape = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch_shape = array_ops.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return ops.convert_to_tensor(self.shape.as_list(), dtype=dtypes.int32, name='shape')
        matrix_shape = array_ops_stack.stack(
            [self.operators[0].range_dimension_tensor(),
             self.operators[-1].domain_dimension_tensor()])
        zeros = array_ops.zeros(shape=self.operators[0].batch_shape_tensor())
        for operator in self.operators[1:]:
            zeros += array_ops.zeros(shape=operator.batch_shape_tensor())
        batch_shape = array_ops.shape(zeros)
        return array_ops.concat((batch_shape, matrix_shape), 0)

    def _linop_cholesky(self) -> linear_operator.LinearOperator:

        def _is_llt_product(self):
            if len(self.operators) != 2:
                return False
            if not linear_operator_util.is_aat_form(self.operators):
                return False
            return isinstance(self.operators[0],
                              linear_operator_lower_triangular.LinearOperatorLowerTriangular)
        if not _is_llt_product(self):
            return linear_operator_lower_triangular.LinearOperatorLowerTriangular(
                linalg_ops.cholesky(self.to_dense()), is_non_singular=True, is_self_adjoint=False,
                is_square=True)
        left_op = self.operators[0]
        if left_op.is_positive_definite:
            return left_op
        diag_sign = array_ops.expand_dims(math_ops.sign(left_op.diag_part()), axis=-2)
        return linear_operator_lower_triangular.LinearOperatorLowerTriangular(
            tril=left_op.tril / diag_sign, is_non_singular=left_op.is_non_singular,
            is_self_adjoint=left_op.is_self_adjoint,
            is_positive_definite=True if left_op.is_positive_definite else None, is_square=True)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        if adjoint:
            matmul_order_list = self.operators
        else:
            matmul_order_list = list(reversed(self.operators))
        result = matmul_order_list[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in matmul_order_list[1:]:
            result = operator.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self):
        result = self.operators[0].determinant()
        for operator in self.operators[1:]:
            result *= operator.determinant()
        return result

    def _log_abs_determinant(self):
        result = self.operators[0].log_abs_determinant()
        for operator in self.operators[1:]:
            result += operator.log_abs_determinant()
        return result

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint:
            solve_order_list = list(reversed(self.operators))
        else:
            solve_order_list = self.operators
        solution = solve_order_list[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in solve_order_list[1:]:
            solution = operator.solve(solution, adjoint=adjoint)
        return solution

    def _assert_non_singular(self):
        if all((operator.is_square for operator in self.operators)):
            asserts = [operator.assert_non_singular() for operator in self.operators]
            return control_flow_ops.group(asserts)
        return super()._assert_non_singular()


def _composition_must_be_self_adjoint(operators):
    if len(operators) == 1 and operators[0].is_self_adjoint:
        return True
    if linear_operator_util.is_aat_form(operators):
        return True
    return False
