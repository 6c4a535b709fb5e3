"""The special math and manipulation ops built the same way by TensorFlow and the engine:
values of each case (float32 and float64 where the op takes both) and gradients by
tf.gradients, and the kernels' errors. Fixtures in tests/fixtures/mathops/
(tools/make_special_math_fixtures.py)."""

import numpy as np

_R = np.random.RandomState(7)
X32 = _R.uniform(-3.0, 3.0, size=(3, 7)).astype(np.float32)  # 21 values: packets and a tail
POS32 = _R.uniform(0.05, 6.0, size=(3, 7)).astype(np.float32)
POS32B = _R.uniform(0.05, 6.0, size=(3, 7)).astype(np.float32)
UNIT32 = _R.uniform(0.01, 0.99, size=(3, 7)).astype(np.float32)
X32[0, :3] = 0.0  # xlogy/xdivy's x == 0
POS32B[2, :2] = 0.0


def _pair(tf, dtype):
    x = tf.constant(X32.astype(dtype), name="x")
    y = tf.constant(POS32B.astype(dtype), name="y")
    return x, y


def _unary_case(fn, data):
    def build(tf, dtype):
        x = tf.constant(data.astype(dtype), name="x")
        y = fn(tf, x)
        return {"y": y, "grad:x": tf.gradients(y, x)[0]}
    return build


def _binary_case(fn, a_data, b_data, grads=(0, 1)):
    def build(tf, dtype):
        a = tf.constant(a_data.astype(dtype), name="a")
        b = tf.constant(b_data.astype(dtype), name="b")
        y = fn(tf, a, b)
        out = {"y": y}
        for i, (name, t) in enumerate((("a", a), ("b", b))):
            if i in grads:
                out[f"grad:{name}"] = tf.gradients(y, t)[0]
        return out
    return build


def _broadcast(fn):
    def build(tf, dtype):
        x = tf.constant(X32[:, :1].astype(dtype), name="x")  # [3, 1]
        y = tf.constant(POS32B[0].astype(dtype), name="y")   # [7]
        z = fn(tf, x, y)
        gx, gy = tf.gradients(z, [x, y])
        return {"y": z, "grad:x": gx, "grad:y": gy}
    return build


def _betainc(tf, dtype):
    a = tf.constant(POS32.astype(dtype), name="a")
    b = tf.constant(POS32B.astype(dtype) + 0.1, name="b")
    x = tf.constant(UNIT32.astype(dtype), name="x")
    y = tf.betainc(a, b, x)
    return {"y": y, "grad:x": tf.gradients(y, x)[0],
            "scalar_ab": tf.betainc(dtype(2.5), dtype(0.75), x)}


def _swish(tf, dtype):
    x = tf.constant(X32.astype(dtype), name="x")
    y = tf.nn.swish(x)
    return {"y": y, "grad:x": tf.gradients(y, x)[0]}


def _roll(tf, dtype):
    x = tf.constant(np.arange(24, dtype=dtype).reshape(2, 3, 4), name="x")
    y = tf.roll(x, shift=[1, -2, 5], axis=[0, 2, 2])
    return {"y": y, "vector": tf.roll(tf.range(5), 2, 0),
            "grad:x": tf.gradients(y * y, x)[0]}


def _bitcast(tf, dtype):
    x = tf.constant(X32.astype(dtype), name="x")
    out = {"to_int": tf.bitcast(x, tf.int32 if dtype == np.float32 else tf.int64),
           "to_uint8": tf.bitcast(x, tf.uint8),
           "back": tf.bitcast(tf.bitcast(x, tf.uint8), x.dtype)}
    return out


def _searchsorted(tf, dtype):
    seq = tf.constant(np.sort(X32, axis=1).astype(dtype), name="seq")
    values = tf.constant(np.round(X32[:, ::-1].astype(dtype), 1), name="values")
    return {"left": tf.searchsorted(seq, values),
            "right": tf.searchsorted(seq, values, side="right", out_type=tf.int64),
            "1d": tf.searchsorted(seq[0], tf.constant([-5.0, 0.0, 5.0], seq.dtype))}


