"""tf.linalg.LinearOperatorLowRankUpdate: TensorFlow 2.21's linear_operator_low_rank_update.py on
the engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_low_rank_update.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

from engine.ops import (linear_operator, linear_operator_diag, linear_operator_identity,
                        linear_operator_util)
from engine.ops.linear_operator_util import (array_ops, linalg, linalg_ops, logging, math_ops, ops,
                                             tensor_shape)


class LinearOperatorLowRankUpdate(linear_operator.LinearOperator):
    """A + U D V^H: an operator plus a low rank update."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name='LinearOperatorLowRankUpdate'):
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        dtype = base_operator.dtype
        if diag_update is not None:
            if is_diag_update_positive and dtype.is_complex:
                logging.warn(
                    'Note: setting is_diag_update_positive with a complex dtype means that '
                    'diagonal is real and positive.')
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError(
                    "Default diagonal is the identity, which is positive.  However, user set "
                    "'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = (base_operator.is_positive_definite
                              and base_operator.is_self_adjoint and is_diag_update_positive
                              and (v is None))
        if base_operator.is_self_adjoint and v is None and (not dtype.is_complex):
            if is_self_adjoint is False:
                raise ValueError(
                    'A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is '
                    'self-adjoint, this must be a self-adjoint operator.')
            is_self_adjoint = True
        if self._use_cholesky:
            if (is_positive_definite is False or is_self_adjoint is False
                or is_non_singular is False):
                raise ValueError(
                    'Arguments imply this is self-adjoint positive-definite operator.')
            is_positive_definite = True
            is_self_adjoint = True
        with ops.name_scope(name):
            self._u = linear_operator_util.convert_nonref_to_tensor(u, name='u')
            if v is None:
                self._v = self._u
            else:
                self._v = linear_operator_util.convert_nonref_to_tensor(v, name='v')
            if diag_update is None:
                self._diag_update = None
            else:
                self._diag_update = linear_operator_util.convert_nonref_to_tensor(
                    diag_update, name='diag_update')
            self._base_operator = base_operator
            super().__init__(dtype=self._base_operator.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            self._set_diag_operators(diag_update, is_diag_update_positive)
            self._is_diag_update_positive = is_diag_update_positive
            self._check_shapes()

    def _check_shapes(self):
        uv_shape = array_ops.broadcast_static_shape(self.u.shape, self.v.shape)
        batch_shape = array_ops.broadcast_static_shape(
            self.base_operator.batch_shape, uv_shape[:-2])
        tensor_shape.Dimension(
            self.base_operator.domain_dimension).assert_is_compatible_with(uv_shape[-2])
        if self._diag_update is not None:
            tensor_shape.dimension_at_index(uv_shape, -1).assert_is_compatible_with(
                self._diag_update.shape[-1])
            array_ops.broadcast_static_shape(batch_shape, self._diag_update.shape[:-1])

    def _set_diag_operators(self, diag_update, is_diag_update_positive):
        if diag_update is not None:
            self._diag_operator = linear_operator_diag.LinearOperatorDiag(
                self._diag_update, is_positive_definite=is_diag_update_positive)
        else:
            if tensor_shape.dimension_value(self.u.shape[-1]) is not None:
                r = tensor_shape.dimension_value(self.u.shape[-1])
            else:
                r = array_ops.shape(self.u)[-1]
            self._diag_operator = linear_operator_identity.LinearOperatorIdentity(
                num_rows=r, dtype=self.dtype)

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def diag_operator(self):
        return self._diag_operator

    @property
    def base_operator(self):
        return self._base_operator

    def _assert_self_adjoint(self):
        if self.u is self.v and self.diag_update is None:
            return self.base_operator.assert_self_adjoint()
        return super().assert_self_adjoint()

    def _shape(self):
        batch_shape = array_ops.broadcast_static_shape(
            self.base_operator.batch_shape, self.diag_operator.batch_shape)
        batch_shape = array_ops.broadcast_static_shape(batch_shape, self.u.shape[:-2])
        batch_shape = array_ops.broadcast_static_shape(batch_shape, self.v.shape[:-2])
        return batch_shape.concatenate(self.base_operator.shape[-2:])

    def _shape_tensor(self):
        batch_shape = array_ops.broadcast_dynamic_shape(
            self.base_operator.batch_shape_tensor(), self.diag_operator.batch_shape_tensor())
        batch_shape = array_ops.broadcast_dynamic_shape(batch_shape, array_ops.shape(self.u)[:-2])
        batch_shape = array_ops.broadcast_dynamic_shape(batch_shape, array_ops.shape(self.v)[:-2])
        return array_ops.concat([batch_shape, self.base_operator.shape_tensor()[-2:]], axis=0)

    def _get_uv_as_tensors(self):
        u = ops.convert_to_tensor(self.u)
        if self.v is self.u:
            v = u
        else:
            v = ops.convert_to_tensor(self.v)
        return (u, v)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        u, v = self._get_uv_as_tensors()
        l = self.base_operator
        d = self.diag_operator
        leading_term = l.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        if adjoint:
            uh_x = math_ops.matmul(u, x, adjoint_a=True, adjoint_b=adjoint_arg)
            d_uh_x = d.matmul(uh_x, adjoint=adjoint)
            v_d_uh_x = math_ops.matmul(v, d_uh_x)
            return leading_term + v_d_uh_x
        else:
            vh_x = math_ops.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
            d_vh_x = d.matmul(vh_x, adjoint=adjoint)
            u_d_vh_x = math_ops.matmul(u, d_vh_x)
            return leading_term + u_d_vh_x

    def _determinant(self):
        if self.is_positive_definite:
            return math_ops.exp(self.log_abs_determinant())
        u, v = self._get_uv_as_tensors()
        det_c = linalg_ops.matrix_determinant(self._make_capacitance(u=u, v=v))
        det_d = self.diag_operator.determinant()
        det_l = self.base_operator.determinant()
        return det_c * det_d * det_l

    def _diag_part(self):
        u, v = self._get_uv_as_tensors()
        product = u * math_ops.conj(v)
        if self.diag_update is not None:
            product *= array_ops.expand_dims(self.diag_update, axis=-2)
        return math_ops.reduce_sum(product, axis=-1) + self.base_operator.diag_part()

    def _log_abs_determinant(self):
        u, v = self._get_uv_as_tensors()
        log_abs_det_d = self.diag_operator.log_abs_determinant()
        log_abs_det_l = self.base_operator.log_abs_determinant()
        if self._use_cholesky:
            chol_cap_diag = array_ops.matrix_diag_part(
                linalg_ops.cholesky(self._make_capacitance(u=u, v=v)))
            log_abs_det_c = 2 * math_ops.reduce_sum(math_ops.log(chol_cap_diag), axis=[-1])
        else:
            det_c = linalg_ops.matrix_determinant(self._make_capacitance(u=u, v=v))
            log_abs_det_c = math_ops.log(math_ops.abs(det_c))
            if self.dtype.is_complex:
                log_abs_det_c = math_ops.cast(log_abs_det_c, dtype=self.dtype)
        return log_abs_det_c + log_abs_det_d + log_abs_det_l

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.base_operator.is_non_singular is False:
            raise ValueError(
                'Solve not implemented unless this is a perturbation of a non-singular '
                'LinearOperator.')
        l = self.base_operator
        if adjoint:
            v, u = self._get_uv_as_tensors()
            capacitance = self._make_capacitance(u=v, v=u)
        else:
            u, v = self._get_uv_as_tensors()
            capacitance = self._make_capacitance(u=u, v=v)
        linv_rhs = l.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = math_ops.matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            capinv_vh_linv_rhs = linalg_ops.cholesky_solve(
                linalg_ops.cholesky(capacitance), vh_linv_rhs)
        else:
            capinv_vh_linv_rhs = linear_operator_util.matrix_solve_with_broadcast(
                capacitance, vh_linv_rhs, adjoint=adjoint)
        u_capinv_vh_linv_rhs = math_ops.matmul(u, capinv_vh_linv_rhs)
        linv_u_capinv_vh_linv_rhs = l.solve(u_capinv_vh_linv_rhs, adjoint=adjoint)
        return linv_rhs - linv_u_capinv_vh_linv_rhs

    def _make_capacitance(self, u, v):
        linv_u = self.base_operator.solve(u)
        vh_linv_u = math_ops.matmul(v, linv_u, adjoint_a=True)
        capacitance = self._diag_operator.inverse().add_to_tensor(vh_linv_u)
        return capacitance
