"""tf.linalg.LinearOperatorBlockDiag: TensorFlow 2.21's linear_operator_block_diag.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_block_diag.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, linalg, ops, tensor_shape)


class LinearOperatorBlockDiag(linear_operator.LinearOperator):
    """Operators on the diagonal of a block matrix, zeros elsewhere."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        check_ops.assert_proper_iterable(operators)
        operators = list(operators)
        if not operators:
            raise ValueError('Expected a non-empty list of operators. Found: %s' % operators)
        self._operators = operators
        self._diagonal_operators = operators
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
                    'The direct sum of non-singular operators is always non-singular.')
            is_non_singular = True
        if all((operator.is_self_adjoint for operator in operators)):
            if is_self_adjoint is False:
                raise ValueError(
                    'The direct sum of self-adjoint operators is always self-adjoint.')
            is_self_adjoint = True
        if all((operator.is_positive_definite for operator in operators)):
            if is_positive_definite is False:
                raise ValueError(
                    'The direct sum of positive definite operators is always positive definite.')
            is_positive_definite = True
        if name is None:
            name = '_ds_'.join((operator.name for operator in operators))
        with ops.name_scope(name):
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

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
        matrix_shape = tensor_shape.TensorShape([range_dimension, domain_dimension])
        batch_shape = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch_shape = array_ops.broadcast_static_shape(batch_shape, operator.batch_shape)
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return ops.convert_to_tensor(self.shape.as_list(), dtype=dtypes.int32, name='shape')
        domain_dimension = sum(self._block_domain_dimension_tensors())
        range_dimension = sum(self._block_range_dimension_tensors())
        matrix_shape = array_ops_stack.stack([range_dimension, domain_dimension])
        zeros = array_ops.zeros(shape=self.operators[0].batch_shape_tensor())
        for operator in self.operators[1:]:
            zeros += array_ops.zeros(shape=operator.batch_shape_tensor())
        batch_shape = array_ops.shape(zeros)
        return array_ops.concat((batch_shape, matrix_shape), 0)

    def _linop_adjoint(self) -> 'LinearOperatorBlockDiag':
        return LinearOperatorBlockDiag(
            operators=[operator.adjoint() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self) -> 'LinearOperatorBlockDiag':
        return LinearOperatorBlockDiag(
            operators=[operator.cholesky() for operator in self.operators], is_non_singular=True,
            is_self_adjoint=None, is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorBlockDiag':
        return LinearOperatorBlockDiag(
            operators=[operator.inverse() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorBlockDiag',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if isinstance(right_operator, LinearOperatorBlockDiag):
            return LinearOperatorBlockDiag(
                operators=[o1.matmul(o2) for o1,
                           o2 in zip(left_operator.operators, right_operator.operators)],
                is_non_singular=linear_operator_util.combined_non_singular_hint(
                    left_operator, right_operator),
                is_self_adjoint=None, is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(
        self, left_operator: 'LinearOperatorBlockDiag',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if isinstance(right_operator, LinearOperatorBlockDiag):
            return LinearOperatorBlockDiag(
                operators=[o1.solve(o2) for o1,
                           o2 in zip(left_operator.operators, right_operator.operators)],
                is_non_singular=linear_operator_util.combined_non_singular_hint(
                    left_operator, right_operator),
                is_self_adjoint=None, is_positive_definite=None, is_square=True)
        return super()._linop_solve(left_operator, right_operator)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):

        def _check_operators_agree(r, l, message):
            if (r.range_dimension is not None and l.domain_dimension is not None
                and (r.range_dimension != l.domain_dimension)):
                raise ValueError(message)
        if isinstance(x, linear_operator.LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            _check_operators_agree(
                right_operator, left_operator,
                'Operators are incompatible. Expected `x` to have dimension {} but got '
                '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            if isinstance(x, LinearOperatorBlockDiag):
                if len(left_operator.operators) != len(right_operator.operators):
                    raise ValueError(
                        'Can not efficiently multiply two `LinearOperatorBlockDiag`s together '
                        'when number of blocks differ.')
                for o1, o2 in zip(left_operator.operators, right_operator.operators):
                    _check_operators_agree(
                        o2, o1,
                        'Blocks are incompatible. Expected `x` to have dimension {} but got '
                        '{}.'.format(o1.domain_dimension, o2.range_dimension))
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
        block_dimensions_fn = (self._block_range_dimension_tensors if adjoint
                               else self._block_domain_dimension_tensors)
        blockwise_arg = linear_operator_util.arg_is_blockwise(block_dimensions, x, arg_dim)
        if blockwise_arg:
            split_x = x
        else:
            split_dim = -1 if adjoint_arg else -2
            split_x = linear_operator_util.split_arg_into_blocks(
                block_dimensions, block_dimensions_fn, x, axis=split_dim)
        result_list = []
        for index, operator in enumerate(self.operators):
            result_list += [
                operator.matmul(split_x[index], adjoint=adjoint, adjoint_arg=adjoint_arg)]
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
        result = self.operators[0].determinant()
        for operator in self.operators[1:]:
            result *= operator.determinant()
        return result

    def _log_abs_determinant(self):
        result = self.operators[0].log_abs_determinant()
        for operator in self.operators[1:]:
            result += operator.log_abs_determinant()
        return result

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        if self.is_non_singular is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to be singular.')
        if self.is_square is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to not be square.')

        def _check_operators_agree(r, l, message):
            if (r.range_dimension is not None and l.domain_dimension is not None
                and (r.range_dimension != l.domain_dimension)):
                raise ValueError(message)
        if isinstance(rhs, linear_operator.LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            _check_operators_agree(
                right_operator, left_operator,
                'Operators are incompatible. Expected `x` to have dimension {} but got '
                '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            if isinstance(right_operator, LinearOperatorBlockDiag):
                if len(left_operator.operators) != len(right_operator.operators):
                    raise ValueError(
                        'Can not efficiently solve `LinearOperatorBlockDiag` when number of '
                        'blocks differ.')
                for o1, o2 in zip(left_operator.operators, right_operator.operators):
                    _check_operators_agree(
                        o2, o1,
                        'Blocks are incompatible. Expected `x` to have dimension {} but got '
                        '{}.'.format(o1.domain_dimension, o2.range_dimension))
            with self._name_scope(name):
                return self._linop_solve(left_operator, right_operator)
        with self._name_scope(name):
            block_dimensions = (self._block_domain_dimensions() if adjoint
                                else self._block_range_dimensions())
            arg_dim = -1 if adjoint_arg else -2
            blockwise_arg = linear_operator_util.arg_is_blockwise(block_dimensions, rhs, arg_dim)
            if blockwise_arg:
                split_rhs = rhs
                for i, block in enumerate(split_rhs):
                    if not isinstance(block, linear_operator.LinearOperator):
                        block = ops.convert_to_tensor(block)
                        self._check_input_dtype(block)
                        block_dimensions[i].assert_is_compatible_with(block.shape[arg_dim])
                        split_rhs[i] = block
            else:
                rhs = ops.convert_to_tensor(rhs, name='rhs')
                self._check_input_dtype(rhs)
                op_dimension = self.domain_dimension if adjoint else self.range_dimension
                op_dimension.assert_is_compatible_with(rhs.shape[arg_dim])
                split_dim = -1 if adjoint_arg else -2
                split_rhs = linear_operator_util.split_arg_into_blocks(
                    self._block_domain_dimensions(), self._block_domain_dimension_tensors, rhs,
                    axis=split_dim)
            solution_list = []
            for index, operator in enumerate(self.operators):
                solution_list += [
                    operator.solve(split_rhs[index], adjoint=adjoint, adjoint_arg=adjoint_arg)]
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
        if not all((operator.is_square for operator in self.operators)):
            raise NotImplementedError(
                '`diag_part` not implemented for an operator whose blocks are not square.')
        diag_list = []
        for operator in self.operators:
            diag_list += [operator.diag_part()[..., array_ops.newaxis]]
        diag_list = linear_operator_util.broadcast_matrix_batch_dims(diag_list)
        diagonal = array_ops.concat(diag_list, axis=-2)
        return array_ops.squeeze(diagonal, axis=-1)

    def _trace(self):
        if not all((operator.is_square for operator in self.operators)):
            raise NotImplementedError(
                '`trace` not implemented for an operator whose blocks are not square.')
        result = self.operators[0].trace()
        for operator in self.operators[1:]:
            result += operator.trace()
        return result

    def _to_dense(self):
        num_cols = 0
        rows = []
        broadcasted_blocks = [operator.to_dense() for operator in self.operators]
        broadcasted_blocks = linear_operator_util.broadcast_matrix_batch_dims(broadcasted_blocks)
        for block in broadcasted_blocks:
            batch_row_shape = array_ops.shape(block)[:-1]
            zeros_to_pad_before_shape = array_ops.concat([batch_row_shape, [num_cols]], axis=-1)
            zeros_to_pad_before = array_ops.zeros(
                shape=zeros_to_pad_before_shape, dtype=block.dtype)
            num_cols += array_ops.shape(block)[-1]
            zeros_to_pad_after_shape = array_ops.concat(
                [batch_row_shape, [self.domain_dimension_tensor() - num_cols]], axis=-1)
            zeros_to_pad_after = array_ops.zeros(shape=zeros_to_pad_after_shape, dtype=block.dtype)
            rows.append(
                array_ops.concat([zeros_to_pad_before, block, zeros_to_pad_after], axis=-1))
        mat = array_ops.concat(rows, axis=-2)
        mat.set_shape(self.shape)
        return mat

    def _assert_non_singular(self):
        return control_flow_ops.group(
            [operator.assert_non_singular() for operator in self.operators])

    def _assert_self_adjoint(self):
        return control_flow_ops.group(
            [operator.assert_self_adjoint() for operator in self.operators])

    def _assert_positive_definite(self):
        return control_flow_ops.group(
            [operator.assert_positive_definite() for operator in self.operators])

    def _eigvals(self):
        if not all((operator.is_square for operator in self.operators)):
            raise NotImplementedError(
                '`eigvals` not implemented for an operator whose blocks are not square.')
        eig_list = []
        for operator in self.operators:
            eig_list += [operator.eigvals()[..., array_ops.newaxis]]
        eig_list = linear_operator_util.broadcast_matrix_batch_dims(eig_list)
        eigs = array_ops.concat(eig_list, axis=-2)
        return array_ops.squeeze(eigs, axis=-1)