def _histogram(tf, dtype):
    values = tf.constant(np.concatenate([X32.reshape(-1), [-9.0, 9.0, 3.0, -3.0]]).astype(dtype))
    return {"h5": tf.histogram_fixed_width(values, [-3.0, 3.0], nbins=5),
            "h7": tf.histogram_fixed_width(values, tf.constant([-1.0, 2.0], values.dtype), 7,
                                           dtype=tf.int64),
            "ints": tf.histogram_fixed_width(tf.constant([0, 1, 2, 5, 9, 10, -1]), [0, 10],
                                             nbins=4)}


def _unique(tf, dtype):
    x = tf.constant(np.array([4, 1, 4, 4, 7, 1, 0, 7, 9], dtype))
    y, idx, count = tf.unique_with_counts(x)
    y64, idx64, count64 = tf.unique_with_counts(x, out_idx=tf.int64)
    return {"y": y, "idx": idx, "count": count, "idx64": idx64, "count64": count64}


def _sparse_matmul(tf, dtype):
    sp = tf.SparseTensor(indices=[[0, 1], [0, 3], [1, 0], [2, 2], [2, 3]],
                         values=tf.constant(POS32[0, :5].astype(dtype)), dense_shape=[3, 4])
    b = tf.constant(X32[:, 1:3].repeat(2, 0)[:4].astype(dtype), name="b")  # [4, 2]
    y = tf.sparse_tensor_dense_matmul(sp, b)
    bt = tf.constant(X32[:2, :3].astype(dtype))  # [2, 3]: A^T [4, 3] @ bt^T [3, 2]
    adjoint = tf.sparse_tensor_dense_matmul(sp, bt, adjoint_a=True, adjoint_b=True)
    gvals, gb = tf.gradients(tf.reduce_sum(y * y) + tf.reduce_sum(adjoint), [sp.values, b])
    gbt = tf.gradients(tf.reduce_sum(adjoint * adjoint), bt)[0]
    return {"y": y, "adjoint": adjoint, "grad:values": gvals, "grad:b": gb, "grad:bt": gbt}


