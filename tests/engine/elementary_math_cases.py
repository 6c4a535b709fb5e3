"""tf.math's elementary functions, complex numbers and tf.bitwise built the same way by
TensorFlow and the engine: values and tf.gradients of each case in its dtypes, the errors, the
static shapes and a graph's nodes. Fixtures in tests/fixtures/elementary_math/
(tools/make_elementary_math_fixtures.py)."""

import numpy as np

_R = np.random.RandomState(11)
X = _R.uniform(-3.0, 3.0, size=(3, 7))  # 21 values: packets and a tail
UNIT = _R.uniform(-0.99, 0.99, size=(3, 7))
ABOVE_ONE = 1.0 + _R.exponential(3.0, size=(3, 7))
# Atanh over many values: both packet branches, the tail, and its edges.
ATANH_WIDE = np.concatenate([_R.uniform(-1, 1, 493), [-1.0, 1.0, 0.5, -0.5, 1.5, -2.0, 0.0]])
HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, -0.0, 1e7 + 0.5])
POSITIVE = _R.uniform(0.1, 4.0, size=(3, 7))
# The Bessel functions: both series (|x| up to 2 or 8 and beyond), packets and a tail.
BESSEL_X = np.concatenate([_R.uniform(0.05, 12.0, 37), [0.0, -1.0, 2.0, 8.0, 30.0, 90.0, 1e-3]])
# Dawson's integral, Ei, the Fresnel integrals, Spence's function: every interval and its edges.
MISC_X = np.concatenate([_R.uniform(-8.0, 8.0, 40), _R.uniform(0.0, 100.0, 16),
                         [0.0, 1.0, 1.5, 1.6, 2.0, 3.25, 6.25, 4.0, 16.0, 32.0, 64.0, 1.6008,
                          -1.6008, 4e4, -4e4, 2e9, -2e9, 0.25, 0.5, 0.75]])
MISC_GRAD_X = _R.uniform(0.2, 7.0, 21)
SHIFT_VALUES = np.array([1, -1, 5, -128, 127, 0, 3, 100, -7], np.int64)
SHIFTS = np.array([0, 1, -3, 7, 8, 9, 31, 63, 70], np.int64)


def _unary_case(fn, data, grad=True):
    def build(tf, dtype):
        x = tf.constant(data.astype(dtype), name="x")
        y = fn(tf, x)
        return {"y": y, "grad:x": tf.gradients(y, x)[0]} if grad else {"y": y}
    return build


EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 1.0, -1.0, 0.5, 2.0,
                  1e30, -1e30, 3.0])  # 14 values: a packet and a tail of 6


def _edges(tf, dtype):
    """Every new unary function of NaN, the infinities, signed zeros, denormals (float32's
    flushed), +-1 and large values; and of an empty tensor."""
    x = tf.constant(EDGES.astype(dtype), name="x")
    empty = tf.constant(np.zeros((0, 3), dtype), name="empty")
    out = {}
    for name in ("acosh", "asinh", "atanh", "rint", "erfcinv", "reciprocal_no_nan",
                 "bessel_i0", "bessel_i1"):
        out[name] = getattr(tf.math, name)(x)
        out[f"{name}_empty"] = getattr(tf.math, name)(empty)
    for name in ("bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_j0", "bessel_j1",
                 "bessel_y0", "bessel_y1", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
                 "spence"):
        out[name] = getattr(tf.math.special, name)(x)
    c = tf.complex(x, tf.reverse(x, [0]))
    out.update(angle=tf.math.angle(c), abs=tf.abs(c), real=tf.math.real(c),
               conj=tf.math.conj(c), clse=tf.math.cumulative_logsumexp(x),
               norm=tf.math.reduce_euclidean_norm(empty, axis=0),
               nextafter=tf.math.nextafter(x, tf.reverse(x, [0])))
    return out


def _half(tf, dtype):
    """The narrow floats, which TensorFlow's kernels compute through float32."""
    x = tf.constant((X / 3.5).astype(dtype), name="x")
    out = {}
    for name in ("asinh", "atanh"):
        out[name] = getattr(tf.math, name)(x)
    out["acosh"] = tf.math.acosh(tf.abs(x) + 1)
    for name in ("bessel_i0", "bessel_i1"):
        out[name] = getattr(tf.math, name)(x)
    for name in ("bessel_k0", "bessel_j1", "bessel_y0"):
        out[name] = getattr(tf.math.special, name)(tf.abs(x) + 0.1)
    return out


def _nextafter(tf, dtype):
    a = tf.constant(X.astype(dtype), name="a")
    b = tf.constant(X[0].astype(dtype) * 2, name="b")  # [7], broadcast
    y = tf.math.nextafter(a, b)
    ga, gb = tf.gradients(y, [a, b])
    return {"y": y, "grad:a": ga, "grad:b": gb, "toward_self": tf.math.nextafter(a, a)}


