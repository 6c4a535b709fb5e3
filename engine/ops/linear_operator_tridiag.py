"""tf.linalg.LinearOperatorTridiag: TensorFlow 2.21's linear_operator_tridiag.py on the engine's
ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_tridiag.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import linear_operator, linear_operator_util, manip_ops
from engine.ops.linear_operator_util import (array_ops, array_ops_stack, check_ops,
                                             control_flow_ops, gen_array_ops, linalg, math_ops,
                                             ops)


_COMPACT = 'compact'
_MATRIX = 'matrix'
_SEQUENCE = 'sequence'
_DIAGONAL_FORMATS = frozenset({_COMPACT, _MATRIX, _SEQUENCE})


class LinearOperatorTridiag(linear_operator.LinearOperator):
    """A tridiagonal matrix: diagonals compact, a sequence or a matrix."""

    def __init__(self, diagonals, diagonals_format=_COMPACT, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name='LinearOperatorTridiag'):
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with ops.name_scope(name, values=[diagonals]):
            if diagonals_format not in _DIAGONAL_FORMATS:
                raise ValueError(
                    'Argument `diagonals_format` must be one of compact, matrix, or sequence. '
                    f'Received : {diagonals_format}.')
            if diagonals_format == _SEQUENCE:
                self._diagonals = [
                    linear_operator_util.convert_nonref_to_tensor(
                        d, name='diag_{}'.format(i)) for i,
                    d in enumerate(diagonals)]
                dtype = self._diagonals[0].dtype
            else:
                self._diagonals = linear_operator_util.convert_nonref_to_tensor(
                    diagonals, name='diagonals')
                dtype = self._diagonals.dtype
            self._diagonals_format = diagonals_format
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _shape(self):
        if self.diagonals_format == _MATRIX:
            return self.diagonals.shape
        if self.diagonals_format == _COMPACT:
            d_shape = self.diagonals.shape[:-2].concatenate(self.diagonals.shape[-1])
        else:
            broadcast_shape = array_ops.broadcast_static_shape(
                self.diagonals[0].shape[:-1], self.diagonals[1].shape[:-1])
            broadcast_shape = array_ops.broadcast_static_shape(
                broadcast_shape, self.diagonals[2].shape[:-1])
            d_shape = broadcast_shape.concatenate(self.diagonals[1].shape[-1])
        return d_shape.concatenate(d_shape[-1])

    def _shape_tensor(self, diagonals=None):
        diagonals = diagonals if diagonals is not None else self.diagonals
        if self.diagonals_format == _MATRIX:
            return array_ops.shape(diagonals)
        if self.diagonals_format == _COMPACT:
            d_shape = array_ops.shape(diagonals[..., 0, :])
        else:
            broadcast_shape = array_ops.broadcast_dynamic_shape(
                array_ops.shape(self.diagonals[0])[:-1], array_ops.shape(self.diagonals[1])[:-1])
            broadcast_shape = array_ops.broadcast_dynamic_shape(
                broadcast_shape, array_ops.shape(self.diagonals[2])[:-1])
            d_shape = array_ops.concat(
                [broadcast_shape, [array_ops.shape(self.diagonals[1])[-1]]], axis=0)
        return array_ops.concat([d_shape, [d_shape[-1]]], axis=-1)

    def _assert_self_adjoint(self):
        asserts = []
        diag_message = ('This tridiagonal operator contained non-zero imaginary values on the '
                        'diagonal.')
        off_diag_message = ('This tridiagonal operator has non-conjugate subdiagonal and '
                            'superdiagonal.')
        if self.diagonals_format == _MATRIX:
            asserts += [
                check_ops.assert_equal(self.diagonals, linalg.adjoint(self.diagonals),
                                       message='Matrix was not equal to its adjoint.')]
        elif self.diagonals_format == _COMPACT:
            diagonals = ops.convert_to_tensor(self.diagonals)
            asserts += [
                linear_operator_util.assert_zero_imag_part(
                    diagonals[..., 1, :], message=diag_message)]
            subdiag = manip_ops.roll(diagonals[..., 2, :], shift=-1, axis=-1)
            asserts += [
                check_ops.assert_equal(math_ops.conj(subdiag[..., :-1]), diagonals[..., 0, :-1],
                                       message=off_diag_message)]
        else:
            asserts += [
                linear_operator_util.assert_zero_imag_part(
                    self.diagonals[1], message=diag_message)]
            subdiag = manip_ops.roll(self.diagonals[2], shift=-1, axis=-1)
            asserts += [
                check_ops.assert_equal(math_ops.conj(subdiag[..., :-1]),
                                       self.diagonals[0][..., :-1], message=off_diag_message)]
        return control_flow_ops.group(asserts)

    def _construct_adjoint_diagonals(self, diagonals):
        if self.diagonals_format == _SEQUENCE:
            diagonals = [math_ops.conj(d) for d in reversed(diagonals)]
            diagonals[0] = manip_ops.roll(diagonals[0], shift=-1, axis=-1)
            diagonals[2] = manip_ops.roll(diagonals[2], shift=1, axis=-1)
            return diagonals
        elif self.diagonals_format == _MATRIX:
            return linalg.adjoint(diagonals)
        else:
            diagonals = math_ops.conj(diagonals)
            superdiag, diag, subdiag = array_ops_stack.unstack(diagonals, num=3, axis=-2)
            new_superdiag = manip_ops.roll(subdiag, shift=-1, axis=-1)
            new_subdiag = manip_ops.roll(superdiag, shift=1, axis=-1)
            return array_ops_stack.stack([new_superdiag, diag, new_subdiag], axis=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        diagonals = self.diagonals
        if adjoint:
            diagonals = self._construct_adjoint_diagonals(diagonals)
        x = linalg.adjoint(x) if adjoint_arg else x
        return linalg.tridiagonal_matmul(diagonals, x, diagonals_format=self.diagonals_format)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        diagonals = self.diagonals
        if adjoint:
            diagonals = self._construct_adjoint_diagonals(diagonals)
        rhs_shape = array_ops.shape(rhs)
        k = self._shape_tensor(diagonals)[-1]
        broadcast_shape = array_ops.broadcast_dynamic_shape(
            self._shape_tensor(diagonals)[:-2], rhs_shape[:-2])
        rhs = array_ops.broadcast_to(rhs,
                                     array_ops.concat([broadcast_shape, rhs_shape[-2:]], axis=-1))
        if self.diagonals_format == _MATRIX:
            diagonals = array_ops.broadcast_to(
                diagonals, array_ops.concat([broadcast_shape, [k, k]], axis=-1))
        elif self.diagonals_format == _COMPACT:
            diagonals = array_ops.broadcast_to(
                diagonals, array_ops.concat([broadcast_shape, [3, k]], axis=-1))
        else:
            diagonals = [
                array_ops.broadcast_to(
                    d, array_ops.concat([broadcast_shape, [k]], axis=-1)) for d in diagonals]
        y = linalg.tridiagonal_solve(diagonals, rhs, diagonals_format=self.diagonals_format,
                                     transpose_rhs=adjoint_arg, conjugate_rhs=adjoint_arg)
        return y

    def _diag_part(self):
        if self.diagonals_format == _MATRIX:
            return array_ops.matrix_diag_part(self.diagonals)
        elif self.diagonals_format == _SEQUENCE:
            diagonal = self.diagonals[1]
            return array_ops.broadcast_to(diagonal, self.shape_tensor()[:-1])
        else:
            return self.diagonals[..., 1, :]

    def _to_dense(self):
        if self.diagonals_format == _MATRIX:
            return self.diagonals
        if self.diagonals_format == _COMPACT:
            return gen_array_ops.matrix_diag_v3(self.diagonals, k=(-1, 1), num_rows=-1,
                                                num_cols=-1, align='LEFT_RIGHT', padding_value=0.0)
        diagonals = [ops.convert_to_tensor(d) for d in self.diagonals]
        diagonals = array_ops_stack.stack(diagonals, axis=-2)
        return gen_array_ops.matrix_diag_v3(diagonals, k=(-1, 1), num_rows=-1, num_cols=-1,
                                            align='LEFT_RIGHT', padding_value=0.0)

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._diagonals_format