CASES = {
    "lgamma": _unary_case(lambda tf, x: tf.lgamma(x), X32 * 2.0 + 0.01),
    "digamma": _unary_case(lambda tf, x: tf.digamma(x), X32 * 2.0 + 0.01),
    "bessel_i0e": _unary_case(lambda tf, x: tf.math.bessel_i0e(x), X32 * 4.0),
    "bessel_i1e": _unary_case(lambda tf, x: tf.math.bessel_i1e(x), X32 * 4.0),
    "log_sigmoid": _unary_case(lambda tf, x: tf.log_sigmoid(x), X32 * 10.0),
    "igamma": _binary_case(lambda tf, a, x: tf.igamma(a, x), POS32, POS32B),
    "igammac": _binary_case(lambda tf, a, x: tf.igammac(a, x), POS32, POS32B),
    "polygamma": _binary_case(lambda tf, n, x: tf.math.polygamma(n, x),
                              np.floor(POS32 / 2.0), POS32B + 0.5, grads=(1,)),
    "zeta": _binary_case(lambda tf, x, q: tf.math.zeta(x, q), POS32 + 1.5, POS32B + 0.2,
                         grads=(1,)),
    "xlogy": _binary_case(lambda tf, x, y: tf.math.xlogy(x, y), X32, POS32B),
    "xdivy": _binary_case(lambda tf, x, y: tf.math.xdivy(x, y), X32, POS32B + 0.5),
    "xlog1py": _binary_case(lambda tf, x, y: tf.math.xlog1py(x, y), X32, POS32B),
    "multiply_no_nan": _binary_case(lambda tf, x, y: tf.math.multiply_no_nan(x, y),
                                    X32, POS32B),
    "xlogy_broadcast": _broadcast(lambda tf, x, y: tf.math.xlogy(x, y)),
    "multiply_no_nan_broadcast": _broadcast(lambda tf, x, y: tf.math.multiply_no_nan(x, y)),
    "betainc": _betainc,
    "swish": _swish,
    "roll": _roll,
    "bitcast": _bitcast,
    "searchsorted": _searchsorted,
    "histogram_fixed_width": _histogram,
    "unique_with_counts": _unique,
    "sparse_tensor_dense_matmul": _sparse_matmul,
}
# Integer-valued ops: one dtype is enough for some
DTYPES = {"unique_with_counts": (np.int32, np.int64)}
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
    "roll_axis_out_of_range": lambda tf: tf.roll(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None), 1, 2),
    "roll_shift_axis_sizes": lambda tf: tf.roll(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None),
        tf.placeholder_with_default([1, 2], None), tf.placeholder_with_default([0], None)),
    "histogram_bad_range": lambda tf: tf.histogram_fixed_width(
        tf.constant([1.0]), tf.placeholder_with_default([2.0, 1.0], None), 3),
    "histogram_bad_nbins": lambda tf: tf.histogram_fixed_width(
        tf.constant([1.0]), [0.0, 1.0], tf.placeholder_with_default(0, None)),
    "unique_not_vector": lambda tf: tf.unique_with_counts(
        tf.placeholder_with_default(np.zeros((2, 2), np.int32), None))[0],
    "searchsorted_leading_dims": lambda tf: tf.searchsorted(
        tf.placeholder_with_default(np.zeros((2, 3), np.float32), None),
        tf.placeholder_with_default(np.zeros((3, 1), np.float32), None)),
    "bitcast_shape": lambda tf: tf.bitcast(
        tf.placeholder_with_default(np.zeros((3,), np.uint8), None), tf.int32),
    "sparse_matmul_inner": lambda tf: tf.sparse_tensor_dense_matmul(
        tf.SparseTensor([[0, 0]], [1.0], [2, 3]),
        tf.placeholder_with_default(np.ones((2, 2), np.float32), None)),
    "sparse_matmul_index": lambda tf: tf.sparse_tensor_dense_matmul(
        tf.SparseTensor(tf.placeholder_with_default(np.array([[0, 5]], np.int64), None),
                        [1.0], [2, 3]), np.ones((3, 2), np.float32)),
    "betainc_shapes": lambda tf: tf.betainc(
        tf.placeholder_with_default(np.ones(3, np.float32), None),
        tf.placeholder_with_default(np.ones(2, np.float32), None), 0.5),
}


def run_error(tf, name):
    """(error class name, the kernel's message line)."""
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
    """{name: (static shape as text, dtype name)} of each new op's outputs, built with
    partly known inputs."""
    with tf.Graph().as_default():
        out = _shape_cases(tf)
        return {key: [str(value.shape), value.dtype.name] for key, value in out.items()}


