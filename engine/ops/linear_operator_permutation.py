"""tf.linalg.LinearOperatorPermutation: TensorFlow 2.21's linear_operator_permutation.py on the
engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_permutation.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import numpy as np

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, control_flow_ops, linalg, math_ops, ops,
                                             sort_ops, tensor_util)


class LinearOperatorPermutation(linear_operator.LinearOperator):
    """A permutation matrix known by its permutation."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorPermutation'):
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[perm]):
            self._perm = linear_operator_util.convert_nonref_to_tensor(perm, name='perm')
            self._check_perm(self._perm)
            if is_non_singular is False:
                raise ValueError(
                    'A Permutation operator is always non-singular. Expected argument '
                    f'`is_non_singular` to be True. Received: {is_non_singular}.')
            if is_square is False:
                raise ValueError(
                    'A Permutation operator is always square. Expected argument `is_square` to '
                    f'be True. Received: {is_square}.')
            is_square = True
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_perm(self, perm):
        if perm.shape.ndims is not None and perm.shape.ndims < 1:
            raise ValueError(f'Argument `perm` must have at least 1 dimension. Received: {perm}.')
        if not perm.dtype.is_integer:
            raise TypeError(f'Argument `perm` must be integer dtype. Received: {perm}.')
        static_perm = tensor_util.constant_value(perm)
        if static_perm is not None:
            sorted_perm = np.sort(static_perm, axis=-1)
            if np.any(sorted_perm != np.arange(0, static_perm.shape[-1])):
                raise ValueError(
                    'Argument `perm` must be a vector of unique integers from 0 to '
                    f'{static_perm.shape[-1] - 1}.')

    def _shape(self):
        perm_shape = self._perm.shape
        return perm_shape.concatenate(perm_shape[-1:])

    def _shape_tensor(self):
        perm_shape = array_ops.shape(self._perm)
        k = perm_shape[-1]
        return array_ops.concat((perm_shape, [k]), 0)

    def _assert_non_singular(self):
        return control_flow_ops.no_op('assert_non_singular')

    def _domain_dimension_tensor(self, perm=None):
        perm = perm if perm is not None else self.perm
        return array_ops.shape(perm)[-1]

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        perm = ops.convert_to_tensor(self.perm)
        if adjoint and (not self.is_self_adjoint):
            perm = sort_ops.argsort(perm, axis=-1)
        x = linalg.adjoint(x) if adjoint_arg else x
        broadcast_shape = array_ops.broadcast_dynamic_shape(
            array_ops.shape(x)[:-1], array_ops.shape(perm))
        k = array_ops.shape(x)[-1]
        broadcast_x_shape = array_ops.concat([broadcast_shape, [k]], axis=-1)
        x = array_ops.broadcast_to(x, broadcast_x_shape)
        perm = array_ops.broadcast_to(perm, broadcast_shape)
        m = array_ops.shape(x)[-2]
        x = array_ops.reshape(x, [-1, m, k])
        perm = array_ops.reshape(perm, [-1, m])
        y = array_ops.gather(x, perm, axis=-2, batch_dims=1)
        return array_ops.reshape(y, broadcast_x_shape)

    def _log_abs_determinant(self):
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        perm = ops.convert_to_tensor(self.perm)
        return math_ops.cast(
            math_ops.equal(math_ops.range(0, self._domain_dimension_tensor(perm)),
                           perm[..., array_ops.newaxis]),
            self.dtype)

    def _diag_part(self):
        perm = ops.convert_to_tensor(self.perm)
        return math_ops.cast(
            math_ops.equal(math_ops.range(0, self._domain_dimension_tensor(perm)), perm),
            self.dtype)

    def _cond(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    @property
    def perm(self):
        return self._perm