def _reciprocal_no_nan(tf, dtype):
    data = X.astype(dtype)
    data[0, :2] = 0
    x = tf.constant(data, name="x")
    y = tf.math.reciprocal_no_nan(x)
    return {"y": y, "grad:x": tf.gradients(y, x)[0]}


def _euclidean_norm(tf, dtype):
    x = tf.constant(X.astype(dtype), name="x")
    rows = tf.math.reduce_euclidean_norm(x, axis=1)
    kept = tf.math.reduce_euclidean_norm(x, axis=0, keepdims=True)
    every = tf.math.reduce_euclidean_norm(x)
    return {"rows": rows, "kept": kept, "all": every,
            "grad:rows": tf.gradients(rows, x)[0], "grad:kept": tf.gradients(kept, x)[0]}


def _euclidean_norm_int(tf, dtype):
    x = tf.constant((X * 10).astype(dtype), name="x")
    return {"rows": tf.math.reduce_euclidean_norm(x, axis=1),
            "all": tf.math.reduce_euclidean_norm(x)}


def _cumulative_logsumexp(tf, dtype):
    x = tf.constant((X * 4).astype(dtype), name="x")
    out = {}
    for axis in (0, 1):
        for exclusive in (False, True):
            for reverse in (False, True):
                key = f"a{axis}{'e' if exclusive else ''}{'r' if reverse else ''}"
                y = tf.math.cumulative_logsumexp(x, axis=axis, exclusive=exclusive,
                                                 reverse=reverse)
                out[key] = y
                out[f"grad:{key}"] = tf.gradients(y, x)[0]
    return out


def _monotonic(tf, dtype):
    cases = {"up": [1, 2, 2, 5], "strict": [1, 2, 3, 9], "down": [3, 2], "one": [4],
             "empty": np.zeros((0,)), "matrix": [[1, 2], [3, 4]]}
    out = {}
    for key, value in cases.items():
        x = tf.constant(np.asarray(value, dtype))
        out[f"nd_{key}"] = tf.math.is_non_decreasing(x)
        out[f"si_{key}"] = tf.math.is_strictly_increasing(x)
    return out


def _accumulate_n(tf, dtype):
    a = tf.constant(X.astype(dtype), name="a")
    b = tf.constant(POSITIVE.astype(dtype), name="b")
    y = tf.math.accumulate_n([a, b, a], shape=[3, 7])
    return {"y": y, "one": tf.math.accumulate_n([b], name="single"),
            "grad:a": tf.gradients(y, a)[0]}


def _zero_fraction(tf, dtype):
    data = np.round(X).astype(dtype)
    return {"y": tf.math.zero_fraction(tf.constant(data)),
            "nn": tf.nn.zero_fraction(tf.constant(data[:1]))}


def _erfcinv(tf, dtype):
    x = tf.constant((UNIT + 1.0).astype(dtype), name="x")
    y = tf.math.erfcinv(x)
    return {"y": y, "grad:x": tf.gradients(y, x)[0]}


def _complex_parts(tf, dtype):
    re = tf.constant(X.astype(dtype), name="re")
    im = tf.constant(POSITIVE[0].astype(dtype) - 2, name="im")  # [7], broadcast
    c = tf.complex(re, im)
    parts = {"c": c, "real": tf.real(c), "imag": tf.imag(c), "conj": tf.conj(c),
             "angle": tf.math.angle(c), "abs": tf.abs(c),
             "real_of_real": tf.math.real(re), "imag_of_real": tf.math.imag(re),
             "angle_of_real": tf.math.angle(re), "conj_of_real": tf.math.conj(re)}
    loss = tf.add_n([tf.reduce_sum(tf.real(c) * 2.0), tf.reduce_sum(tf.imag(c) * 3.0),
                     tf.reduce_sum(tf.math.angle(c)), tf.reduce_sum(tf.abs(c)),
                     tf.reduce_sum(tf.real(tf.conj(c) * c))])
    g_re, g_im = tf.gradients(loss, [re, im])
    return {**parts, "grad:re": g_re, "grad:im": g_im}


def _complex_arithmetic(tf, dtype):
    complex_type = tf.complex64 if dtype == np.float32 else tf.complex128
    a = tf.cast(tf.constant(X.astype(dtype)), complex_type)
    b = tf.complex(tf.constant(POSITIVE.astype(dtype)), tf.constant(X.astype(dtype)))
    return {"add": a + b, "sub": a - b, "mul": a * b, "neg": -b, "square": tf.square(b),
            "sum": tf.reduce_sum(b, axis=1), "back": tf.cast(b, dtype),
            "to128": tf.to_complex128(b), "to64": tf.to_complex64(b),
            "norm": tf.math.reduce_euclidean_norm(b, axis=1)}