def _shape_cases(tf):
    x = tf.placeholder(tf.float32, [3, None]); y = tf.placeholder(tf.float32, [None, 4])
    out = {
     'xlogy': tf.math.xlogy(x, y), 'lgamma': tf.lgamma(x), 'betainc': tf.betainc(x, x, x),
     'betainc_s': tf.betainc(1.0, 2.0, x), 'igamma': tf.igamma(x, 2.0), 'i0e': tf.math.bessel_i0e(y),
     'roll': tf.roll(x, 1, 0), 'bitcast': tf.bitcast(x, tf.uint8), 'bitcast2': tf.bitcast(tf.zeros([2, 4], tf.uint8), tf.int32),
     'ss': tf.searchsorted(tf.zeros([3, 5]), tf.zeros([3, 2])), 'ss1': tf.searchsorted(tf.zeros([5]), tf.zeros([7])),
     'hist': tf.histogram_fixed_width(x, [0., 1.], 7), 'uwc0': tf.unique_with_counts(tf.zeros([5]))[0],
     'uwc1': tf.unique_with_counts(tf.zeros([5]))[1], 'uwc2': tf.unique_with_counts(tf.zeros([5]))[2],
     'spmm': tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 0]], [1.0], [2, 3]), tf.zeros([3, 5])),
     'spmm_adj': tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 0]], [1.0], [2, 3]), tf.zeros([5, 2]), adjoint_a=True, adjoint_b=True),
     'cat': tf.random.categorical(tf.zeros([4, 3]), 6), 'gamma': tf.random_gamma([2, 3], [[1.0], [2.0]]),
     'pois': tf.random.poisson([1.0, 2.0], [5]), 'swish': tf.nn.swish(x), 'ls': tf.log_sigmoid(x),
     'split_i': tf.string_split(['a b']).indices, 'split_s': tf.string_split(['a b']).dense_shape,
     'substr': tf.substr(tf.constant([['ab']]), [0], [1]), 'as_string': tf.as_string(x), 'tonum': tf.string_to_number(tf.constant([['1']])),
     'set_i': tf.sets.intersection(tf.zeros([2, 3, 4], tf.int32), tf.zeros([2, 3, 5], tf.int32)).indices,
     'set_s': tf.sets.intersection(tf.zeros([2, 3, 4], tf.int32), tf.zeros([2, 3, 5], tf.int32)).dense_shape,
     'setsize': tf.sets.size(tf.SparseTensor([[0, 0, 0]], [1], [2, 3, 4])),
     'polygamma': tf.math.polygamma(tf.zeros([3, 1]), tf.zeros([4])), 'mnn': tf.math.multiply_no_nan(x, 2.0),
    }
    return out


def gradient_graph_nodes(tf):
    """[name, op, inputs] of each node of a graph of the new APIs and tf.gradients through them
    (the nodes TensorFlow's Python builds, named as it names them)."""
    with tf.Graph().as_default() as graph:
        x = tf.constant([[1.0, 2.0], [0.5, 3.0]])
        y = tf.constant([0.5, 3.0])
        u = tf.constant([[0.2, 0.7], [0.4, 0.9]])
        outs = [tf.math.xlogy(x, y), tf.math.xdivy(x, y), tf.math.xlog1py(x, y),
                tf.math.multiply_no_nan(x, y), tf.lgamma(x), tf.digamma(x), tf.igamma(x, y),
                tf.igammac(x, y), tf.betainc(x, x, u), tf.math.bessel_i0e(x),
                tf.math.bessel_i1e(x), tf.math.polygamma(tf.ones_like(x), x),
                tf.math.zeta(x + 1, y), tf.log_sigmoid(x), tf.nn.swish(x), tf.roll(x, 1, 0),
                tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 0], [1, 1]], y, [2, 2]), x)]
        loss = tf.add_n([tf.reduce_sum(o) for o in outs])
        tf.gradients(loss, [x, y, u])
        tf.random_gamma([3], y, seed=1)
        tf.random.categorical(x, 4, seed=2)
        tf.random.poisson(y, [2], seed=3)
        tf.searchsorted(x, u)
        tf.histogram_fixed_width(u, [0.0, 1.0], nbins=3)
        tf.unique_with_counts(y)
        tf.bitcast(x, tf.int32)
        words = tf.string_split(["a b", "c"])
        tf.strings.split(["a b"], sep=" ")
        tf.substr(words.values, 0, 1)
        tf.as_string(x, precision=2)
        tf.string_to_number(["1.5"])
        tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[2, 3]]))
        tf.metrics.auc(tf.constant([True, False]), tf.constant([0.7, 0.2]), num_thresholds=4)
        return [[node.name, node.op, list(node.input)]
                for node in graph.as_graph_def().node]
