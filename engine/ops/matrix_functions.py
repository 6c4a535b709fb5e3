"""tf.linalg.pinv, expm, lu, lu_solve, lu_matrix_inverse and lu_reconstruct as TensorFlow
2.21's linalg_impl.py builds them in a TF1 graph (the same nodes, names and errors): pinv from
the Svd, expm by scaling and squaring over Pade approximants (a tf.cond and a tf.while_loop of
squarings), lu the Lu op, lu_solve a gather of the right-hand side and two triangular solves,
lu_matrix_inverse lu_solve of the identity, lu_reconstruct L @ U with its rows put back."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework import tensor_shape
from engine.ops import array_ops, check_ops, linalg_ops, math_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.distributions import broadcast_dynamic_shape
from engine.ops.fill_ops import fill, ones
from engine.ops.functional_ops import map_fn
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape


def _maybe_validate_matrix(a, validate_args):
    """linalg_impl._maybe_validate_matrix: a float tensor of rank 2 at least (an assertion
    where the rank is unknown and validate_args asks)."""
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if a.shape.ndims is not None:
        if a.shape.ndims < 2:
            raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.shape.ndims}).")
    elif validate_args:
        return [check_ops.assert_rank_at_least(
            a, rank=2, message="Input `a` must have at least 2 dimensions.")]
    return []


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: V diag(1/s) U^H over the singular values above
    rcond * max(s) (the others as if infinite)."""
    with name_scope(name or "pinv"):
        a = convert_to_tensor(a, name="a")
        assertions = _maybe_validate_matrix(a, validate_args)
        if assertions:
            with get_default_graph().control_dependencies(assertions):
                a = array_ops.identity(a)
        dtype = a.dtype.as_numpy_dtype
        if rcond is None:
            def dim_size(dim):
                value = tensor_shape.dimension_value(a.shape[dim])
                return value if value is not None else _shape(a)[dim]
            num_rows, num_cols = dim_size(-2), dim_size(-1)
            if isinstance(num_rows, int) and isinstance(num_cols, int):
                max_rows_cols = float(max(num_rows, num_cols))
            else:
                max_rows_cols = cast(math_ops.maximum(num_rows, num_cols), dtype)
            rcond = 10. * max_rows_cols * np.finfo(dtype).eps
        rcond = convert_to_tensor(rcond, dtype=dtype, name="rcond")
        singular_values, left, right = linalg_ops.svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * math_ops.reduce_max(singular_values, axis=-1)
        singular_values = array_ops.where_v2(
            singular_values > array_ops.expand_dims(cutoff, -1), singular_values,
            np.array(np.inf, dtype))
        a_pinv = math_ops.matmul(right / array_ops.expand_dims(singular_values, -2), left,
                                 adjoint_b=True)
        if a.shape.ndims is not None:
            a_pinv.set_shape(a.shape[:-2].concatenate([a.shape[-1], a.shape[-2]]))
        return a_pinv


# Pade approximants' coefficients (linalg_impl._matrix_exp_pade3 ... 13).
_PADE = {3: [120.0, 60.0, 12.0],
         5: [30240.0, 15120.0, 3360.0, 420.0, 30.0],
         7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0],
         9: [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
             110880.0, 3960.0, 90.0],
         13: [64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
              1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
              33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0]}


def _pade(matrix, degree):
    """(U, V) of the degree-`degree` Pade approximant, each op where TensorFlow makes it."""
    b = [constant(x, matrix.dtype) for x in _PADE[degree]]
    ident = linalg_ops.eye(_shape(matrix)[-2], batch_shape=_shape(matrix)[:-2],
                           dtype=matrix.dtype)
    matmul = math_ops.matmul
    matrix_2 = matmul(matrix, matrix)
    if degree == 3:
        tmp = matrix_2 + b[1] * ident
        return matmul(matrix, tmp), b[2] * matrix_2 + b[0] * ident
    matrix_4 = matmul(matrix_2, matrix_2)
    if degree == 5:
        tmp = matrix_4 + b[3] * matrix_2 + b[1] * ident
        return matmul(matrix, tmp), b[4] * matrix_4 + b[2] * matrix_2 + b[0] * ident
    matrix_6 = matmul(matrix_4, matrix_2)
    if degree == 7:
        tmp = matrix_6 + b[5] * matrix_4 + b[3] * matrix_2 + b[1] * ident
        return (matmul(matrix, tmp),
                b[6] * matrix_6 + b[4] * matrix_4 + b[2] * matrix_2 + b[0] * ident)
    if degree == 9:
        matrix_8 = matmul(matrix_6, matrix_2)
        tmp = matrix_8 + b[7] * matrix_6 + b[5] * matrix_4 + b[3] * matrix_2 + b[1] * ident
        return (matmul(matrix, tmp), b[8] * matrix_8 + b[6] * matrix_6 + b[4] * matrix_4
                + b[2] * matrix_2 + b[0] * ident)
    tmp_u = (matmul(matrix_6, matrix_6 + b[11] * matrix_4 + b[9] * matrix_2)
             + b[7] * matrix_6 + b[5] * matrix_4 + b[3] * matrix_2 + b[1] * ident)
    matrix_u = matmul(matrix, tmp_u)
    tmp_v = b[12] * matrix_6 + b[10] * matrix_4 + b[8] * matrix_2
    matrix_v = (matmul(matrix_6, tmp_v) + b[6] * matrix_6 + b[4] * matrix_4
                + b[2] * matrix_2 + b[0] * ident)
    return matrix_u, matrix_v


