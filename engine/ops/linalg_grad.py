"""Gradients of the linear-algebra and diagonal ops, ported from TensorFlow's linalg_grad.py,
math_grad.py (Cross) and array_grad.py; Svd's and MatrixSolveLs's are in
engine/ops/decomposition_grad.py, Einsum's in engine/ops/einsum_grad.py."""

from engine.framework.graph import get_default_graph
from engine.ops import array_ops, linalg_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


@RegisterGradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    adjoint = op.get_attr("adjoint")
    return -math_ops.matmul(ainv, math_ops.matmul(grad, ainv, adjoint_a=adjoint,
                                                  adjoint_b=not adjoint),
                            adjoint_a=not adjoint)


@RegisterGradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    a_adj_inv = linalg_ops.matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad * c,
                                    array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return multipliers * a_adj_inv


@RegisterGradient("MatrixDiagV3")
def _matrix_diag_v3_grad(op, grad):
    return (linalg_ops.matrix_diag_part(grad, k=op.inputs[1], align=op.get_attr("align")),
            None, None, None, None)


@RegisterGradient("MatrixDiagPartV3")
def _matrix_diag_part_v3_grad(op, grad):
    matrix_shape = op.inputs[0].get_shape()[-2:]
    align = op.get_attr("align")
    if matrix_shape.is_fully_defined():
        return (linalg_ops.matrix_diag(grad, k=op.inputs[1], num_rows=matrix_shape[0],
                                       num_cols=matrix_shape[1], align=align), None, None)
    return (linalg_ops.matrix_set_diag(array_ops.zeros_like(op.inputs[0]), grad,
                                       k=op.inputs[1], align=align), None, None)


@RegisterGradient("MatrixSetDiagV3")
def _matrix_set_diag_v3_grad(op, grad):
    diag_shape = op.inputs[1].get_shape()
    align = op.get_attr("align")
    if not diag_shape.is_fully_defined():
        raise NotImplementedError("the gradient of matrix_set_diag with a diagonal of "
                                  "unknown shape is not supported yet")
    grad_input = linalg_ops.matrix_set_diag(
        grad, array_ops.zeros(diag_shape, dtype=grad.dtype), k=op.inputs[2], align=align)
    grad_diag = linalg_ops.matrix_diag_part(grad, k=op.inputs[2], align=align)
    return grad_input, grad_diag, None


@RegisterGradient("MatrixBandPart")
def _matrix_band_part_grad(op, grad):
    return linalg_ops.matrix_band_part(grad, op.inputs[1], op.inputs[2]), None, None


@RegisterGradient("Diag")
def _diag_grad(_, grad):
    return linalg_ops.diag_part(grad)


@RegisterGradient("DiagPart")
def _diag_part_grad(_, grad):
    return linalg_ops.diag(grad)



@RegisterGradient("Cross")
def _cross_grad(op, grad):
    u, v = op.inputs
    return linalg_ops.cross(v, grad), linalg_ops.cross(grad, u)


@RegisterGradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adjoint_a = op.get_attr("adjoint")
    grad_b = linalg_ops.matrix_solve(a, grad, adjoint=not adjoint_a)
    if adjoint_a:
        grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True)
    else:
        grad_a = -math_ops.matmul(grad_b, c, adjoint_b=True)
    return grad_a, grad_b


@RegisterGradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
    a, b, c = op.inputs[0], op.inputs[1], op.outputs[0]
    adjoint_a, lower_a = op.get_attr("adjoint"), op.get_attr("lower")
    grad_b = linalg_ops.matrix_triangular_solve(a, grad, lower=lower_a, adjoint=not adjoint_a)
    if adjoint_a:
        grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True)
    else:
        grad_a = -math_ops.matmul(grad_b, c, adjoint_b=True)
    if lower_a:
        grad_a = linalg_ops.matrix_band_part(grad_a, -1, 0)
    else:
        grad_a = linalg_ops.matrix_band_part(grad_a, 0, -1)
    if (a.shape.is_fully_defined() and b.shape.is_fully_defined()
            and a.shape[:-2] == b.shape[:-2]):
        return grad_a, grad_b
    a_shape, b_shape = array_ops.shape(a), array_ops.shape(b)
    ra, rb = apply_op("BroadcastGradientArgs", s0=a_shape[:-2], s1=b_shape[:-2])
    grad_a = array_ops.reshape(math_ops.reduce_sum(grad_a, axis=ra), a_shape)
    grad_b = array_ops.reshape(math_ops.reduce_sum(grad_b, axis=rb), b_shape)
    return grad_a, grad_b


@RegisterGradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
    a, c = op.inputs[0], op.outputs[1]
    a_adj_inv = linalg_ops.matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad_b, array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return multipliers * a_adj_inv


@RegisterGradient("Cholesky")
def _cholesky_grad(op, grad):
    """l^-H ((l^H grad) * (tril(ones) - eye / 2)) l^-1, symmetrised."""
    l = op.outputs[0]  # noqa: E741 (TensorFlow's name)
    num_rows = array_ops.shape(l)[-1]
    batch_shape = array_ops.shape(l)[:-2]
    l_inverse = linalg_ops.matrix_triangular_solve(
        l, linalg_ops.eye(num_rows, batch_shape=batch_shape, dtype=l.dtype))
    middle = math_ops.matmul(l, grad, adjoint_a=True)
    middle = linalg_ops.matrix_set_diag(middle, 0.5 * linalg_ops.matrix_diag_part(middle))
    middle = linalg_ops.matrix_band_part(middle, -1, 0)
    grad_a = math_ops.matmul(math_ops.matmul(l_inverse, middle, adjoint_a=True), l_inverse)
    grad_a += linalg_ops.adjoint(grad_a)
    return grad_a * 0.5


def _triangular_solve_right(x, r):
    """matmul(x, adjoint(inverse(r))) for an upper-triangular r."""
    return linalg_ops.adjoint(linalg_ops.matrix_triangular_solve(
        r, linalg_ops.adjoint(x), lower=False, adjoint=False))


def _qr_grad_square_and_deep(q, r, dq, dr):
    qdq = math_ops.matmul(q, dq, adjoint_a=True)
    qdq_ = qdq - linalg_ops.adjoint(qdq)
    rdr = math_ops.matmul(r, dr, adjoint_b=True)
    rdr_ = rdr - linalg_ops.adjoint(rdr)
    tril = linalg_ops.matrix_band_part(qdq_ + rdr_, -1, 0)
    grad_a = math_ops.matmul(q, dr + _triangular_solve_right(tril, r))
    grad_b = _triangular_solve_right(dq - math_ops.matmul(q, qdq), r)
    return grad_a + grad_b


@RegisterGradient("Qr")
def _qr_grad(op, dq, dr):
    """TensorFlow's QR backprop (arXiv:2009.10071), for static shapes."""
    q, r = op.outputs
    if r.shape.ndims is None or r.shape.as_list()[-2] is None or r.shape.as_list()[-1] is None:
        raise NotImplementedError(f"QrGrad not implemented with dynamic shapes. Received "
                                  f"r.shape: {r.shape}")
    r_rows, r_cols = r.shape.as_list()[-2:]
    q_rows, q_cols = q.shape.as_list()[-2:]
    if r_rows > r_cols and q_rows == q_cols:
        raise NotImplementedError(f"QrGrad not implemented when nrows > ncols and "
                                  f"full_matrices is true. Received r.shape={r.shape} with "
                                  f"nrows={r_rows}and ncols={r_cols}.")
    if q_rows >= r_cols:
        return _qr_grad_square_and_deep(q, r, dq, dr)
    a = op.inputs[0]
    y = a[..., :, q_rows:]
    u = r[..., :, :q_rows]
    dv = dr[..., :, q_rows:]
    du = dr[..., :, :q_rows]
    dy = math_ops.matmul(q, dv)
    dx = _qr_grad_square_and_deep(q, u, dq + math_ops.matmul(y, dv, adjoint_b=True), du)
    return array_ops.concat([dx, dy], axis=-1)