def _bitwise(tf, dtype):
    x = tf.constant(SHIFT_VALUES.astype(dtype), name="x")
    y = tf.constant(np.roll(SHIFT_VALUES, 3).astype(dtype), name="y")
    s = tf.constant(SHIFTS.astype(dtype), name="s")
    return {"and": tf.bitwise.bitwise_and(x, y), "or": tf.bitwise.bitwise_or(x, y),
            "xor": tf.bitwise.bitwise_xor(x, y), "invert": tf.bitwise.invert(x),
            "left": tf.bitwise.left_shift(x, s), "right": tf.bitwise.right_shift(x, s),
            "left_broadcast": tf.bitwise.left_shift(x[:, None], s[None, :4])}


CASES = {
    "acosh": _unary_case(lambda tf, x: tf.acosh(x), ABOVE_ONE),
    "asinh": _unary_case(lambda tf, x: tf.asinh(x), X * 5),
    "atanh": _unary_case(lambda tf, x: tf.atanh(x), UNIT),
    "atanh_wide": _unary_case(lambda tf, x: tf.math.atanh(x), ATANH_WIDE, grad=False),
    "acosh_wide": _unary_case(lambda tf, x: tf.math.acosh(x), 1 + ATANH_WIDE ** 2 * 50,
                              grad=False),
    "rint": _unary_case(lambda tf, x: tf.rint(x), HALVES, grad=False),
    **{name: _unary_case(lambda tf, x, name=name: getattr(tf.math.special, name)(x), BESSEL_X)
       for name in ("bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0",
                    "bessel_y1")},
    **{name: _unary_case(lambda tf, x, name=name: getattr(tf.math, name)(x),
                         np.concatenate([BESSEL_X, -BESSEL_X[:9]]))
       for name in ("bessel_i0", "bessel_i1")},
    **{name: _unary_case(lambda tf, x, name=name: getattr(tf.math.special, name)(x),
                         np.concatenate([BESSEL_X, -BESSEL_X[:9], [4.9, 5.0, 5.1, 1e-4]]))
       for name in ("bessel_j0", "bessel_j1")},
    **{name: _unary_case(lambda tf, x, name=name: getattr(tf.math.special, name)(x), MISC_X,
                         grad=False)
       for name in ("dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence")},
    **{f"{name}_grad": _unary_case(lambda tf, x, name=name: getattr(tf.math.special, name)(x),
                                   MISC_GRAD_X)
       for name in ("dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence")},
    "edges": _edges,
    "half": _half,
    "nextafter": _nextafter,
    "reciprocal_no_nan": _reciprocal_no_nan,
    "erfcinv": _erfcinv,
    "reduce_euclidean_norm": _euclidean_norm,
    "reduce_euclidean_norm_int": _euclidean_norm_int,
    "cumulative_logsumexp": _cumulative_logsumexp,
    "monotonic": _monotonic,
    "accumulate_n": _accumulate_n,
    "zero_fraction": _zero_fraction,
    "complex_parts": _complex_parts,
    "complex_arithmetic": _complex_arithmetic,
    "bitwise": _bitwise,
}
DTYPES = {"reduce_euclidean_norm_int": (np.int32,), "half": (np.float16,),
          "monotonic": (np.float32, np.int32),
          "bitwise": (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64)}
DEFAULT_DTYPES = (np.float32, np.float64)


def run_case(tf, name, dtype):
    """{key: value} of case `name` in `dtype`, run in a fresh graph and session."""
    with tf.Graph().as_default():
        fetches = CASES[name](tf, dtype)
        with tf.Session() as sess:
            values = sess.run(fetches)
    return {key: np.asarray(value) for key, value in values.items()}


def case_keys():
    for name in CASES:
        for dtype in DTYPES.get(name, DEFAULT_DTYPES):
            yield name, dtype, f"{name}_{np.dtype(dtype).name}"


ERRORS = {
    "complex_mixed_types": lambda tf: tf.complex(tf.constant([1.0]),
                                                 tf.constant([1.0], tf.float64)),
    "complex_int": lambda tf: tf.complex(1, 2),
    "real_of_string": lambda tf: tf.math.real(tf.constant(["a"])),
    "bitwise_float": lambda tf: tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0])),
    "shift_shapes": lambda tf: tf.bitwise.left_shift(
        tf.placeholder_with_default(np.ones(3, np.int32), None),
        tf.placeholder_with_default(np.ones(2, np.int32), None)),
    "nextafter_int": lambda tf: tf.math.nextafter(tf.constant([1]), tf.constant([2])),
    "logsumexp_axis": lambda tf: tf.math.cumulative_logsumexp(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None),
        tf.placeholder_with_default(2, None)),
    "logsumexp_axis_rank": lambda tf: tf.math.cumulative_logsumexp(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None),
        tf.placeholder_with_default([0], None)),
    "euclidean_norm_axis": lambda tf: tf.math.reduce_euclidean_norm(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None),
        tf.placeholder_with_default(3, None)),
    "accumulate_n_dtype": lambda tf: tf.math.accumulate_n([tf.constant([1.0])],
                                                          tensor_dtype=tf.float64),
    "accumulate_n_empty": lambda tf: tf.math.accumulate_n([]),
    "acosh_int": lambda tf: tf.acosh(tf.constant([1])),
}