def matrix_exponential(input, name=None):  # noqa: A002  (TensorFlow's name)
    """exp of each square matrix [..., M, M]: Higham's scaling and squaring (Pade 3, 5, 7 for
    float16/32; 3, 5, 7, 9, 13 for float64, picked by the 1-norm), NaN where it is not finite."""
    with name_scope(name, "matrix_exponential", [input]):
        matrix = convert_to_tensor(input, name="input")
        if matrix.shape[-2:] == [0, 0]:
            return matrix
        batch_shape = matrix.shape[:-2]
        if not batch_shape.is_fully_defined():
            batch_shape = _shape(matrix)[:-2]
        matrix = array_ops.reshape(
            matrix, array_ops.concat(([-1], _shape(matrix)[-2:]), axis=0))
        l1_norm = math_ops.reduce_max(
            math_ops.reduce_sum(math_ops.abs(matrix),
                                axis=array_ops.size(_shape(matrix)) - 2),
            axis=-1)[..., None, None]

        def const(x):
            return constant(x, l1_norm.dtype)

        def nest_where(vals, cases):
            if len(vals) == 1:
                return array_ops.where_v2(math_ops.less(l1_norm, const(vals[0])), cases[0],
                                          cases[1])
            return array_ops.where_v2(math_ops.less(l1_norm, const(vals[0])), cases[0],
                                      nest_where(vals[1:], cases[1:]))

        if matrix.dtype in (dtypes.float16, dtypes.float32):
            maxnorm, degrees = const(3.925724783138660), (3, 5, 7)
            conds = (4.258730016922831e-001, 1.880152677804762e+000)
        elif matrix.dtype == dtypes.float64:
            maxnorm, degrees = const(5.371920351148152), (3, 5, 7, 9, 13)
            conds = (1.495585217958292e-002, 2.539398330063230e-001,
                     9.504178996162932e-001, 2.097847961257068e+000)
        elif matrix.dtype in (dtypes.complex64, dtypes.complex128):
            raise NotImplementedError("tf.linalg.expm of complex matrices is not supported by "
                                      "the engine yet")
        else:
            raise ValueError(f"tf.linalg.expm does not support matrices of type "
                             f"{matrix.dtype}")
        squarings = math_ops.maximum(
            math_ops.floor(math_ops.log(l1_norm / maxnorm) / math_ops.log(const(2.0))), 0)
        pairs = [_pade(matrix, degree) for degree in degrees[:-1]]
        pairs.append(_pade(matrix / cast(math_ops.pow(const(2.0), squarings), matrix.dtype),
                           degrees[-1]))
        u = nest_where(conds, [p[0] for p in pairs])
        v = nest_where(conds, [p[1] for p in pairs])

        is_finite = math_ops.is_finite(math_ops.reduce_max(l1_norm))
        nan = constant(np.nan, matrix.dtype)
        result = cond(is_finite, lambda: linalg_ops.matrix_solve(-u + v, u + v),
                      lambda: fill(_shape(matrix), nan))
        max_squarings = math_ops.reduce_max(squarings)
        i = const(0.0)

        def c(i, _):
            return cond(is_finite, lambda: math_ops.less(i, max_squarings),
                        lambda: constant(False))

        def b(i, r):
            return i + 1, array_ops.where_v2(math_ops.less(i, squarings),
                                             math_ops.matmul(r, r), r)

        _, result = while_loop(c, b, [i, result])
        if not matrix.shape.is_fully_defined():
            return array_ops.reshape(
                result, array_ops.concat((batch_shape, _shape(result)[-2:]), axis=0))
        return array_ops.reshape(result, batch_shape.concatenate(result.shape[-2:]))


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    """(lu, p): L (unit diagonal, below) and U (on and above) in one matrix, and the
    permutation p with input[..., p, :] = L @ U."""
    return tuple(apply_op("Lu", input=input, output_idx_type=output_idx_type, name=name))


