"""tf.linalg.tridiagonal_matmul and tridiagonal_solve (compact, sequence and matrix formats)
and eigh_tridiagonal's eigenvalues as TensorFlow 2.21's linalg_impl.py builds them, and the
TridiagonalMatMul and TridiagonalSolve gradients of its linalg_grad.py."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import dimension_value
from engine.ops import array_ops, check_ops, linalg_ops, math_ops
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
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


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """The eigenvalues (ascending) of the real symmetric tridiagonal matrix with diagonal
    alpha and off-diagonal beta, by TensorFlow's bisection on Sturm sequence counts; select
    'a' (all), 'i' (indices select_range[0] .. [1]) or 'v' (the values in the half-open
    interval); with eigvals_only=False also the eigenvectors (as columns), by inverse
    iteration from TF's fixed random start. Complex matrices are not supported yet."""
    with name_scope(name or "eigh_tridiagonal"):
        alpha = convert_to_tensor(alpha, name="alpha")
        n = dimension_value(alpha.shape[0])
        if n <= 1:
            if alpha.dtype.is_complex:
                raise NotImplementedError("tf.linalg.eigh_tridiagonal of a complex matrix "
                                          "is not supported by the engine yet")
            return alpha
        beta = convert_to_tensor(beta, name="beta")
        if alpha.dtype != beta.dtype:
            raise ValueError("'alpha' and 'beta' must have the same type.")
        if alpha.dtype.is_complex:
            raise NotImplementedError("tf.linalg.eigh_tridiagonal of a complex matrix is not "
                                      "supported by the engine yet")
        eigvals = _compute_eigenvalues(alpha, beta, n, select, select_range, tol)
        if eigvals_only:
            return eigvals
        return eigvals, _compute_eigenvectors(alpha, beta, eigvals)


def _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, x):
    """The number of eigenvalues below each x: the negative terms of its Sturm sequence,
    16 steps to a loop iteration after the first (n - 1) % 16."""
    with name_scope("sturm"):
        n = alpha.shape[0]  # a Dimension, as under TF 1.x's shapes: the loop counter's Const
        # is then TensorFlow's "shape_as_tensor"
        zeros = array_ops.zeros(array_ops.shape(x), dtype=dtypes.int32)
        ones = array_ops.ones(array_ops.shape(x), dtype=dtypes.int32)

        def sturm_step0():
            q = alpha[0] - x
            count = array_ops.where(q < 0, ones, zeros)
            q = array_ops.where(math_ops.equal(alpha[0], x), alpha0_perturbation, q)
            return q, count

        def sturm_step(i, q, count):
            q = alpha[i] - beta_sq[i - 1] / q - x
            count = array_ops.where(q <= pivmin, count + 1, count)
            q = array_ops.where(q <= pivmin, math_ops.minimum(q, -pivmin), q)
            return q, count

        q, count = sturm_step0()
        blocksize = 16
        unroll = [(n - 1) % blocksize]

        def unrolled_steps(start, q, count):
            for j in range(unroll[0]):
                q, count = sturm_step(start + j, q, count)
            return start + unroll[0], q, count

        i, q, count = unrolled_steps(1, q, count)
        unroll[0] = blocksize
        _, _, count = while_loop(lambda i, q, count: math_ops.less(i, n), unrolled_steps,
                                 [i, q, count], back_prop=False)
        return count


def _compute_eigenvalues(alpha, beta, n, select, select_range, tol):
    with name_scope("compute_eigenvalues"):
        beta_sq = math_ops.square(beta)
        beta_abs = math_ops.abs(beta)
        finfo = np.finfo(alpha.dtype.as_numpy_dtype)
        off_diag_abs_row_sum = array_ops.concat(
            [beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]], axis=0)
        lambda_est_max = math_ops.minimum(
            finfo.max, math_ops.reduce_max(alpha + off_diag_abs_row_sum))
        lambda_est_min = math_ops.maximum(
            finfo.min, math_ops.reduce_min(alpha - off_diag_abs_row_sum))
        t_norm = math_ops.maximum(math_ops.abs(lambda_est_min), math_ops.abs(lambda_est_max))
        one = np.ones([], dtype=alpha.dtype.as_numpy_dtype)
        safemin = np.maximum(one / finfo.max, (one + finfo.eps) * finfo.tiny)
        pivmin = safemin * math_ops.maximum(one, math_ops.reduce_max(beta_sq))
        alpha0_perturbation = math_ops.square(finfo.eps * beta_abs[0])
        abs_tol = finfo.eps * t_norm
        if tol:
            abs_tol = math_ops.maximum(tol, abs_tol)
        max_it = finfo.nmant + 1
        asserts = None
        if select == "a":
            target_counts = math_ops.range(n)
        elif select == "i":
            asserts = check_ops.assert_less_equal(
                select_range[0], select_range[1],
                message="Got empty index range in select_range.")
            target_counts = math_ops.range(select_range[0], select_range[1] + 1)
        elif select == "v":
            asserts = check_ops.assert_less(select_range[0], select_range[1],
                                            message="Got empty interval in select_range.")
        else:
            raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
        if asserts:
            with get_default_graph().control_dependencies([asserts]):
                alpha = array_ops.identity(alpha)
        fudge = 2.1
        norm_slack = math_ops.cast(n, alpha.dtype) * fudge * finfo.eps * t_norm
        if select in {"a", "i"}:
            lower = lambda_est_min - norm_slack - 2 * fudge * pivmin
            upper = lambda_est_max + norm_slack + fudge * pivmin
        else:
            lower = select_range[0] - norm_slack - 2 * fudge * pivmin
            upper = select_range[1] + norm_slack + fudge * pivmin
            first = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, lower)
            last = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, upper)
            target_counts = math_ops.range(first, last)
        upper = math_ops.minimum(upper, finfo.max)
        lower = math_ops.maximum(lower, finfo.min)
        target_shape = array_ops.shape(target_counts)
        lower = array_ops.broadcast_to(lower, shape=target_shape)
        upper = array_ops.broadcast_to(upper, shape=target_shape)
        pivmin = array_ops.broadcast_to(pivmin, target_shape)
        alpha0_perturbation = array_ops.broadcast_to(alpha0_perturbation, target_shape)

        def midpoint(lower, upper):
            return (0.5 * lower) + (0.5 * upper)

        def continue_binary_search(i, lower, upper):
            return math_ops.logical_and(
                math_ops.less(i, max_it),
                math_ops.less(abs_tol, math_ops.reduce_max(upper - lower)))

        def binary_search_step(i, lower, upper):
            mid = midpoint(lower, upper)
            counts = _sturm(alpha, beta_sq, pivmin, alpha0_perturbation, mid)
            lower = array_ops.where(counts <= target_counts, mid, lower)
            upper = array_ops.where(counts > target_counts, mid, upper)
            return i + 1, lower, upper

        _, lower, upper = while_loop(continue_binary_search, binary_search_step,
                                     [0, lower, upper])
        return midpoint(lower, upper)


