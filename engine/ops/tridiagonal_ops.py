"""tf.linalg.tridiagonal_matmul and tridiagonal_solve (compact, sequence and matrix formats)
as TensorFlow 2.21's linalg_impl.py builds them, and the TridiagonalMatMul and
TridiagonalSolve gradients of its linalg_grad.py."""

from engine.framework import dtypes
from engine.framework.tensor_shape import dimension_value
from engine.ops import array_ops, linalg_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


def _conj(x):
    """math_ops.conj: a Conj op for complex tensors, the tensor itself otherwise."""
    return apply_op("Conj", input=x) if x.dtype.is_complex else x


def _matrix_diagonals(diagonals):
    m1 = dimension_value(diagonals.shape[-1])
    m2 = dimension_value(diagonals.shape[-2])
    if m1 and m2 and m1 != m2:
        raise ValueError("Expected last two dimensions of diagonals to be same, got "
                         f"{m1} and {m2}")
    return linalg_ops.matrix_diag_part(diagonals, k=(-1, 1), padding_value=0.0,
                                       align="LEFT_RIGHT")


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The tridiagonal matrix of `diagonals` times rhs [..., M, N]."""
    if diagonals_format == "compact":
        superdiag, maindiag, subdiag = (diagonals[..., k, :] for k in range(3))
    elif diagonals_format == "sequence":
        superdiag, maindiag, subdiag = diagonals
    elif diagonals_format == "matrix":
        diags = _matrix_diagonals(diagonals)
        superdiag, maindiag, subdiag = (diags[..., k, :] for k in range(3))
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    superdiag = array_ops.expand_dims(superdiag, -2)
    maindiag = array_ops.expand_dims(maindiag, -2)
    subdiag = array_ops.expand_dims(subdiag, -2)
    return apply_op("TridiagonalMatMul", superdiag=superdiag, maindiag=maindiag,
                    subdiag=subdiag, rhs=rhs, name=name)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """x with A x = rhs for the tridiagonal matrix A of `diagonals`."""
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if diagonals_format == "compact":
        return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                              perturb_singular, name)
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        superdiag, maindiag, subdiag = diagonals
        if (not subdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1]) or
                not superdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])):
            raise ValueError("Tensors representing the three diagonals must have the same "
                             f"shape,except for the last dimension, got {subdiag.shape}, "
                             f"{maindiag.shape}, {superdiag.shape}")
        m = dimension_value(maindiag.shape[-1])

        def pad_if_necessary(t, what, last_dim_padding):
            n = dimension_value(t.shape[-1])
            if not n or n == m:
                return t
            if n == m - 1:
                paddings = [[0, 0] for _ in range(len(t.shape) - 1)] + [last_dim_padding]
                return array_ops.pad(t, paddings)
            raise ValueError(f"Expected {what} to be have length {m} or {m - 1}, got {n}.")

        subdiag = pad_if_necessary(subdiag, "subdiagonal", [1, 0])
        superdiag = pad_if_necessary(superdiag, "superdiagonal", [0, 1])
        diagonals = array_ops.stack((superdiag, maindiag, subdiag), axis=-2)
        return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                              perturb_singular, name)
    if diagonals_format == "matrix":
        diagonals = _matrix_diagonals(diagonals)
        return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                              perturb_singular, name)
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def _solve_op(diagonals, rhs, partial_pivoting, perturb_singular, name=None):
    return apply_op("TridiagonalSolve", diagonals=diagonals, rhs=rhs,
                    partial_pivoting=partial_pivoting, perturb_singular=perturb_singular,
                    name=name)


def _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                   perturb_singular, name):
    diags_rank, rhs_rank = diagonals.shape.ndims, rhs.shape.ndims
    if diags_rank:
        if diags_rank < 2:
            raise ValueError(f"Expected diagonals to have rank at least 2, got {diags_rank}")
        if rhs_rank and rhs_rank != diags_rank and rhs_rank != diags_rank - 1:
            raise ValueError(f"Expected the rank of rhs to be {diags_rank - 1} or "
                             f"{diags_rank}, got {rhs_rank}")
        if rhs_rank and not diagonals.shape[:-2].is_compatible_with(
                rhs.shape[:diags_rank - 2]):
            raise ValueError(f"Batch shapes {diagonals.shape[:-2]} and "
                             f"{rhs.shape[:diags_rank - 2]} are incompatible")
    if diagonals.shape[-2] and diagonals.shape[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {diagonals.shape[-2]}")

    def check_num_lhs_matches_num_rhs():
        if (diagonals.shape[-1] and rhs.shape[-2]
                and diagonals.shape[-1] != rhs.shape[-2]):
            raise ValueError("Expected number of left-hand sided and right-hand sides to be "
                             f"equal, got {diagonals.shape[-1]} and {rhs.shape[-2]}")

    if rhs_rank and diags_rank and rhs_rank == diags_rank - 1:
        if conjugate_rhs:
            rhs = _conj(rhs)
        rhs = array_ops.expand_dims(rhs, -1)
        check_num_lhs_matches_num_rhs()
        return array_ops.squeeze(
            _solve_op(diagonals, rhs, partial_pivoting, perturb_singular, name), -1)
    if transpose_rhs:
        rhs = linalg_ops.matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = _conj(rhs)
    check_num_lhs_matches_num_rhs()
    return _solve_op(diagonals, rhs, partial_pivoting, perturb_singular, name)


def _left_shift(x):
    """The next-to-last dimension shifted left, a zero row added at the end."""
    rank = array_ops.rank(x)
    zeros = array_ops.zeros((rank - 2, 2), dtype=dtypes.int32)
    pad = array_ops.concat([zeros, array_ops.constant([[0, 1], [0, 0]])], axis=0)
    return array_ops.pad(x[..., 1:, :], pad)


def _right_shift(x):
    """The next-to-last dimension shifted right, a zero row added at the start."""
    rank = array_ops.rank(x)
    zeros = array_ops.zeros((rank - 2, 2), dtype=dtypes.int32)
    pad = array_ops.concat([zeros, array_ops.constant([[1, 0], [0, 0]])], axis=0)
    return array_ops.pad(x[..., :-1, :], pad)


@RegisterGradient("TridiagonalMatMul")
def _tridiagonal_mat_mul_grad(op, grad):
    superdiag_conj = linalg_ops.matrix_transpose(op.inputs[0], conjugate=True)
    maindiag_conj = linalg_ops.matrix_transpose(op.inputs[1], conjugate=True)
    subdiag_conj = linalg_ops.matrix_transpose(op.inputs[2], conjugate=True)
    rhs_conj = _conj(op.inputs[3])
    superdiag_grad = math_ops.reduce_sum(_left_shift(rhs_conj) * grad, axis=-1)
    maindiag_grad = math_ops.reduce_sum(rhs_conj * grad, axis=-1)
    subdiag_grad = math_ops.reduce_sum(_right_shift(rhs_conj) * grad, axis=-1)
    rhs_grad = _right_shift(superdiag_conj * grad) + maindiag_conj * grad + \
        _left_shift(subdiag_conj * grad)
    superdiag_grad = array_ops.expand_dims(superdiag_grad, -2)
    maindiag_grad = array_ops.expand_dims(maindiag_grad, -2)
    subdiag_grad = array_ops.expand_dims(subdiag_grad, -2)
    return superdiag_grad, maindiag_grad, subdiag_grad, rhs_grad


@RegisterGradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, grad):
    diags = op.inputs[0]
    x = op.outputs[0]
    partial_pivoting = op.get_attr("partial_pivoting")
    perturb_singular = op.get_attr("perturb_singular")
    diags_transposed = _transpose_tridiagonal_matrix(diags)
    grad_rhs = _solve_op(diags_transposed, grad, partial_pivoting, perturb_singular)
    grad_diags = -_matmul_extracting_three_diagonals(grad_rhs, x)
    return grad_diags, grad_rhs


def _transpose_tridiagonal_matrix(diags):
    diag = diags[..., 1, :]
    if diags.shape.is_fully_defined():
        zeros = array_ops.zeros(list(diags.shape[:-2]) + [1], dtype=diags.dtype)
        superdiag = array_ops.concat((diags[..., 2, 1:], zeros), axis=-1)
        subdiag = array_ops.concat((zeros, diags[..., 0, :-1]), axis=-1)
    else:
        rank = array_ops.rank(diags)
        zeros = array_ops.zeros((rank - 2, 2), dtype=dtypes.int32)
        superdiag_pad = array_ops.concat((zeros, array_ops.constant([[0, 1]])), axis=0)
        superdiag = array_ops.pad(diags[..., 2, 1:], superdiag_pad)
        subdiag_pad = array_ops.concat((zeros, array_ops.constant([[1, 0]])), axis=0)
        subdiag = array_ops.pad(diags[..., 0, :-1], subdiag_pad)
    return array_ops.stack([superdiag, diag, subdiag], axis=-2)


def _matmul_extracting_three_diagonals(x, y_tr):
    diag = math_ops.reduce_sum(x * y_tr, axis=-1)
    if y_tr.shape.is_fully_defined():
        zeros = array_ops.zeros(list(x.shape[:-2]) + [1, x.shape[-1]], dtype=x.dtype)
        superdiag = math_ops.reduce_sum(
            x * array_ops.concat((y_tr[..., 1:, :], zeros), axis=-2), axis=-1)
        subdiag = math_ops.reduce_sum(
            x * array_ops.concat((zeros, y_tr[..., :-1, :]), axis=-2), axis=-1)
    else:
        rank = array_ops.rank(y_tr)
        zeros = array_ops.zeros((rank - 2, 2), dtype=dtypes.int32)
        superdiag_pad = array_ops.concat(
            (zeros, array_ops.constant([[0, 1], [0, 0]])), axis=0)
        superdiag = math_ops.reduce_sum(x * array_ops.pad(y_tr[..., 1:, :], superdiag_pad),
                                        axis=-1)
        subdiag_pad = array_ops.concat(
            (zeros, array_ops.constant([[1, 0], [0, 0]])), axis=0)
        subdiag = math_ops.reduce_sum(x * array_ops.pad(y_tr[..., :-1, :], subdiag_pad),
                                      axis=-1)
    return array_ops.stack([superdiag, diag, subdiag], axis=-2)