def _lu_reconstruct_assertions(lower_upper, perm, validate_args):
    assertions = []
    message = "Input `lower_upper` must have at least 2 dimensions."
    if lower_upper.shape.ndims is not None and lower_upper.shape.ndims < 2:
        raise ValueError(message)
    elif validate_args:
        assertions.append(check_ops.assert_rank_at_least(lower_upper, rank=2, message=message))
    message = "`rank(lower_upper)` must equal `rank(perm) + 1`"
    if lower_upper.shape.ndims is not None and perm.shape.ndims is not None:
        if lower_upper.shape.ndims != perm.shape.ndims + 1:
            raise ValueError(message)
    elif validate_args:
        assertions.append(check_ops.assert_rank(lower_upper, rank=array_ops.rank(perm) + 1,
                                                message=message))
    message = "`lower_upper` must be square."
    if lower_upper.shape[:-2].is_fully_defined():
        if lower_upper.shape[-2] != lower_upper.shape[-1]:
            raise ValueError(message)
    elif validate_args:
        m, n = array_ops.split(_shape(lower_upper)[-2:], num_or_size_splits=2)
        assertions.append(check_ops.assert_equal(m, n, message=message))
    return assertions


def _lu_solve_assertions(lower_upper, perm, rhs, validate_args):
    assertions = _lu_reconstruct_assertions(lower_upper, perm, validate_args)
    message = "Input `rhs` must have at least 2 dimensions."
    if rhs.shape.ndims is not None:
        if rhs.shape.ndims < 2:
            raise ValueError(message)
    elif validate_args:
        assertions.append(check_ops.assert_rank_at_least(rhs, rank=2, message=message))
    message = "`lower_upper.shape[-1]` must equal `rhs.shape[-1]`."
    if lower_upper.shape[-1] is not None and rhs.shape[-2] is not None:
        if lower_upper.shape[-1] != rhs.shape[-2]:
            raise ValueError(message)
    elif validate_args:
        assertions.append(check_ops.assert_equal(_shape(lower_upper)[-1], _shape(rhs)[-2],
                                                 message=message))
    return assertions


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A X = rhs, given tf.linalg.lu(A)'s (lower_upper, perm)."""
    with name_scope(name or "lu_solve"):
        lower_upper = convert_to_tensor(lower_upper, preferred_dtype=dtypes.float32,
                                        name="lower_upper")
        perm = convert_to_tensor(perm, preferred_dtype=dtypes.int32, name="perm")
        rhs = convert_to_tensor(rhs, preferred_dtype=lower_upper.dtype, name="rhs")
        assertions = _lu_solve_assertions(lower_upper, perm, rhs, validate_args)
        if assertions:
            with get_default_graph().control_dependencies(assertions):
                lower_upper = array_ops.identity(lower_upper)
                perm = array_ops.identity(perm)
                rhs = array_ops.identity(rhs)
        if rhs.shape.ndims == 2 and perm.shape.ndims == 1:
            permuted_rhs = array_ops.gather(rhs, perm, axis=-2)
        else:
            rhs_shape = _shape(rhs)
            broadcast_batch_shape = broadcast_dynamic_shape(rhs_shape[:-2], _shape(perm)[:-1])
            d, m = rhs_shape[-2], rhs_shape[-1]
            rhs_broadcast_shape = array_ops.concat([broadcast_batch_shape, [d, m]], axis=0)
            broadcast_rhs = array_ops.broadcast_to(rhs, rhs_broadcast_shape)
            broadcast_rhs = array_ops.reshape(broadcast_rhs, [-1, d, m])
            broadcast_perm = array_ops.broadcast_to(perm, rhs_broadcast_shape[:-1])
            broadcast_perm = array_ops.reshape(broadcast_perm, [-1, d])
            broadcast_batch_size = math_ops.reduce_prod(broadcast_batch_shape)
            broadcast_batch_indices = array_ops.broadcast_to(
                math_ops.range(broadcast_batch_size)[:, None], [broadcast_batch_size, d])
            broadcast_perm = array_ops.stack([broadcast_batch_indices, broadcast_perm], axis=-1)
            permuted_rhs = array_ops.gather_nd(broadcast_rhs, broadcast_perm)
            permuted_rhs = array_ops.reshape(permuted_rhs, rhs_broadcast_shape)
        lower = linalg_ops.matrix_set_diag(
            linalg_ops.matrix_band_part(lower_upper, num_lower=-1, num_upper=0),
            ones(_shape(lower_upper)[:-1], dtype=lower_upper.dtype))
        return linalg_ops.matrix_triangular_solve(
            lower_upper, linalg_ops.matrix_triangular_solve(lower, permuted_rhs), lower=False)