def _compute_eigenvectors(alpha, beta, eigvals):
    """Inverse iteration (at most 5 steps, as LAPACK's xSTEIN) from stateless normal
    vectors of seed [7, 42], each step a perturbed tridiagonal solve per eigenvalue, the
    vectors of clusters of close eigenvalues orthogonalized by a QR."""
    from engine.ops.norm_ops import norm
    from engine.ops.stateless_random_ops import stateless_random_normal as stateless_normal
    from engine.ops.state_ops import tensor_scatter_nd_update
    with name_scope("compute_eigenvectors"):
        k = array_ops.size(eigvals)
        n = array_ops.size(alpha)
        alpha = math_ops.cast(alpha, dtype=beta.dtype)
        gap = eigvals[1:] - eigvals[:-1]
        eps = np.finfo(eigvals.dtype.as_numpy_dtype).eps
        t_norm = math_ops.maximum(math_ops.abs(eigvals[0]), math_ops.abs(eigvals[-1]))
        gaptol = np.sqrt(eps) * t_norm
        close = math_ops.less(gap, gaptol)
        left_neighbor_close = array_ops.concat([[False], close], axis=0)
        right_neighbor_close = array_ops.concat([close, [False]], axis=0)
        ortho_interval_start = math_ops.logical_and(
            math_ops.logical_not(left_neighbor_close), right_neighbor_close)
        ortho_interval_start = array_ops.squeeze(array_ops.where_v2(ortho_interval_start),
                                                 axis=-1)
        ortho_interval_end = math_ops.logical_and(
            left_neighbor_close, math_ops.logical_not(right_neighbor_close))
        ortho_interval_end = array_ops.squeeze(array_ops.where_v2(ortho_interval_end),
                                               axis=-1) + 1
        num_clusters = array_ops.size(ortho_interval_end)
        v0 = math_ops.cast(stateless_normal(shape=(k, n), seed=[7, 42]), dtype=beta.dtype)
        nrm_v = norm(v0, axis=1)
        v0 = v0 / nrm_v[:, array_ops.newaxis]
        zero_nrm = array_ops.constant(0, shape=nrm_v.shape, dtype=nrm_v.dtype)
        eigvals_cast = math_ops.cast(eigvals, dtype=beta.dtype)
        alpha_shifted = alpha[array_ops.newaxis, :] - eigvals_cast[:, array_ops.newaxis]
        beta = array_ops.tile(beta[array_ops.newaxis, :], [k, 1])
        diags = [beta, alpha_shifted, _conj(beta)]

        def orthogonalize_close_eigenvectors(eigenvectors):
            def orthogonalize_cluster(cluster_idx, eigenvectors):
                start = ortho_interval_start[cluster_idx]
                end = ortho_interval_end[cluster_idx]
                update_indices = array_ops.expand_dims(math_ops.range(start, end), -1)
                vectors_in_cluster = eigenvectors[start:end, :]
                q, _ = linalg_ops.qr(linalg_ops.matrix_transpose(vectors_in_cluster))
                vectors_to_update = linalg_ops.matrix_transpose(q)
                eigenvectors = tensor_scatter_nd_update(eigenvectors, update_indices,
                                                        vectors_to_update)
                return cluster_idx + 1, eigenvectors

            _, eigenvectors = while_loop(lambda i, ev: math_ops.less(i, num_clusters),
                                         orthogonalize_cluster, [0, eigenvectors])
            return eigenvectors

        def continue_iteration(i, _, nrm_v, nrm_v_old):
            max_it = 5
            min_norm_growth = 0.1
            norm_growth_factor = array_ops.constant(1 + min_norm_growth, dtype=nrm_v.dtype)
            return math_ops.logical_and(
                math_ops.less(i, max_it),
                math_ops.reduce_any(math_ops.greater_equal(nrm_v,
                                                           norm_growth_factor * nrm_v_old)))

        def inverse_iteration_step(i, v, nrm_v, nrm_v_old):
            v = tridiagonal_solve(diags, v, diagonals_format="sequence",
                                  partial_pivoting=True, perturb_singular=True)
            nrm_v_old = nrm_v
            nrm_v = norm(v, axis=1)
            v = v / nrm_v[:, array_ops.newaxis]
            v = orthogonalize_close_eigenvectors(v)
            return i + 1, v, nrm_v, nrm_v_old

        _, v, nrm_v, _ = while_loop(continue_iteration, inverse_iteration_step,
                                    [0, v0, nrm_v, zero_nrm])
        return linalg_ops.matrix_transpose(v)
