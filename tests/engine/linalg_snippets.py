"""TF1 linear algebra as TensorFlow 2.21 builds and computes it: eigen-decomposition, SVD, QR,
solvers, least squares, determinants, cross products, einsum of several operands, matrix
norms, tf.layers.dense on a tensor of unknown dimensions, and the version strings.

Run like breadth_snippets.py: on TensorFlow by `tools/make_api_fixtures.py linalg_snippets`,
on the engine by tests/engine/test_linalg_snippets.py; the printed output and the GraphDef
must match. Values print to 4 decimals; eigenvectors, singular vectors and Q print as
TensorFlow's Eigen computes them, signs included.
"""

try:
    from tests.engine.breadth_snippets import SHOW_VALUES
except ModuleNotFoundError:  # run by tools/make_api_fixtures.py, tests/engine on the path
    from breadth_snippets import SHOW_VALUES

OUTPUT_ONLY = {}

# Decompositions print to 3 decimals: Eigen's float32 rounding and LAPACK's differ in the
# seventh digit, which a fourth decimal can show. Singular vectors print each pair with its
# largest right-vector entry positive: the engine's SVD is LAPACK's, whose signs may differ
# from the ones Eigen's JacobiSVD arrives at (the values are the same).
SHOW_DECOMPOSITIONS = SHOW_VALUES.replace("np.round(value, 4)", "np.round(value, 3)") + """
def signed(u, v):
    k = min(u.shape[-1], v.shape[-1])
    u, v = u[..., :k], v[..., :k]
    pick = np.argmax(np.abs(v), axis=-2)[..., None, :]
    sign = np.sign(np.take_along_axis(v, pick, axis=-2))
    return u * sign, v * sign
"""