def _lu_inputs(lower_upper, perm, validate_args):
    lower_upper = convert_to_tensor(lower_upper, preferred_dtype=dtypes.float32,
                                    name="lower_upper")
    perm = convert_to_tensor(perm, preferred_dtype=dtypes.int32, name="perm")
    assertions = _lu_reconstruct_assertions(lower_upper, perm, validate_args)
    if assertions:
        with get_default_graph().control_dependencies(assertions):
            lower_upper = array_ops.identity(lower_upper)
            perm = array_ops.identity(perm)
    return lower_upper, perm


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """A's inverse from tf.linalg.lu(A): lu_solve against the identity."""
    with name_scope(name or "lu_matrix_inverse"):
        lower_upper, perm = _lu_inputs(lower_upper, perm, validate_args)
        shape = _shape(lower_upper)
        return lu_solve(lower_upper, perm,
                        rhs=linalg_ops.eye(shape[-1], batch_shape=shape[:-2],
                                           dtype=lower_upper.dtype),
                        validate_args=False)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """A again from tf.linalg.lu(A): L @ U with its rows put back (a map_fn of
    InvertPermutation over a batch)."""
    with name_scope(name or "lu_reconstruct"):
        lower_upper, perm = _lu_inputs(lower_upper, perm, validate_args)
        shape = _shape(lower_upper)
        lower = linalg_ops.matrix_set_diag(
            linalg_ops.matrix_band_part(lower_upper, num_lower=-1, num_upper=0),
            ones(shape[:-1], dtype=lower_upper.dtype))
        upper = linalg_ops.matrix_band_part(lower_upper, num_lower=0, num_upper=-1)
        x = math_ops.matmul(lower, upper)
        if lower_upper.shape.ndims is None or lower_upper.shape.ndims != 2:
            batch_size = math_ops.reduce_prod(shape[:-2])
            d = shape[-1]
            x = array_ops.reshape(x, [batch_size, d, d])
            perm = array_ops.reshape(perm, [batch_size, d])
            perm = map_fn(array_ops.invert_permutation, perm)
            batch_indices = array_ops.broadcast_to(
                math_ops.range(batch_size)[:, None], [batch_size, d])
            x = array_ops.gather_nd(x, array_ops.stack([batch_indices, perm], axis=-1))
            x = array_ops.reshape(x, shape)
        else:
            x = array_ops.gather(x, array_ops.invert_permutation(perm))
        x.set_shape(lower_upper.shape)
        return x


__all__ = ["pinv", "matrix_exponential", "lu", "lu_solve", "lu_matrix_inverse",
           "lu_reconstruct"]


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """a @ b for a vector (or batch of vectors) b: a MatMul of b as a column, squeezed."""
    with name_scope(name, "MatVec", [a, b]) as name:
        output = math_ops.matmul(a, array_ops.expand_dims(b, axis=-1),
                                 transpose_a=transpose_a, adjoint_a=adjoint_a,
                                 a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
        return array_ops.squeeze(output, axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / its norm, the norm with the reduced axes kept), the norm cast to the
    tensor's dtype."""
    from engine.ops.norm_ops import norm
    with name_scope(name, "normalize", [tensor]) as name:
        tensor = convert_to_tensor(tensor)
        norm_value = norm(tensor, ord, axis, keepdims=True)
        norm_value = cast(norm_value, tensor.dtype)
        return tensor / norm_value, norm_value


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each matrix above tol (by default eps * max(M, N) *
    the largest singular value)."""
    with name_scope(name or "matrix_rank"):
        a = convert_to_tensor(a, dtype_hint=dtypes.float32, name="a")
        assertions = _maybe_validate_matrix(a, validate_args)
        if assertions:
            with get_default_graph().control_dependencies(assertions):
                a = array_ops.identity(a)
        s = linalg_ops.svd(a, compute_uv=False)
        if tol is None:
            if a.shape[-2:].is_fully_defined():
                m = np.max(a.shape[-2:].as_list())
            else:
                m = math_ops.reduce_max(_shape(a)[-2:])
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * cast(m, a.dtype) * math_ops.reduce_max(s, axis=-1, keepdims=True)
        return math_ops.reduce_sum(cast(s > tol, dtypes.int32), axis=-1)


def matrix_square_root(input, name=None):  # noqa: A002
    """The principal square root of each square matrix (tf.linalg.sqrtm)."""
    return apply_op("MatrixSquareRoot", input=input, name=name)


def matrix_logarithm(input, name=None):  # noqa: A002
    """The principal logarithm of each complex square matrix (tf.linalg.logm)."""
    return apply_op("MatrixLogarithm", input=input, name=name)
