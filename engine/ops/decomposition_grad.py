"""Gradients of Svd and MatrixSolveLs, ported from TensorFlow's linalg_grad.py (Giles'
derivation for the SVD; the regularised normal equations for least squares)."""

from engine.framework.graph import get_default_graph
from engine.ops import array_ops, least_squares, linalg_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.linalg_grad import _safe_reciprocal


@RegisterGradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    a = op.inputs[0]
    a_shape = a.get_shape().with_rank_at_least(2)
    grad_s = math_ops.cast(grad_s, a.dtype)
    grad_s_mat = linalg_ops.matrix_diag(grad_s)
    if not op.get_attr("compute_uv"):
        s, u, v = linalg_ops.svd(a, compute_uv=True)
        grad_a = math_ops.matmul(u, math_ops.matmul(grad_s_mat, v, adjoint_b=True))
        grad_a.set_shape(a_shape)
        return grad_a
    full_matrices = op.get_attr("full_matrices")
    grad_u_shape = grad_u.get_shape().with_rank_at_least(2)
    grad_v_shape = grad_v.get_shape().with_rank_at_least(2)
    m = a_shape.dims[-2].merge_with(grad_u_shape[-2])
    n = a_shape.dims[-1].merge_with(grad_v_shape[-2])
    batch_shape = a_shape[:-2].merge_with(grad_u_shape[:-2]).merge_with(grad_v_shape[:-2])
    a_shape = batch_shape.concatenate([m, n])
    m, n = a_shape.dims[-2].value, a_shape.dims[-1].value
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with "
                                  "unknown inner matrix shape.")
    s, u, v = op.outputs
    s = math_ops.cast(s, a.dtype)
    use_adjoint = m > n
    if use_adjoint:  # the gradient of A^H = V S^T U^H, transposed at the end
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    with get_default_graph().control_dependencies([grad_s, grad_u, grad_v]):
        if full_matrices and abs(m - n) > 1:
            raise NotImplementedError(
                f"svd gradient is not implemented for abs(m - n) > 1 when full_matrices is "
                f"True. Received: m={m} and n={n} from op input={a} with shape={a_shape}.")
        s_mat = linalg_ops.matrix_diag(s)
        s2 = math_ops.square(s)
        array_ops.shape(s)  # TensorFlow's graph has it (its complex case reads it)
        f = linalg_ops.matrix_set_diag(
            _safe_reciprocal(array_ops.expand_dims(s2, -2) - array_ops.expand_dims(s2, -1)),
            array_ops.zeros_like(s))
        s_inv_mat = linalg_ops.matrix_diag(_safe_reciprocal(s))
        v1 = v[..., :, :m]
        grad_v1 = grad_v[..., :, :m]
        u_gu = math_ops.matmul(u, grad_u, adjoint_a=True)
        v_gv = math_ops.matmul(v1, grad_v1, adjoint_a=True)
        f_u = f * u_gu
        f_v = f * v_gv
        term1_nouv = (grad_s_mat + math_ops.matmul(f_u + linalg_ops.adjoint(f_u), s_mat)
                      + math_ops.matmul(s_mat, f_v + linalg_ops.adjoint(f_v)))
        term1 = math_ops.matmul(u, math_ops.matmul(term1_nouv, v1, adjoint_b=True))
        if m == n:
            grad_a_before_transpose = term1
        else:
            gv1t = linalg_ops.matrix_transpose(grad_v1, conjugate=True)
            gv1t_v1 = math_ops.matmul(gv1t, v1)
            term2_nous = gv1t - math_ops.matmul(gv1t_v1, v1, adjoint_b=True)
            if full_matrices:
                v2 = v[..., :, m:n]
                grad_v2 = grad_v[..., :, m:n]
                v1t_gv2 = math_ops.matmul(v1, grad_v2, adjoint_a=True)
                term2_nous -= math_ops.matmul(v1t_gv2, v2, adjoint_b=True)
            u_s_inv = math_ops.matmul(u, s_inv_mat)
            term2 = math_ops.matmul(u_s_inv, term2_nous)
            grad_a_before_transpose = term1 + term2
        if use_adjoint:
            grad_a = linalg_ops.matrix_transpose(grad_a_before_transpose, conjugate=True)
        else:
            grad_a = grad_a_before_transpose
        grad_a.set_shape(a_shape)
        return grad_a


def _ls_overdetermined(op, grad):
    """X = (A^T A + l2 I)^-1 A^T B."""
    a, b, x = op.inputs[0], op.inputs[1], op.outputs[0]
    l2_regularizer = math_ops.cast(op.inputs[2], a.dtype.base_dtype)
    chol = least_squares.regularized_gramian_cholesky(a, l2_regularizer, first_kind=True)
    z = linalg_ops.cholesky_solve(chol, grad)
    xzt = math_ops.matmul(x, z, adjoint_b=True)
    zx_sym = xzt + linalg_ops.matrix_transpose(xzt)
    grad_a = -math_ops.matmul(a, zx_sym) + math_ops.matmul(b, z, adjoint_b=True)
    return grad_a, math_ops.matmul(a, z), None


def _ls_underdetermined(op, grad):
    """X = A^T (A A^T + l2 I)^-1 B."""
    a, b = op.inputs[0], op.inputs[1]
    l2_regularizer = math_ops.cast(op.inputs[2], a.dtype.base_dtype)
    chol = least_squares.regularized_gramian_cholesky(a, l2_regularizer, first_kind=False)
    grad_b = linalg_ops.cholesky_solve(chol, math_ops.matmul(a, grad))
    tmp = linalg_ops.cholesky_solve(chol, b)
    a1 = -math_ops.matmul(grad_b, math_ops.matmul(tmp, a, adjoint_a=True))
    a2 = math_ops.matmul(tmp, grad - math_ops.matmul(a, grad_b, adjoint_a=True),
                         adjoint_b=True)
    return a1 + a2, grad_b, None


@RegisterGradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op, grad):
    if op.get_attr("fast") is False:
        raise ValueError("Gradient not defined for fast=False")
    matrix_shape = op.inputs[0].get_shape()[-2:]
    if matrix_shape.is_fully_defined():
        if matrix_shape[-2] >= matrix_shape[-1]:
            return _ls_overdetermined(op, grad)
        return _ls_underdetermined(op, grad)
    matrix_shape = array_ops.shape(op.inputs[0])[-2:]
    return cond(matrix_shape[-2] >= matrix_shape[-1], lambda: _ls_overdetermined(op, grad),
                lambda: _ls_underdetermined(op, grad))