def run_error(tf, name):
    """(error class name, the first line of its message)."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError) as error:
            return ["build: " + type(error).__name__, str(error).split("\n")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1] if at else lines[0]]
    return ["no error", ""]


def static_shapes(tf):
    """{name: [static shape as text, dtype name]} of each new API's output, built with partly
    known inputs."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3, None])
        y = tf.placeholder(tf.float32, [None, 4])
        i = tf.placeholder(tf.int32, [None, 5])
        c = tf.complex(x, y)
        out = {"acosh": tf.acosh(x), "atanh": tf.atanh(y), "rint": tf.rint(x),
               "nextafter": tf.math.nextafter(x, y), "norm": tf.math.reduce_euclidean_norm(x),
               "norm_axis": tf.math.reduce_euclidean_norm(y, axis=1),
               "norm_kept": tf.math.reduce_euclidean_norm(x, axis=0, keepdims=True),
               "clse": tf.math.cumulative_logsumexp(x, axis=1), "complex": c,
               "real": tf.real(c), "angle": tf.math.angle(c), "abs": tf.abs(c),
               "conj": tf.conj(c), "and": tf.bitwise.bitwise_and(i, 3),
               "shift": tf.bitwise.right_shift(i, tf.zeros([2, 1, 5], tf.int32)),
               "invert": tf.bitwise.invert(i), "zero_fraction": tf.math.zero_fraction(x),
               "monotonic": tf.math.is_non_decreasing(x), "erfcinv": tf.math.erfcinv(y),
               "accumulate_n": tf.math.accumulate_n([x, x]),
               "reciprocal_no_nan": tf.math.reciprocal_no_nan(y),
               "bessel_k1": tf.math.special.bessel_k1(x), "bessel_i0": tf.math.bessel_i0(y)}
        return {key: [str(value.shape), value.dtype.name] for key, value in out.items()}


def gradient_graph_nodes(tf):
    """[name, op, inputs] of each node of a graph of the new APIs and tf.gradients through them
    (the nodes TensorFlow's Python builds, named as it names them)."""
    with tf.Graph().as_default() as graph:
        x = tf.constant([[1.5, 2.0], [1.25, 3.0]])
        u = tf.constant([0.5, -0.25])
        c = tf.complex(x, x)
        outs = [tf.acosh(x), tf.asinh(x), tf.atanh(u), tf.rint(x), tf.math.nextafter(x, u),
                tf.math.reciprocal_no_nan(x), tf.math.erfcinv(u + 1),
                tf.math.reduce_euclidean_norm(x, axis=1), tf.math.cumulative_logsumexp(x),
                tf.math.accumulate_n([x, x]), tf.real(c), tf.imag(c), tf.math.angle(c),
                tf.abs(c), tf.real(tf.conj(c)), tf.math.bessel_i0(x), tf.math.bessel_i1(x),
                tf.math.special.bessel_k0(x), tf.math.special.bessel_k0e(x),
                tf.math.special.bessel_k1(x), tf.math.special.bessel_k1e(x),
                tf.math.special.bessel_j0(x), tf.math.special.bessel_j1(x),
                tf.math.special.bessel_y0(x), tf.math.special.bessel_y1(x),
                tf.math.special.dawsn(x), tf.math.special.expint(x),
                tf.math.special.fresnel_cos(x), tf.math.special.fresnel_sin(x),
                tf.math.special.spence(x)]
        loss = tf.add_n([tf.reduce_sum(o) for o in outs])
        tf.gradients(loss, [x, u])
        tf.math.zero_fraction(x)
        tf.math.is_non_decreasing(u)
        tf.math.is_strictly_increasing(u)
        tf.to_complex128(x)
        i = tf.constant([1, 2])
        for fn in (tf.bitwise.bitwise_and, tf.bitwise.bitwise_or, tf.bitwise.bitwise_xor,
                   tf.bitwise.left_shift, tf.bitwise.right_shift):
            fn(i, i)
        tf.bitwise.invert(i)
        return [[node.name, node.op, list(node.input)] for node in graph.as_graph_def().node]