def _safe_reciprocal(x, epsilon=1e-20):
    """x / (x**2 + epsilon): TensorFlow's Lorentz broadening of 1/x for equal eigenvalues."""
    return x * math_ops.reciprocal(x * x + epsilon)


@RegisterGradient("SelfAdjointEigV2")
def _self_adjoint_eig_v2_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    with get_default_graph().control_dependencies([grad_e, grad_v]):
        if op.get_attr("compute_v"):
            v = op.outputs[1]
            f = linalg_ops.matrix_set_diag(
                _safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
                array_ops.zeros_like(e))
            grad_a = math_ops.matmul(v, math_ops.matmul(
                linalg_ops.matrix_diag(grad_e) + f * math_ops.matmul(v, grad_v, adjoint_a=True),
                v, adjoint_b=True))
        else:
            _, v = linalg_ops.self_adjoint_eig(op.inputs[0])
            grad_a = math_ops.matmul(v, math_ops.matmul(linalg_ops.matrix_diag(grad_e), v,
                                                        adjoint_b=True))
        # The op reads only the lower triangle: symmetrise, keep the lower triangle.
        grad_a = linalg_ops.matrix_band_part(grad_a + linalg_ops.adjoint(grad_a), -1, 0)
        return linalg_ops.matrix_set_diag(grad_a, 0.5 * linalg_ops.matrix_diag_part(grad_a))


def _kronecker_product(b1, b2):
    """The Kronecker product of two batches of square matrices (TensorFlow's helper)."""
    b1_shape = array_ops.shape(b1)
    b2_shape = array_ops.shape(b2)
    b1_order = b1_shape[-1]
    b2_order = b2_shape[-1]
    shape_slice_size = [math_ops.subtract(array_ops.size(b1_shape), 2)]
    shape_slice = array_ops.slice(b1_shape, [0], shape_slice_size)
    b1_reshape_shape = array_ops.concat([shape_slice, [b1_order], [1], [b1_order], [1]], 0)
    b2_reshape_shape = array_ops.concat([shape_slice, [1], [b2_order], [1], [b2_order]], 0)
    b1_reshape = array_ops.reshape(b1, b1_reshape_shape)
    b2_reshape = array_ops.reshape(b2, b2_reshape_shape)
    order_prod = b1_order * b2_order
    kprod_shape = array_ops.concat([shape_slice, [order_prod], [order_prod]], 0)
    return array_ops.reshape(b1_reshape * b2_reshape, kprod_shape)


@RegisterGradient("MatrixSquareRoot")
def _matrix_square_root_grad(op, grad):
    """dA solves the Sylvester equation R dR + dR R = dA, as one linear system of order
    M^2 per matrix: (I (x) R^T + R (x) I) vec(dA^T) = vec(grad^T)."""
    sqrtm = op.outputs[0]
    shape = array_ops.shape(sqrtm)
    order = shape[-1]
    matrix_count = math_ops.reduce_prod(shape[0:-2])
    eye = linalg_ops.eye(order, dtype=sqrtm.dtype)
    eye_flat = array_ops.reshape(eye, [-1])
    eye_tiled = array_ops.tile(eye_flat, [matrix_count])
    eye_batch = array_ops.reshape(eye_tiled, shape)
    sqrtm_transpose = linalg_ops.matrix_transpose(sqrtm)
    k1 = _kronecker_product(eye_batch, sqrtm_transpose)
    k2 = _kronecker_product(sqrtm, eye_batch)
    ksum = math_ops.add(k1, k2)
    shape_slice_size = [math_ops.subtract(array_ops.size(shape), 2)]
    shape_slice = array_ops.slice(shape, [0], shape_slice_size)
    shape_vec_da = array_ops.concat([shape_slice, [order * order], [1]], 0)
    vec_da = array_ops.reshape(linalg_ops.matrix_transpose(grad), shape_vec_da)
    vec_dsqrtm = linalg_ops.matrix_solve(ksum, vec_da)
    dsqrtm_transpose = array_ops.reshape(vec_dsqrtm, shape)
    return linalg_ops.matrix_transpose(dsqrtm_transpose)