SNIPPETS = {
    "self_adjoint_eig": SHOW_VALUES + """
a = tf.constant([[4.0, 1.0, -2.0], [1.0, 2.0, 0.5], [-2.0, 0.5, 3.0]], name="a")
rng = np.random.RandomState(1)
m = rng.uniform(-1, 1, (2, 5, 5))
b = tf.constant(m + np.swapaxes(m, -1, -2), name="b")
p = tf.placeholder(tf.float32, [None, None], name="p")
e, v = tf.self_adjoint_eig(a)
eb, vb = tf.linalg.eigh(b, name="eigh_b")
results = [e, v, eb, vb, tf.self_adjoint_eigvals(a), tf.linalg.eigvalsh(b, name="vals"),
           tf.self_adjoint_eig(p)[1]]
grads = tf.gradients(tf.reduce_sum(e * [1.0, 2.0, 3.0]) + tf.reduce_sum(v[:, 0] * [0.3, 0.2, 0.1]), a)
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads, {p: [[2.0, 1.0], [1.0, 2.0]]})
    error(sess, tf.self_adjoint_eig(p), {p: np.ones((2, 3))})
""",
    "svd": SHOW_DECOMPOSITIONS + """
rng = np.random.RandomState(2)
tall = tf.constant(rng.uniform(-1, 1, (5, 3)).astype(np.float32), name="tall")
wide = tf.constant(rng.uniform(-1, 1, (2, 4)), name="wide")
batch = tf.constant(rng.uniform(-1, 1, (2, 4, 4)).astype(np.float32), name="batch")
s, u, v = tf.svd(tall)
results = [s, u, v, *tf.svd(wide, full_matrices=True), tf.svd(batch, compute_uv=False),
           *tf.linalg.svd(batch, name="svd_b"), tf.svd(tall, full_matrices=True)[1]]
grads = tf.gradients(tf.reduce_sum(s * [1.0, 0.5, 0.25]), tall) + tf.gradients(
    tf.reduce_sum(tf.svd(batch, compute_uv=False)), batch)
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    s, u, v, s1, u1, v1, s2, s3, u3, v3, u4 = sess.run(results)
    print(np.round(s, 3).tolist(), np.round(s1, 3).tolist(), np.round(s2, 3).tolist())
    for left, right in [(u, v), (u1, v1), (u3, v3), (u4[:, :3], v)]:
        left, right = signed(left, right)
        print(np.round(left, 3).tolist(), np.round(right, 3).tolist())
    values(sess, grads)
""",
    "qr": SHOW_DECOMPOSITIONS + """
rng = np.random.RandomState(3)
tall = tf.constant(rng.uniform(-1, 1, (4, 3)).astype(np.float32), name="tall")
wide = tf.constant(rng.uniform(-1, 1, (2, 3)), name="wide")
batch = tf.constant(rng.uniform(-1, 1, (2, 3, 3)).astype(np.float32), name="batch")
q, r = tf.qr(tall)
results = [q, r, *tf.qr(tall, full_matrices=True), *tf.qr(wide), *tf.linalg.qr(batch, name="qr_b")]
grads = tf.gradients(tf.reduce_sum(q * 0.5) + tf.reduce_sum(r), tall)
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads)
""",
    "solvers": SHOW_VALUES + """
a = tf.constant([[3.0, 1.0, 0.5], [1.0, 4.0, -1.0], [0.0, 2.0, 5.0]], name="a")
b = tf.constant([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]], name="b")
a64 = tf.constant(np.array([[[2.0, 1.0], [1.0, 3.0]], [[1.0, -2.0], [0.5, 4.0]]]), name="a64")
b64 = tf.constant(np.array([[[1.0], [2.0]], [[0.5], [1.0]]]), name="b64")
p = tf.placeholder(tf.float32, [None, None], name="p")
q = tf.placeholder(tf.float32, [None, None], name="q")
x = tf.matrix_solve(a, b)
lower = tf.matrix_band_part(a, -1, 0)
results = [x, tf.matrix_solve(a, b, adjoint=True), tf.linalg.solve(a64, b64, name="solve64"),
           tf.matrix_triangular_solve(lower, b), tf.matrix_triangular_solve(a, b, lower=False),
           tf.matrix_triangular_solve(lower, b, adjoint=True, name="tri_adj"),
           tf.linalg.triangular_solve(a64, b64), tf.cholesky_solve(tf.cholesky(a64), b64),
           tf.linalg.cholesky_solve(tf.cholesky(a64), b64, name="chol_solve"),
           tf.matrix_inverse(a64), tf.matrix_determinant(a64), *tf.linalg.slogdet(a64),
           tf.linalg.slogdet(a)[1], tf.linalg.logdet(a64), tf.eye(3), tf.eye(2, 3, [2])]
grads = tf.gradients(tf.reduce_sum(x) + tf.reduce_sum(results[3]) + results[13]
                     + tf.reduce_sum(results[5]), [a, b])
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads)
    error(sess, tf.matrix_solve(p, q), {p: [[1.0, 2.0], [2.0, 4.0]], q: [[1.0], [1.0]]})
    error(sess, tf.matrix_solve(p, q), {p: np.ones((2, 3)), q: [[1.0], [1.0]]})
    error(sess, tf.matrix_solve(p, q), {p: np.eye(2), q: np.ones((3, 1))})
    error(sess, tf.matrix_inverse(p), {p: np.ones((2, 3))})
    error(sess, tf.matrix_triangular_solve(p, q), {p: np.ones((2, 3)), q: [[1.0], [1.0]]})
    error(sess, tf.linalg.slogdet(p), {p: np.ones((2, 3))})
    values(sess, [*tf.linalg.slogdet(p), tf.matrix_determinant(p)], {p: [[1.0, 2.0], [2.0, 4.0]]})
    values(sess, [tf.matrix_triangular_solve(p, q)], {p: [[0.0, 0.0], [1.0, 1.0]], q: [[1.0], [1.0]]})
    # not positive definite: NaN on and below the diagonal (above it, TensorFlow leaves
    # whatever its buffer held)
    values(sess, [tf.matrix_band_part(tf.cholesky(p), -1, 0)], {p: [[1.0, 2.0], [2.0, 1.0]]})
""",
    "least_squares": SHOW_VALUES + """
rng = np.random.RandomState(4)
a = tf.constant(rng.uniform(-1, 1, (6, 3)).astype(np.float32), name="a")
b = tf.constant(rng.uniform(-1, 1, (6, 2)).astype(np.float32), name="b")
w = tf.constant(rng.uniform(-1, 1, (2, 4)), name="w")
c = tf.constant(rng.uniform(-1, 1, (2, 1)), name="c")
p = tf.placeholder(tf.float32, [None, 3], name="p")
x = tf.matrix_solve_ls(a, b)
results = [x, tf.matrix_solve_ls(a, b, l2_regularizer=0.5), tf.linalg.lstsq(w, c),
           tf.matrix_solve_ls(a, b, fast=False), tf.matrix_solve_ls(p, b)]
grads = tf.gradients(tf.reduce_sum(x) + tf.reduce_sum(results[1]), [a, b])
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads, {p: rng.uniform(-1, 1, (6, 3))})
""",
    "cross_and_norms": SHOW_VALUES + """
u = tf.constant([[1.0, 0.0, 0.0], [0.5, -1.0, 2.0]], name="u")
v = tf.constant([[0.0, 1.0, 0.0], [3.0, 0.5, -1.0]], name="v")
m = tf.constant([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]], name="m")
p = tf.placeholder(tf.float32, [None, 3], name="p")
c = tf.cross(u, v)
results = [c, tf.linalg.cross(u[0], v[0], name="cr"), tf.cross(p, v),
           tf.norm(m, ord=2, axis=[-2, -1]), tf.norm(tf.stack([m, 2 * m]), ord=2, axis=(1, 2)),
           tf.norm(m, ord="fro", axis=[0, 1]), tf.linalg.norm(m, axis=1)]
grads = tf.gradients(tf.reduce_sum(c * [[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]), [u, v])
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads, {p: [[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]]})
    error(sess, tf.cross(p, v), {p: [[1.0, 2.0, 3.0]]})
try:
    tf.cross(tf.ones([2, 2]), tf.ones([2, 2]))
except ValueError as e:
    print("ValueError", str(e).split(" for ")[0])
""",
    "einsum_operands": SHOW_VALUES + """
rng = np.random.RandomState(5)
a = tf.constant(rng.uniform(-1, 1, (2, 3)).astype(np.float32), name="a")
b = tf.constant(rng.uniform(-1, 1, (3, 4)).astype(np.float32), name="b")
c = tf.constant(rng.uniform(-1, 1, (4, 5)).astype(np.float32), name="c")
d = tf.constant(rng.uniform(-1, 1, (5, 2)).astype(np.float32), name="d")
t = tf.constant(rng.uniform(-1, 1, (2, 3, 3)).astype(np.float32), name="t")
results = [tf.einsum("ij,jk,kl->il", a, b, c), tf.einsum("ij,jk,kl,lm->im", a, b, c, d),
           tf.einsum("ij,jk,kl,li", a, b, c, d, name="ring"),
           tf.einsum("bii->b", t), tf.einsum("...ij,jk->...ik", t, b),
           tf.einsum("i,j,k->ijk", a[0], b[0], c[0]), tf.einsum("ij,ij->", a, a)]
grads = tf.gradients(tf.reduce_sum(results[0]), [a, b, c])
print([t.name for t in results + grads])
print([str(t.shape) for t in results + grads])
with tf.Session() as sess:
    values(sess, results + grads)
for equation, operands in [("ij,jk->ik", [a]), ("ij->ii", [a]), ("ij,jk->ix", [a, b]),
                           ("i.j", [a]), ("ij,jk,kl->il", [a, b])]:
    try:
        tf.einsum(equation, *operands)
    except ValueError as e:
        print("ValueError", e)
""",
    "dense_unknown_dims": SHOW_VALUES + """
x = tf.placeholder(tf.float32, [None, None, 8], name="x")
y = tf.layers.dense(x, 3, activation=tf.nn.relu,
                    kernel_initializer=tf.constant_initializer(0.1))
z = tf.layers.dense(tf.ones([2, 3, 8]), 2, kernel_initializer=tf.ones_initializer(), name="fixed")
print(y.name, y.shape, z.name, z.shape)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    values(sess, [y, z], {x: np.arange(48, dtype=np.float32).reshape(2, 3, 8) / 10.0})
""",
    "versions": """
print(tf.__version__, tf.VERSION, tf.GIT_VERSION, tf.COMPILER_VERSION)
print(tf.GRAPH_DEF_VERSION, tf.GRAPH_DEF_VERSION_MIN_CONSUMER, tf.GRAPH_DEF_VERSION_MIN_PRODUCER)
print(tf.version.VERSION, tf.compat.v1.__version__)
""",
}
