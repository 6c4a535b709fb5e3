"""tf.linalg.LinearOperator cases, replayed on TensorFlow (tools/make_linear_operator_fixtures.py)
and on the engine (tests/engine/test_linear_operators.py): each case builds one operator from
seeded NumPy values in float32 and float64 and `replay` records every public method's result
(value and static shape, or the error class and message it raised), the hints and types of the
operators that adjoint/inverse/cholesky/matmul return, gradients, and the graph nodes one
matmul and one solve add."""

import numpy as np

DTYPES = ("float32", "float64")


def case_names(tf):
    return [name for name, _ in _cases(tf, "float32") + _pairs(tf, "float32")]


def _well_conditioned(rng, shape):
    n = shape[-1]
    return rng.uniform(-1, 1, shape) + 3 * np.eye(n)


def _positive_definite(rng, shape):
    a = rng.uniform(-1, 1, shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _hermitian_spectrum(rng, shape, fft, positive=False):
    """The spectrum of a real circulant kernel (a real operator), or for `positive` the real
    spectrum of an even kernel (a real symmetric positive definite operator)."""
    if positive:
        half = rng.uniform(1, 2, shape[-1] // 2 + 1)
        return np.concatenate([half, half[1:][::-1][shape[-1] % 2 == 0:]])
    return fft(rng.uniform(-1, 1, shape))


def _custom_operator_class(tf):
    """A user's subclass of tf.linalg.LinearOperator giving only a shape and matmul: every other
    method is the base class's default."""
    class DenseByMatmul(tf.linalg.LinearOperator):
        def __init__(self, matrix, **hints):
            self._matrix = tf.convert_to_tensor(matrix, name="matrix")
            super().__init__(dtype=self._matrix.dtype, name="DenseByMatmul",
                             parameters={"matrix": matrix}, **hints)

        def _shape(self):
            return self._matrix.shape

        def _shape_tensor(self):
            return tf.shape(self._matrix)

        def _matmul(self, x, adjoint=False, adjoint_arg=False):
            return tf.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)
    return DenseByMatmul


def _circulant_case(tf, dt, rng, cls, shape, positive=False, **hints):
    fft = {"LinearOperatorCirculant": np.fft.fft, "LinearOperatorCirculant2D": np.fft.fft2,
           "LinearOperatorCirculant3D": np.fft.fftn}[cls]
    spectrum = _hermitian_spectrum(rng, shape, fft, positive)
    spectrum = spectrum.astype(dt if positive else
                               np.complex64 if dt == "float32" else np.complex128)
    return getattr(tf.linalg, cls)(spectrum, input_output_dtype=getattr(tf, dt), **hints)


def _cases(tf, dt):
    """(name, builder(rng)) for every case; the builders make their NumPy values from rng."""
    dtype = getattr(tf, dt)
    la = tf.linalg

    def cast(x):
        return np.asarray(x).astype(dt)

    def full(rng, shape=(3, 3), **hints):
        return la.LinearOperatorFullMatrix(cast(_well_conditioned(rng, shape)), **hints)

    def lower(rng, shape=(3, 3)):
        return la.LinearOperatorLowerTriangular(cast(np.tril(_well_conditioned(rng, shape))))

    return [
        ("full", lambda rng: full(rng, (2, 3, 3))),
        ("full_pd", lambda rng: la.LinearOperatorFullMatrix(
            cast(_positive_definite(rng, (3, 3))), is_self_adjoint=True,
            is_positive_definite=True)),
        ("full_rect", lambda rng: la.LinearOperatorFullMatrix(
            cast(rng.uniform(-1, 1, (2, 3, 4))))),
        ("full_unknown_batch", lambda rng: la.LinearOperatorFullMatrix(tf.placeholder_with_default(
            cast(_well_conditioned(rng, (2, 3, 3))), shape=[None, 3, 3]))),
        ("full_variable", lambda rng: la.LinearOperatorFullMatrix(tf.Variable(
            cast(_well_conditioned(rng, (3, 3))), name="m"))),
        ("full_unknown_rank", lambda rng: la.LinearOperatorFullMatrix(
            tf.placeholder_with_default(cast(_well_conditioned(rng, (3, 3))), shape=None))),
        ("diag", lambda rng: la.LinearOperatorDiag(cast(rng.uniform(1, 2, (2, 3))),
                                                   is_positive_definite=True)),
        ("diag_unknown_dim", lambda rng: la.LinearOperatorDiag(tf.placeholder_with_default(
            cast(rng.uniform(1, 2, 3)), shape=[None]), is_non_singular=True)),
        ("identity_dynamic", lambda rng: la.LinearOperatorIdentity(
            tf.placeholder_with_default(np.int32(3), shape=[]), dtype=dtype,
            assert_proper_shapes=True)),
        ("identity_batch_tensor", lambda rng: la.LinearOperatorIdentity(
            3, batch_shape=tf.constant([2], name="batch"), dtype=dtype)),
        ("diag_signed", lambda rng: la.LinearOperatorDiag(cast([-2.0, 0.5, 3.0]))),
        ("lower", lambda rng: lower(rng, (2, 3, 3))),
        ("identity", lambda rng: la.LinearOperatorIdentity(3, batch_shape=[2], dtype=dtype)),
        ("scaled_identity", lambda rng: la.LinearOperatorScaledIdentity(
            3, multiplier=cast([2.0, 0.5]), is_positive_definite=True,
            is_self_adjoint=True)),
        ("zeros", lambda rng: la.LinearOperatorZeros(3, batch_shape=[2], dtype=dtype)),
        ("zeros_rect", lambda rng: la.LinearOperatorZeros(3, num_columns=4, dtype=dtype,
                                                          is_square=False)),
        ("zeros_rect_hinted", lambda rng: la.LinearOperatorZeros(
            3, num_columns=4, dtype=dtype, is_square=False, is_self_adjoint=False)),
        ("pd_but_singular", lambda rng: full(rng, is_positive_definite=True,
                                             is_non_singular=False)),
        ("non_singular_not_square", lambda rng: full(rng, is_non_singular=True,
                                                     is_square=False)),
        ("householder_pd", lambda rng: la.LinearOperatorHouseholder(
            cast([1.0, 2.0, 2.0]), is_positive_definite=True)),
        ("diag_scalar", lambda rng: la.LinearOperatorDiag(cast(2.0))),
        ("diag_complex_not_self_adjoint", lambda rng: la.LinearOperatorDiag(
            cast([1.0, 2.0]), is_self_adjoint=False)),
        ("adjoint", lambda rng: la.LinearOperatorAdjoint(full(rng))),
        ("inversion", lambda rng: la.LinearOperatorInversion(full(rng, (2, 3, 3)))),
        ("composition", lambda rng: la.LinearOperatorComposition(
            [full(rng), la.LinearOperatorDiag(cast(rng.uniform(1, 2, (2, 3))))])),
        ("block_diag", lambda rng: la.LinearOperatorBlockDiag(
            [full(rng, (2, 2)), la.LinearOperatorDiag(cast(rng.uniform(1, 2, 3)))])),
        ("block_lower", lambda rng: la.LinearOperatorBlockLowerTriangular(
            [[full(rng, (2, 2))], [la.LinearOperatorFullMatrix(cast(rng.uniform(-1, 1, (3, 2)))),
                                   lower(rng)]])),
        ("circulant", lambda rng: _circulant_case(tf, dt, rng, "LinearOperatorCirculant",
                                                  (2, 4), is_non_singular=True)),
        ("circulant_pd", lambda rng: _circulant_case(
            tf, dt, rng, "LinearOperatorCirculant", (5,), positive=True,
            is_self_adjoint=True, is_positive_definite=True)),
        ("circulant_complex", lambda rng: la.LinearOperatorCirculant(
            (np.fft.fft(rng.uniform(-1, 1, (2, 4))) + 2j * rng.uniform(1, 2, (2, 4))).astype(
                "complex64" if dt == "float32" else "complex128"),
            **({} if dt == "float32" else {"input_output_dtype": tf.complex128}))),
        ("full_complex", lambda rng: la.LinearOperatorFullMatrix(
            (_well_conditioned(rng, (3, 3)) + 1j * rng.uniform(-1, 1, (3, 3))).astype(
                "complex64" if dt == "float32" else "complex128"))),
        ("circulant2d", lambda rng: _circulant_case(tf, dt, rng, "LinearOperatorCirculant2D",
                                                    (2, 3))),
        ("circulant3d", lambda rng: _circulant_case(tf, dt, rng, "LinearOperatorCirculant3D",
                                                    (2, 2, 2))),
        ("householder", lambda rng: la.LinearOperatorHouseholder(
            cast(rng.uniform(-1, 1, (2, 3))))),
        ("kronecker", lambda rng: la.LinearOperatorKronecker([full(rng, (2, 2)), full(rng)])),
        ("low_rank_update_pd", lambda rng: la.LinearOperatorLowRankUpdate(
            la.LinearOperatorDiag(cast(rng.uniform(1, 2, 3)), is_positive_definite=True,
                                  is_self_adjoint=True),
            u=cast(rng.uniform(-1, 1, (3, 2))), diag_update=cast(rng.uniform(1, 2, 2)),
            is_diag_update_positive=True, is_self_adjoint=True, is_positive_definite=True)),
        ("low_rank_update", lambda rng: la.LinearOperatorLowRankUpdate(
            full(rng), u=cast(rng.uniform(-1, 1, (3, 2))), v=cast(rng.uniform(-1, 1, (3, 2))))),
        ("permutation", lambda rng: la.LinearOperatorPermutation(
            np.array([[2, 0, 1], [1, 2, 0]], np.int32), dtype=dtype)),
        ("toeplitz", lambda rng: la.LinearOperatorToeplitz(
            col=cast([3.0, 0.5, -0.25]), row=cast([3.0, 1.0, 0.5]))),
        ("tridiag_compact", lambda rng: la.LinearOperatorTridiag(
            cast(np.concatenate([rng.uniform(-1, 1, (2, 1, 3)), rng.uniform(3, 4, (2, 1, 3)),
                                 rng.uniform(-1, 1, (2, 1, 3))], axis=1)))),
        ("tridiag_sequence", lambda rng: la.LinearOperatorTridiag(
            [cast(rng.uniform(-1, 1, 3)), cast(rng.uniform(3, 4, 3)),
             cast(rng.uniform(-1, 1, 3))], diagonals_format="sequence")),
        ("tridiag_matrix", lambda rng: la.LinearOperatorTridiag(
            cast(np.triu(np.tril(_well_conditioned(rng, (3, 3)), 1), -1)),
            diagonals_format="matrix")),
        ("custom", lambda rng: _custom_operator_class(tf)(cast(_well_conditioned(rng, (3, 3))))),
        ("custom_graph_parents", lambda rng: _custom_operator_class(tf)(
            cast(_well_conditioned(rng, (3, 3))), graph_parents=[tf.constant(1.0, name="p")])),
        ("custom_bad_graph_parents", lambda rng: _custom_operator_class(tf)(
            cast(_well_conditioned(rng, (3, 3))), graph_parents=[1.0])),
        ("custom_pd", lambda rng: _custom_operator_class(tf)(
            cast(_positive_definite(rng, (3, 3))), is_self_adjoint=True,
            is_positive_definite=True)),
    ]


def _pairs(tf, dt):
    """(name, builder(rng) -> (a, b)): operators whose products and solves TensorFlow's
    algebra makes into special classes (or a LinearOperatorComposition)."""
    la = tf.linalg

    def cast(x):
        return np.asarray(x).astype(dt)

    def diag(rng):
        return la.LinearOperatorDiag(cast(rng.uniform(1, 2, 3)))

    def full(rng):
        return la.LinearOperatorFullMatrix(cast(_well_conditioned(rng, (3, 3))))

    def lower(rng):
        return la.LinearOperatorLowerTriangular(cast(np.tril(_well_conditioned(rng, (3, 3)))))

    def scaled(rng):
        return la.LinearOperatorScaledIdentity(3, cast(rng.uniform(1, 2)))

    def circulant(rng):
        spectrum = np.fft.fft(rng.uniform(-1, 1, 3)).astype(
            np.complex64 if dt == "float32" else np.complex128)
        return la.LinearOperatorCirculant(spectrum, input_output_dtype=getattr(tf, dt))

    def kron(rng):
        return la.LinearOperatorKronecker([
            la.LinearOperatorFullMatrix(cast(_well_conditioned(rng, (2, 2)))),
            la.LinearOperatorDiag(cast(rng.uniform(1, 2, 2)))])

    def block(rng):
        return la.LinearOperatorBlockDiag([
            la.LinearOperatorFullMatrix(cast(_well_conditioned(rng, (2, 2)))),
            la.LinearOperatorDiag(cast(rng.uniform(1, 2, 1)))])

    identity = la.LinearOperatorIdentity(3, dtype=getattr(tf, dt))
    return [
        ("pair_diag_diag", lambda rng: (diag(rng), diag(rng))),
        ("pair_diag_full", lambda rng: (diag(rng), full(rng))),
        ("pair_full_diag", lambda rng: (full(rng), diag(rng))),
        ("pair_identity_full", lambda rng: (identity, full(rng))),
        ("pair_full_identity", lambda rng: (full(rng), identity)),
        ("pair_scaled_diag", lambda rng: (scaled(rng), diag(rng))),
        ("pair_scaled_scaled", lambda rng: (scaled(rng), scaled(rng))),
        ("pair_lower_lower", lambda rng: (lower(rng), lower(rng))),
        ("pair_diag_lower", lambda rng: (diag(rng), lower(rng))),
        ("pair_full_zeros", lambda rng: (full(rng), la.LinearOperatorZeros(
            3, dtype=getattr(tf, dt)))),
        ("pair_circulant_circulant", lambda rng: (circulant(rng), circulant(rng))),
        ("pair_kronecker_kronecker", lambda rng: (kron(rng), kron(rng))),
        ("pair_block_block", lambda rng: (block(rng), block(rng))),
        ("pair_full_full", lambda rng: (full(rng), full(rng))),
        ("pair_householder_full", lambda rng: (la.LinearOperatorHouseholder(
            cast(rng.uniform(-1, 1, 3))), full(rng))),
        ("pair_permutation_diag", lambda rng: (la.LinearOperatorPermutation(
            np.array([1, 2, 0], np.int32), dtype=getattr(tf, dt)), diag(rng))),
    ]


def _pair_methods(tf, pair):
    a, b = pair
    return [
        ("matmul", lambda: a.matmul(b)),
        ("matmul_op", lambda: a @ b),
        ("matmul_adjoint", lambda: a.matmul(b, adjoint=True)),
        ("matmul_adjoint_arg", lambda: a.matmul(b, adjoint_arg=True)),
        ("solve", lambda: a.solve(b)),
        ("solve_adjoint", lambda: a.solve(b, adjoint=True)),
    ]


# The cases whose graph nodes (names and op types) of matmul and solve are compared.
NODE_CASES = ("full", "diag", "lower", "identity", "scaled_identity", "zeros", "adjoint",
              "inversion", "composition", "block_diag", "block_lower", "circulant",
              "circulant2d", "circulant3d", "householder", "kronecker", "low_rank_update",
              "permutation", "toeplitz", "tridiag_compact", "custom")

# The cases whose gradients through matmul, solve and log_abs_determinant are compared.
GRAD_CASES = ("full", "full_variable", "diag", "lower", "low_rank_update_pd", "circulant", "kronecker")

HINTS = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")


def _static(value):
    if value is None:
        return None
    if hasattr(value, "as_list"):
        return value.as_list() if value.ndims is not None else None
    return getattr(value, "value", value)


def _error(error):
    """[class, message's first line]; a shape function's message without TensorFlow's node
    part (" for '{{node ...}}' with input shapes ...")."""
    message = getattr(error, "message", None) or str(error)
    lines = message.splitlines()
    after_node = [line for before, line in zip(lines, lines[1:]) if before.startswith("Node: ")]
    # An assertion's message without the data it prints: which of several failing asserts
    # TensorFlow's executor reports first is its schedule's choice.
    message = (after_node or lines)[0].split(" [Condition ")[0].split(" for '{{node ")[0] if message else ""
    name = type(error).__name__
    return ["ValueError" if name == "ShapeError" else name, message]


def _methods(tf, op, x, dt):
    """(label, thunk) of each method call on `op`; a thunk returns a Tensor, an operator, a
    Python value, or raises."""
    rng = np.random.RandomState(7)
    if op.dtype.is_complex:  # x + iy of the operator's dtype, the solves' right sides too
        uniform = rng.uniform
        rng = type("ComplexRng", (), {"uniform": staticmethod(
            lambda lo, hi, shape: uniform(lo, hi, shape) + 1j * uniform(lo, hi, shape))})
        dt = op.dtype.name
    rows = _static(op.range_dimension) or 3
    cols = _static(op.domain_dimension) or 3
    batch = [2 if d is None else d for d in _static(op.batch_shape) or []]
    xr = rng.uniform(-1, 1, batch + [cols, 2]).astype(dt)
    xl = rng.uniform(-1, 1, batch + [rows, 2]).astype(dt)
    vec = rng.uniform(-1, 1, batch + [cols]).astype(dt)
    vec_l = rng.uniform(-1, 1, batch + [rows]).astype(dt)
    dense = rng.uniform(-1, 1, batch + [rows, cols]).astype(dt)
    return [
        ("shape", lambda: _static(op.shape)),
        ("batch_shape", lambda: _static(op.batch_shape)),
        ("domain_dimension", lambda: _static(op.domain_dimension)),
        ("range_dimension", lambda: _static(op.range_dimension)),
        ("tensor_rank", lambda: op.tensor_rank),
        ("hints", lambda: [getattr(op, h) for h in HINTS]),
        ("dtype", lambda: op.dtype.name),
        ("name", lambda: op.name),
        ("graph_parents", lambda: [t.name for t in op.graph_parents]),
        ("parameters", lambda: sorted(op.parameters)),
        ("shape_tensor", op.shape_tensor),
        ("batch_shape_tensor", op.batch_shape_tensor),
        ("domain_dimension_tensor", op.domain_dimension_tensor),
        ("range_dimension_tensor", op.range_dimension_tensor),
        ("tensor_rank_tensor", op.tensor_rank_tensor),
        ("to_dense", op.to_dense),
        ("matmul", lambda: op.matmul(xr)),
        ("matmul_adjoint", lambda: op.matmul(xl, adjoint=True)),
        ("matmul_adjoint_arg", lambda: op.matmul(np.swapaxes(xr, -1, -2), adjoint_arg=True)),
        ("matmul_op", lambda: op @ xr),
        ("matmul_broadcast", lambda: op.matmul(np.stack([xr, 2 * xr]))),
        ("matvec", lambda: op.matvec(vec)),
        ("matvec_adjoint", lambda: op.matvec(vec_l, adjoint=True)),
        ("solve", lambda: op.solve(xl)),
        ("solve_adjoint", lambda: op.solve(xr, adjoint=True)),
        ("solve_adjoint_arg", lambda: op.solve(np.swapaxes(xl, -1, -2), adjoint_arg=True)),
        ("solvevec", lambda: op.solvevec(vec_l)),
        ("determinant", op.determinant),
        ("log_abs_determinant", op.log_abs_determinant),
        ("diag_part", op.diag_part),
        ("trace", op.trace),
        ("add_to_tensor", lambda: op.add_to_tensor(dense)),
        ("eigvals", op.eigvals),
        ("cond", op.cond),
        ("adjoint", op.adjoint),
        ("H", lambda: op.H),
        ("inverse", op.inverse),
        ("cholesky", op.cholesky),
        ("matmul_self", lambda: op.matmul(op.adjoint())),
        ("solve_self", lambda: op.solve(op)),
        ("matmul_wrong_dim", lambda: op.matmul(np.ones(batch + [cols + 1, 2], dt))),
        ("matmul_wrong_dtype", lambda: op.matmul(
            np.ones(batch + [cols, 2], "float64" if dt == "float32" else "float32"))),
        ("assert_non_singular", op.assert_non_singular),
        ("assert_positive_definite", op.assert_positive_definite),
        ("assert_self_adjoint", op.assert_self_adjoint),
    ]


def _describe(tf, result):
    """What a method returned: ("tensor", Tensor), ("operator", ...) or ("python", value)."""
    if isinstance(result, tf.linalg.LinearOperator):
        return "operator", {"type": type(result).__name__, "name": result.name,
                            "hints": [getattr(result, h) for h in HINTS],
                            "shape": _static(result.shape)}, result.to_dense()
    if isinstance(result, tf.Tensor):
        return "tensor", {"shape": _static(result.shape), "dtype": result.dtype.name}, result
    if isinstance(result, tf.Variable):  # FullMatrix(variable).to_dense() is the variable
        return "variable", {"shape": _static(result.shape),
                            "dtype": result.dtype.base_dtype.name}, result
    if isinstance(result, tf.Operation):
        return "op", {"type": result.type}, result
    return "python", _plain(result), None


def _plain(value):
    """A Python value as JSON keeps it (arrays as lists, dimensions as ints)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    return getattr(value, "value", value)


def _new_nodes(graph, before):
    return [f"{op.name}:{op.type}" for op in graph.get_operations()[before:]]


def replay(tf, dtypes=DTYPES, names=None):
    """{case/dtype/method: record} and {case/dtype/method: array}, as run on `tf` (the cases
    named in `names`, else all)."""
    records, arrays = {}, {}
    for dt in dtypes:
        for name, build in _cases(tf, dt) + _pairs(tf, dt):
            if names is not None and name not in names:
                continue
            graph = tf.Graph()
            with graph.as_default():
                rng = np.random.RandomState(sum(map(ord, name)))
                prefix = f"{name}/{dt}"
                try:
                    op = build(rng)
                except Exception as error:  # noqa: BLE001  (TF's class and words recorded)
                    records[f"{prefix}/construct"] = {"error": _error(error)}
                    continue
                fetches, runs = {}, {}
                methods = _pair_methods(tf, op) if isinstance(op, tuple) else \
                    _methods(tf, op, None, dt)
                for label, thunk in methods:
                    key = f"{prefix}/{label}"
                    before = len(graph.get_operations())
                    try:
                        kind, info, fetch = _describe(tf, thunk())
                    except Exception as error:  # noqa: BLE001  (TF's class and words recorded)
                        records[key] = {"error": _error(error)}
                        continue
                    record = {"kind": kind, "info": info}
                    if dt == "float32" and name in NODE_CASES and label in ("matmul", "solve"):
                        record["nodes"] = _new_nodes(graph, before)
                    records[key] = record
                    if kind == "op" or label.startswith("assert_"):
                        runs[key] = fetch
                    elif fetch is not None:
                        fetches[key] = fetch
                if name in GRAD_CASES:
                    _add_gradients(tf, op, dt, prefix, graph, fetches, records)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    values = _run_each_if_one_fails(tf, sess, fetches, records)
                    for key, fetch in runs.items():
                        try:
                            sess.run(fetch)
                            records[key]["run"] = "ok"
                        except tf.errors.OpError as error:
                            records[key]["run"] = _error(error)
                for key, value in values.items():
                    arrays[key] = np.asarray(value)
    return records, arrays


def pack(arrays):
    """The arrays as one flat array per dtype and {key: [dtype, offset, shape]} (a small file
    where one npz entry per array would spend most of its bytes on headers)."""
    flat, index = {}, {}
    for key in sorted(arrays):
        value = arrays[key]
        parts = flat.setdefault(value.dtype.name, [])
        index[key] = [value.dtype.name, sum(p.size for p in parts), list(value.shape)]
        parts.append(value.ravel())
    return {dt: np.concatenate(parts) for dt, parts in flat.items()}, index


def unpack(flat, index):
    return {key: flat[dt][offset:offset + int(np.prod(shape))].reshape(shape)
            for key, (dt, offset, shape) in index.items()}


def _run_each_if_one_fails(tf, sess, fetches, records):
    """All fetches in one run; if one fails, each alone, its error recorded as its "run"."""
    try:
        return sess.run(fetches)
    except tf.errors.OpError:
        values = {}
        for key, fetch in fetches.items():
            try:
                values[key] = sess.run(fetch)
            except tf.errors.OpError as error:
                records[key if key in records else key.rsplit("/", 1)[0]]["run"] = \
                    _error(error)
        return values


def _add_gradients(tf, op, dt, prefix, graph, fetches, records):
    """Gradients of matmul, solve and log_abs_determinant with respect to the tensors the
    operator was built from (its graph's constants and placeholders that feed it)."""
    params = [t for t in _parameters(tf, op)]
    rng = np.random.RandomState(11)
    batch = [2 if d is None else d for d in _static(op.batch_shape) or []]
    n = _static(op.domain_dimension)
    x = tf.constant(rng.uniform(-1, 1, batch + [n, 2]).astype(dt))
    for label, thunk in (("grad_matmul", lambda: op.matmul(x)),
                         ("grad_solve", lambda: op.solve(x)),
                         ("grad_log_abs_determinant", op.log_abs_determinant)):
        key = f"{prefix}/{label}"
        try:
            target = thunk()
            grads = tf.gradients(tf.reduce_sum(target * target), params + [x])
        except Exception as error:  # noqa: BLE001
            records[key] = {"error": _error(error)}
            continue
        records[key] = {"kind": "grads", "info": [g is not None for g in grads]}
        for i, g in enumerate(grads):
            if g is not None:
                fetches[f"{key}/{i}"] = g


def _parameters(tf, op):
    """The float tensors an operator holds (its own and those of the operators it holds)."""
    seen = []
    for attr in ("_matrix", "_diag", "_tril", "_spectrum", "_u", "_diag_update", "_v"):
        value = getattr(op, attr, None)
        if isinstance(value, (tf.Tensor, tf.Variable)) and value.dtype.base_dtype.is_floating \
                and value not in seen:
            seen.append(value)
    for sub in list(getattr(op, "operators", None) or []) + \
            ([op.base_operator] if hasattr(op, "base_operator") else []):
        for value in _parameters(tf, sub):
            if value not in seen:
                seen.append(value)
    return seen
