"""tf.linalg.LinearOperatorBlockLowerTriangular: TensorFlow 2.21's
linear_operator_block_lower_triangular.py on the engine's ops (the same ops under the same name
scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_block_lower_triangular.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import dtypes
from engine.ops import (linear_operator, linear_operator_addition, linear_operator_full_matrix,
                        linear_operator_identity, linear_operator_util)
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, linalg, math_ops, ops, tensor_shape)


class LinearOperatorBlockLowerTriangular(linear_operator.LinearOperator):
    """A block lower triangular matrix of operators."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name='LinearOperatorBlockLowerTriangular'):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        check_ops.assert_proper_iterable(operators)
        for row in operators:
            check_ops.assert_proper_iterable(row)
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(
                f'Argument `operators` must be a list of >=1 operators. Received: {operators}.')
        self._operators = operators
        self._diagonal_operators = [row[-1] for row in operators]
        dtype = operators[0][0].dtype
        self._validate_dtype(dtype)
        is_non_singular = self._validate_non_singular(is_non_singular)
        self._validate_num_operators()
        self._validate_operator_dimensions()
        is_square = self._validate_square(is_square)
        with ops.name_scope(name):
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _validate_num_operators(self):
        for i, row in enumerate(self.operators):
            if len(row) != i + 1:
                raise ValueError(
                    f'Argument `operators[{i}]` must contain `{i + 1}` blocks. Received: '
                    f'{len(row)} blocks.')

    def _validate_operator_dimensions(self):
        for i in range(1, len(self.operators)):
            for j in range(i):
                op = self.operators[i][j]
                above_op = self.operators[i - 1][j]
                right_op = self.operators[i][j + 1]
                if op.domain_dimension is not None and above_op.domain_dimension is not None:
                    if op.domain_dimension != above_op.domain_dimension:
                        raise ValueError(
                            f'Argument `operators[{i}][{j}].domain_dimension` '
                            f'({op.domain_dimension}) must be the same as '
                            f'`operators[{i - 1}][{j}].domain_dimension` '
                            f'({above_op.domain_dimension}).')
                if op.range_dimension is not None and right_op.range_dimension is not None:
                    if op.range_dimension != right_op.range_dimension:
                        raise ValueError(
                            f'Argument `operators[{i}][{j}].range_dimension` '
                            f'({op.range_dimension}) must be the same as '
                            f'`operators[{i}][{j + 1}].range_dimension` '
                            f'({right_op.range_dimension}).')

    def _validate_non_singular(self, is_non_singular):
        if all((op.is_non_singular for op in self._diagonal_operators)):
            if is_non_singular is False:
                raise ValueError(
                    'A blockwise lower-triangular operator with non-singular operators on the '
                    'main diagonal is always non-singular. Expected argument `is_non_singular` '
                    f'to be True. Received: {is_non_singular}.')
            return True
        if any((op.is_non_singular is False for op in self._diagonal_operators)):
            if is_non_singular is True:
                raise ValueError(
                    'A blockwise lower-triangular operator with a singular operator on the main '
                    'diagonal is always singular. Expected argument `is_non_singular` to be '
                    f'True. Received: {is_non_singular}.')
            return False

    def _validate_square(self, is_square):
        if is_square is False:
            raise ValueError(
                '`LinearOperatorBlockLowerTriangular` must be square. Expected argument '
                f'`is_square` to be True. Received: {is_square}.')
        for i, op in enumerate(self._diagonal_operators):
            if op.is_square is False:
                raise ValueError(
                    'Matrices on the diagonal (the final elements of each row-partition in the '
                    '`operators` list) must be square. Expected argument '
                    f'`operators[{i}][-1].is_square` to be True. Received: {op.is_square}.')
        return True

    def _validate_dtype(self, dtype):
        for i, row in enumerate(self.operators):
            for operator in row:
                if operator.dtype != dtype:
                    name_type = (str((o.name, o.dtype)) for o in row)
                    raise TypeError(
                        'Expected all operators to have the same dtype.  Found {} in row {} and '
                        '{} in row 0.'.format(name_type, i, str(dtype)))

    @property
    def operators(self):
        return self._operators

    def _block_range_dimensions(self):
        return [op.range_dimension for op in self._diagonal_operators]

    def _block_domain_dimensions(self):
        return [op.domain_dimension for op in self._diagonal_operators]

    def _block_range_dimension_tensors(self):
        return [op.range_dimension_tensor() for op in self._diagonal_operators]

    def _block_domain_dimension_tensors(self):
        return [op.domain_dimension_tensor() for op in self._diagonal_operators]

    def _shape(self):
        domain_dimension = sum(self._block_domain_dimensions())
        range_dimension = sum(self._block_range_dimensions())
        matrix_shape = tensor_shape.TensorShape([domain_dimension, range_dimension])
        batch_shape = self.operators[0][0].batch_shape
        for row in self.operators[1:]:
            for operator in row:
                batch_shape = array_ops.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return ops.convert_to_tensor(self.shape.as_list(), dtype=dtypes.int32, name='shape')
        domain_dimension = sum(self._block_domain_dimension_tensors())
        range_dimension = sum(self._block_range_dimension_tensors())
        matrix_shape = array_ops_stack.stack([domain_dimension, range_dimension])
        batch_shape = self.operators[0][0].batch_shape_tensor()
        for row in self.operators[1:]:
            for operator in row:
                batch_shape = array_ops.broadcast_dynamic_shape(
                    batch_shape, operator.batch_shape_tensor())
        return array_ops.concat((batch_shape, matrix_shape), 0)

    def _linop_inverse(self) -> 'LinearOperatorBlockLowerTriangular':
        if len(self.operators) == 1:
            return LinearOperatorBlockLowerTriangular(
                [[self.operators[0][0].inverse()]], is_non_singular=self.is_non_singular,
                is_self_adjoint=self.is_self_adjoint,
                is_positive_definite=self.is_positive_definite, is_square=True)
        blockwise_dim = len(self.operators)
        upper_left_inverse = LinearOperatorBlockLowerTriangular(self.operators[:-1]).inverse()
        bottom_row = self.operators[-1]
        bottom_right_inverse = bottom_row[-1].inverse()
        inverse_bottom_row = []
        for i in range(blockwise_dim - 1):
            blocks = []
            for j in range(i, blockwise_dim - 1):
                result = bottom_row[j].matmul(upper_left_inverse.operators[j][i])
                if not any(isinstance(result, op_type)
                           for op_type in linear_operator_addition.SUPPORTED_OPERATORS):
                    result = linear_operator_full_matrix.LinearOperatorFullMatrix(result.to_dense())
                blocks.append(result)
            summed_blocks = linear_operator_addition.add_operators(blocks)
            assert len(summed_blocks) == 1
            block = summed_blocks[0]
            block = bottom_right_inverse.matmul(block)
            block = linear_operator_identity.LinearOperatorScaledIdentity(
                num_rows=bottom_right_inverse.domain_dimension_tensor(),
                multiplier=math_ops.cast(-1, dtype=block.dtype)).matmul(block)
            inverse_bottom_row.append(block)
        inverse_bottom_row.append(bottom_right_inverse)
        return LinearOperatorBlockLowerTriangular(
            upper_left_inverse.operators + [inverse_bottom_row],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):
        if isinstance(x, linear_operator.LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            if (right_operator.range_dimension is not None
                and left_operator.domain_dimension is not None
                and (right_operator.range_dimension != left_operator.domain_dimension)):
                raise ValueError(
                    'Operators are incompatible. Expected `x` to have dimension {} but got '
                    '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            with self._name_scope(name):
                return self._linop_matmul(left_operator, right_operator)
        with self._name_scope(name):
            arg_dim = -1 if adjoint_arg else -2
            block_dimensions = (self._block_range_dimensions() if adjoint
                                else self._block_domain_dimensions())
            if linear_operator_util.arg_is_blockwise(block_dimensions, x, arg_dim):
                for i, block in enumerate(x):
                    if not isinstance(block, linear_operator.LinearOperator):
                        block = ops.convert_to_tensor(block)
                        self._check_input_dtype(block)
                        block_dimensions[i].assert_is_compatible_with(block.shape[arg_dim])
                        x[i] = block
            else:
                x = ops.convert_to_tensor(x, name='x')
                self._check_input_dtype(x)
                op_dimension = self.range_dimension if adjoint else self.domain_dimension
                op_dimension.assert_is_compatible_with(x.shape[arg_dim])
            return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        arg_dim = -1 if adjoint_arg else -2
        block_dimensions = (self._block_range_dimensions() if adjoint
                            else self._block_domain_dimensions())
        blockwise_arg = linear_operator_util.arg_is_blockwise(block_dimensions, x, arg_dim)
        if blockwise_arg:
            split_x = x
        else:
            split_dim = -1 if adjoint_arg else -2
            split_x = linear_operator_util.split_arg_into_blocks(
                self._block_domain_dimensions(), self._block_domain_dimension_tensors, x,
                axis=split_dim)
        result_list = []
        if adjoint:
            for index in range(len(self.operators)):
                result = self.operators[index][index].matmul(
                    split_x[index], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j in range(index + 1, len(self.operators)):
                    result += self.operators[j][index].matmul(
                        split_x[j], adjoint=adjoint, adjoint_arg=adjoint_arg)
                result_list.append(result)
        else:
            for row in self.operators:
                result = row[0].matmul(split_x[0], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j, operator in enumerate(row[1:]):
                    result += operator.matmul(split_x[j + 1], adjoint=adjoint,
                                              adjoint_arg=adjoint_arg)
                result_list.append(result)
        if blockwise_arg:
            return result_list
        result_list = linear_operator_util.broadcast_matrix_batch_dims(result_list)
        return array_ops.concat(result_list, axis=-2)

    def matvec(self, x, adjoint=False, name='matvec'):
        with self._name_scope(name):
            block_dimensions = (self._block_range_dimensions() if adjoint
                                else self._block_domain_dimensions())
            if linear_operator_util.arg_is_blockwise(block_dimensions, x, -1):
                for i, block in enumerate(x):
                    if not isinstance(block, linear_operator.LinearOperator):
                        block = ops.convert_to_tensor(block)
                        self._check_input_dtype(block)
                        block_dimensions[i].assert_is_compatible_with(block.shape[-1])
                        x[i] = block
                x_mat = [block[..., array_ops.newaxis] for block in x]
                y_mat = self.matmul(x_mat, adjoint=adjoint)
                return [array_ops.squeeze(y, axis=-1) for y in y_mat]
            x = ops.convert_to_tensor(x, name='x')
            self._check_input_dtype(x)
            op_dimension = self.range_dimension if adjoint else self.domain_dimension
            op_dimension.assert_is_compatible_with(x.shape[-1])
            x_mat = x[..., array_ops.newaxis]
            y_mat = self.matmul(x_mat, adjoint=adjoint)
            return array_ops.squeeze(y_mat, axis=-1)

    def _determinant(self):
        if all((op.is_positive_definite for op in self._diagonal_operators)):
            return math_ops.exp(self._log_abs_determinant())
        result = self._diagonal_operators[0].determinant()
        for op in self._diagonal_operators[1:]:
            result *= op.determinant()
        return result

    def _log_abs_determinant(self):
        result = self._diagonal_operators[0].log_abs_determinant()
        for op in self._diagonal_operators[1:]:
            result += op.log_abs_determinant()
        return result

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        if self.is_non_singular is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to be singular.')
        if self.is_square is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to not be square.')
        if isinstance(rhs, linear_operator.LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            if (right_operator.range_dimension is not None
                and left_operator.domain_dimension is not None
                and (right_operator.range_dimension != left_operator.domain_dimension)):
                raise ValueError(
                    'Operators are incompatible. Expected `rhs` to have dimension {} but got '
                    '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            with self._name_scope(name):
                return self._linop_solve(left_operator, right_operator)
        with self._name_scope(name):
            block_dimensions = (self._block_domain_dimensions() if adjoint
                                else self._block_range_dimensions())
            arg_dim = -1 if adjoint_arg else -2
            blockwise_arg = linear_operator_util.arg_is_blockwise(block_dimensions, rhs, arg_dim)
            if blockwise_arg:
                for i, block in enumerate(rhs):
                    if not isinstance(block, linear_operator.LinearOperator):
                        block = ops.convert_to_tensor(block)
                        self._check_input_dtype(block)
                        block_dimensions[i].assert_is_compatible_with(block.shape[arg_dim])
                        rhs[i] = block
                if adjoint_arg:
                    split_rhs = [linalg.adjoint(y) for y in rhs]
                else:
                    split_rhs = rhs
            else:
                rhs = ops.convert_to_tensor(rhs, name='rhs')
                self._check_input_dtype(rhs)
                op_dimension = self.domain_dimension if adjoint else self.range_dimension
                op_dimension.assert_is_compatible_with(rhs.shape[arg_dim])
                rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
                split_rhs = linear_operator_util.split_arg_into_blocks(
                    self._block_domain_dimensions(), self._block_domain_dimension_tensors, rhs,
                    axis=-2)
            solution_list = []
            if adjoint:
                for index in reversed(range(len(self.operators))):
                    y = split_rhs[index]
                    for j in reversed(range(index + 1, len(self.operators))):
                        y = y - self.operators[j][index].matmul(
                            solution_list[len(self.operators) - 1 - j], adjoint=adjoint)
                    solution_list.append(self._diagonal_operators[index].solve(y, adjoint=adjoint))
                solution_list.reverse()
            else:
                for row, y in zip(self.operators, split_rhs):
                    for i, operator in enumerate(row[:-1]):
                        y = y - operator.matmul(solution_list[i], adjoint=adjoint)
                    solution_list.append(row[-1].solve(y, adjoint=adjoint))
            if blockwise_arg:
                return solution_list
            solution_list = linear_operator_util.broadcast_matrix_batch_dims(solution_list)
            return array_ops.concat(solution_list, axis=-2)

    def solvevec(self, rhs, adjoint=False, name='solve'):
        with self._name_scope(name):
            block_dimensions = (self._block_domain_dimensions() if adjoint
                                else self._block_range_dimensions())
            if linear_operator_util.arg_is_blockwise(block_dimensions, rhs, -1):
                for i, block in enumerate(rhs):
                    if not isinstance(block, linear_operator.LinearOperator):
                        block = ops.convert_to_tensor(block)
                        self._check_input_dtype(block)
                        block_dimensions[i].assert_is_compatible_with(block.shape[-1])
                        rhs[i] = block
                rhs_mat = [array_ops.expand_dims(block, axis=-1) for block in rhs]
                solution_mat = self.solve(rhs_mat, adjoint=adjoint)
                return [array_ops.squeeze(x, axis=-1) for x in solution_mat]
            rhs = ops.convert_to_tensor(rhs, name='rhs')
            self._check_input_dtype(rhs)
            op_dimension = self.domain_dimension if adjoint else self.range_dimension
            op_dimension.assert_is_compatible_with(rhs.shape[-1])
            rhs_mat = array_ops.expand_dims(rhs, axis=-1)
            solution_mat = self.solve(rhs_mat, adjoint=adjoint)
            return array_ops.squeeze(solution_mat, axis=-1)

    def _diag_part(self):
        diag_list = []
        for op in self._diagonal_operators:
            diag_list.append(op.diag_part()[..., array_ops.newaxis])
        diag_list = linear_operator_util.broadcast_matrix_batch_dims(diag_list)
        diagonal = array_ops.concat(diag_list, axis=-2)
        return array_ops.squeeze(diagonal, axis=-1)

    def _trace(self):
        result = self._diagonal_operators[0].trace()
        for op in self._diagonal_operators[1:]:
            result += op.trace()
        return result

    def _to_dense(self):
        num_cols = 0
        dense_rows = []
        flat_broadcast_operators = linear_operator_util.broadcast_matrix_batch_dims(
            [op.to_dense() for row in self.operators for op in row])
        broadcast_operators = [
            flat_broadcast_operators[
                i * (i + 1) // 2:(i + 1) * (i + 2) // 2] for i in range(len(self.operators))]
        for row_blocks in broadcast_operators:
            batch_row_shape = array_ops.shape(row_blocks[0])[:-1]
            num_cols += array_ops.shape(row_blocks[-1])[-1]
            zeros_to_pad_after_shape = array_ops.concat(
                [batch_row_shape, [self.domain_dimension_tensor() - num_cols]], axis=-1)
            zeros_to_pad_after = array_ops.zeros(shape=zeros_to_pad_after_shape, dtype=self.dtype)
            row_blocks.append(zeros_to_pad_after)
            dense_rows.append(array_ops.concat(row_blocks, axis=-1))
        mat = array_ops.concat(dense_rows, axis=-2)
        mat.set_shape(self.shape)
        return mat

    def _assert_non_singular(self):
        return control_flow_ops.group(
            [op.assert_non_singular() for op in self._diagonal_operators])

    def _eigvals(self):
        eig_list = []
        for op in self._diagonal_operators:
            eig_list.append(op.eigvals()[..., array_ops.newaxis])
        eig_list = linear_operator_util.broadcast_matrix_batch_dims(eig_list)
        eigs = array_ops.concat(eig_list, axis=-2)
        return array_ops.squeeze(eigs, axis=-1)
