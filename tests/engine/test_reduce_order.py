"""float32 Sum and Mean over innermost axes, Softmax and LogSoftmax against TensorFlow 2.21's
bits (tests/fixtures/ops/reduce_order.npz, tools/make_reduce_order_fixtures.py): the
compiled kernels (engine/kernels/compiled/eigen_reduce_numba.py) and the NumPy reference
(engine/kernels/cpu/eigen_reduce.py), each at one and two intra-op threads."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled, lookup
from engine.kernels.cpu import compiled_forms, eigen_reduce
from engine.runtime import threads

from tests.engine import reduce_order_cases as cases

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "reduce_order.npz")
DIGESTS = {key: digest.tobytes().hex()
           for key, digest in zip(FIXTURE["keys"].tolist(), FIXTURE["digests"])}


class _Ctx:
    node_def = None

    def __init__(self, **attrs):
        self.attrs = attrs


@pytest.fixture(params=["compiled", "reference"])
def path(request, monkeypatch):
    if request.param == "compiled":
        if compiled.module("eigen_reduce", wait=True) is None:
            pytest.skip(f"compiled kernels unavailable: {compiled.why_not('eigen_reduce')}")
    else:
        monkeypatch.setattr(compiled_forms, "module", lambda *args: None)
    return request.param


@pytest.fixture(params=[1, 2])
def budget(request, monkeypatch):
    monkeypatch.setattr(threads, "budget", lambda: request.param)
    return request.param


def _same(key, got):
    assert cases.digest(got) == DIGESTS[key], key
    bits = f"bits__{key}"
    if bits in FIXTURE.files:  # (the values themselves, where stored: a failure shows them)
        np.testing.assert_array_equal(cases.canonical_bits(got).reshape(-1), FIXTURE[bits])


@pytest.mark.parametrize("op", ["Sum", "Mean"])
def test_sums_and_means_are_tensorflows(path, budget, op):
    kernel = lookup(op)
    for name, (shape, axes) in cases.sum_cases().items():
        x = cases.sum_input(name, shape)
        for keep_dims in (False, True):
            got = kernel(_Ctx(keep_dims=keep_dims), x, np.array(axes, np.int32))
            expected_shape = tuple(1 if a in axes else d for a, d in enumerate(shape)
                                   if keep_dims or a not in axes)
            assert got.shape == expected_shape and got.dtype == np.float32
            _same(f"{op.lower()}__{name}", got)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_and_log_softmax_are_tensorflows(path, budget, op):
    kernel = lookup(op)
    key_op = "softmax" if op == "Softmax" else "log_softmax"
    for name, shape in cases.softmax_cases().items():
        logits = cases.softmax_input(name, shape)
        got = kernel(_Ctx(), logits)
        assert got.shape == shape and got.base is None
        _same(f"{key_op}__{name}", got)
        if op == "Softmax":  # written over a forwarded buffer: the same values
            over = logits.copy()
            got = kernel.forwarding(_Ctx(), (0,), over)
            assert got is over
            _same(f"{key_op}__{name}", got)


def test_reference_path_matches_compiled_on_random_rows():
    """Beyond the fixtures: the two paths agree on other shapes and values."""
    module = compiled.module("eigen_reduce", wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not('eigen_reduce')}")
    rng = np.random.RandomState(5)
    for rows, n in ((5, 40), (64, 768), (9, 4100), (300, 31), (2, 6956), (1, 5)):
        x = (rng.standard_normal((rows, n)) * 2.0 ** rng.uniform(-20, 20, (rows, n))) \
            .astype(np.float32)
        for op in ("sum", "mean"):
            np.testing.assert_array_equal(module.reduce_rows(op, x).view(np.uint32), (
                eigen_reduce.row_sums if op == "sum" else eigen_reduce.row_means)(x)
                .view(np.uint32))
        x = (x / np.float32(2 ** 15)).astype(np.float32)
        for op, ref in (("softmax", eigen_reduce.softmax),
                        ("log_softmax", eigen_reduce.log_softmax)):
            np.testing.assert_array_equal(
                cases.canonical_bits(module.softmax(op, x, np.empty_like(x))),
                cases.canonical_bits(ref(x)))


def _rows_of_every_kind(rows, n, rng):
    """Rows for the softmax kernels' paths: plain, a NaN, all -inf, a +inf, signed zeros,
    denormals (the flushing path), tiny normals (a maximum below 2**-100), a spread whose
    exps are denormal or zero, an attention mask's -10000, values just below exp's clamp."""
    x = (rng.standard_normal((rows, n)) * 4).astype(np.float32)
    x[1, n // 2] = np.nan
    x[2] = -np.inf
    x[3, n - 1] = np.inf
    x[4] = 0.0
    x[4, 1::2] = -0.0
    x[5] = rng.standard_normal(n) * 1e-39
    x[6] = rng.standard_normal(n) * 2.0 ** -110
    x[7] = rng.uniform(-200, 0, n)
    x[8, n // 3:] += np.float32(-10000.0)
    x[9] = 88.0 + rng.uniform(0, 1, n)
    x[10] = rng.uniform(-104.5, -86, n)
    return x


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_kernels_take_every_row_length_as_the_reference(op):
    """The compiled kernels against the reference, bit for bit, on rows of each kind
    (_rows_of_every_kind) of lengths around the sum's packets and lanes, the grouping of
    rows by four (fewer past a quarter of the stack scratch) and exp's blocks: whole, by
    pieces starting at any row (the threads' split), and written over x."""
    module = compiled.module("eigen_reduce", wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not('eigen_reduce')}")
    kernel = getattr(module._kernels, f"{op}_rows")
    reference = getattr(eigen_reduce, op)
    rng = np.random.RandomState(11)
    lengths = [1, 7, 8, 31, 32, 33, 127, 128, 129, 1000, 1739, 1740, 2319, 2320, 3478, 3479,
               6956, 6957, 8192]
    for n in lengths:
        if not module.fits(op, (1, n)):
            continue
        for rows in (13, 61):
            x = _rows_of_every_kind(rows, n, rng)
            with np.errstate(all="ignore"):
                expected = cases.canonical_bits(reference(x))
            out = np.full_like(x, 7.0)
            kernel(x, out, 0, rows, rows)
            np.testing.assert_array_equal(cases.canonical_bits(out), expected, f"n={n}")
            out = np.full_like(x, 7.0)
            for start, end in ((0, 3), (3, 10), (10, 11), (11, rows)):
                kernel(x, out, start, end, rows)
            np.testing.assert_array_equal(cases.canonical_bits(out), expected, f"n={n}")
            over = x.copy()
            kernel(over, over, 0, rows, rows)
            np.testing.assert_array_equal(cases.canonical_bits(over), expected, f"n={n}")


def test_a_session_gives_the_kernels_bits():
    x = cases.sum_input("bert", (1024, 768))
    with tf.Graph().as_default():
        feed = tf.placeholder(tf.float32, [1024, 768])
        mean = tf.reduce_mean(feed, -1, keepdims=True)
        softmax = tf.nn.softmax(feed / 16.0)
        with tf.Session() as session:
            got_mean, got_softmax = session.run([mean, softmax], {feed: x})
    assert got_mean.shape == (1024, 1)
    _same("mean__bert", got_mean)
    expected = eigen_reduce.softmax(x / np.float32(16.0))
    np.testing.assert_array_equal(got_softmax.view(np.uint32), expected.view(np.uint32))


def test_a_layer_norm_with_the_engines_own_moments_is_tensorflows():
    """BERT's LayerNorm, (x - mean) * rsqrt(var + 1e-12) over [1024, 768] with
    tf.nn.moments: the moments and the output are TensorFlow's bits
    (tests/fixtures/ops/eigen_reciprocal.npz; 411 of the means differed with NumPy's sums)."""
    from tests.engine import eigen_math_cases
    reciprocal = np.load(Path(__file__).parent.parent / "fixtures" / "ops"
                         / "eigen_reciprocal.npz")
    x = eigen_math_cases.layer_norm_input()
    with tf.Graph().as_default(), tf.Session() as session:
        feed = tf.placeholder(tf.float32, x.shape)
        mean, variance, y = session.run(eigen_math_cases.layer_norm(tf, feed), {feed: x})
    np.testing.assert_array_equal(mean.view(np.uint32),
                                  reciprocal["layer_norm__mean"].view(np.uint32))
    np.testing.assert_array_equal(variance.view(np.uint32),
                                  reciprocal["layer_norm__variance"].view(np.uint32))
    assert eigen_math_cases.digest(y) == str(reciprocal["layer_norm__digest"])


def test_rows_split_over_two_threads_give_one_threads_bits(monkeypatch):
    """Tensors large enough that the compiled kernels hand rows to a second thread: the
    values of one thread, and the reference's."""
    module = compiled.module("eigen_reduce", wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not('eigen_reduce')}")
    rng = np.random.RandomState(9)
    x = (rng.standard_normal((2051, 1024)) * 2.0 ** rng.uniform(-8, 8, (2051, 1024))) \
        .astype(np.float32)
    logits = (rng.standard_normal((4099, 129)) * 4).astype(np.float32)
    results = {}
    for budget in (1, 2):
        monkeypatch.setattr(threads, "budget", lambda: budget)
        results[budget] = ([module.reduce_rows(op, x) for op in ("sum", "mean")]
                           + [module.softmax(op, logits, np.empty_like(logits))
                              for op in ("softmax", "log_softmax")])
    expected = [eigen_reduce.row_sums(x), eigen_reduce.row_means(x),
                eigen_reduce.softmax(logits), eigen_reduce.log_softmax(logits)]
    for one, two, reference in zip(results[1], results[2], expected):
        np.testing.assert_array_equal(two.view(np.uint32), one.view(np.uint32))
        np.testing.assert_array_equal(one.view(np.uint32), reference.view(np.uint32))


def test_the_softmax_exp_lane_is_packet_exps_on_its_domain():
    """The compiled Softmax's exp (packet_exp_nonpositive: 2**m a normal float32 or 0)
    gives eigen_float32.packet_exp's bits on x <= 0 (a softmax's shifted values) and NaN:
    here a sample of every 2**11-th bit pattern of the negative float32 and every value from
    -87 to -89 (where the lane's exp falls below 2**-126 and it raises x to -88), checked
    whole (2**31 values, +0 to 2**-130 and the positive NaNs) when it was written."""
    numba = pytest.importorskip("numba")
    module = compiled.module("eigen_reduce", wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not('eigen_reduce')}")
    from engine.kernels.cpu import eigen_float32
    lane = module._kernels.packet_exp_nonpositive

    @numba.njit
    def apply(x, out):
        for j in range(x.shape[0]):
            out[j] = lane(x[j])

    near_flush = np.float32([-87.0, -89.0]).view(np.uint32).astype(np.uint64)  # every value
    bits = np.concatenate([np.arange(0x80000000, 0x100000000, 1 << 11, dtype=np.uint64),
                           np.arange(0x80000000, 0x80000000 + (1 << 16), dtype=np.uint64),
                           np.arange(near_flush[0], near_flush[1], dtype=np.uint64),
                           np.arange(0, 1 << 16, dtype=np.uint64)]).astype(np.uint32)
    x = np.concatenate([bits.view(np.float32),
                        np.float32([0.0, -np.inf, np.nan, -88.0, -104.0, -87.3])])
    got = np.empty_like(x)
    apply(x, got)
    with np.errstate(all="ignore"):
        expected = eigen_float32.packet_exp(x)
    np.testing.assert_array_equal(cases.canonical_bits(got), cases.canonical_bits(expected))
