"""Kernels writing their output over an input buffer no one else holds (TensorFlow's
forward_input: engine/runtime/executor.py `_bind_forwarding_step`, frames.py `_compute`):
the values are the kernel's own bit for bit, and a buffer is never taken from a value someone
else still reads (a fetch, a second reader, a variable, a feed, a constant, a loop)."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import lookup
from engine.runtime import chain_steps, node_run

RNG = np.random.default_rng(7)
FULL_TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)


class _Ctx:
    node_def = None
    attrs = {}


def _same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))


@pytest.fixture(scope="module")
def eigen_loops():
    """The compiled loops of Erf and Erfc, loaded (their in-place forms write over an input)."""
    from engine.kernels import compiled
    loops = compiled.module("eigen", wait=True)
    if loops is None:
        pytest.skip(f"compiled loops unavailable: {compiled.why_not('eigen')}")
    return loops


def _forwarded(op, donated, *inputs):
    """The forwarding form's result on copies of `inputs`, and whether it wrote over the
    donated input."""
    copies = [x.copy(order="K") if isinstance(x, np.ndarray) else x for x in inputs]
    kernel = lookup(op)
    got = kernel.forwarding(_Ctx(), donated, *copies)
    return got, any(np.shares_memory(got, copies[k]) for k in donated)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["Add", "AddV2", "Sub", "Mul", "RealDiv", "SquaredDifference"])
def test_binary_ops_written_over_an_input_give_their_bits(op, dtype):
    x = RNG.standard_normal((1024, 768)).astype(dtype)
    bias = RNG.standard_normal(768).astype(dtype)
    same = RNG.standard_normal((1024, 768)).astype(dtype)
    scalar = dtype(0.7071067811865476)
    kernel = lookup(op)
    for y in (bias, same, scalar, np.asarray(scalar)):
        expected = kernel(_Ctx(), x, y)
        got, wrote = _forwarded(op, (0,), x, y)
        _same(got, expected)
        assert wrote
        if isinstance(y, np.ndarray) and y.shape == x.shape:
            got, wrote = _forwarded(op, (1,), x, y)
            _same(got, expected)
            assert wrote
        # the broadcast operand (or the scalar) cannot hold the result: a fresh one
        reverse = kernel(_Ctx(), y, x)
        got, wrote = _forwarded(op, (0, 1) if isinstance(y, np.ndarray) else (1,), y, x)
        _same(got, reverse)
        assert wrote


@pytest.mark.parametrize("op", ["Neg", "Erf", "Erfc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_ops_written_over_their_input_give_their_bits(op, dtype, eigen_loops):
    for shape in ((1024, 3072), (1001, 67)):  # the second has a tail of n % 8 elements
        x = (RNG.standard_normal(shape) * 3).astype(dtype)
        x.flat[:4] = [0.0, -0.0, np.inf, np.nan]
        expected = lookup(op)(_Ctx(), x)
        got, wrote = _forwarded(op, (0,), x)
        _same(got, expected)
        assert wrote


def test_erf_in_place_loops_give_the_reference_bits(eigen_loops):
    from engine.kernels.cpu import eigen_erf
    for dtype in (np.float32, np.float64):
        x = (RNG.standard_normal(3 * (1 << 18) + 5) * 3).astype(dtype)
        for fn in (eigen_erf.erf, eigen_erf.erfc):
            over = x.copy()
            got = fn(over, out=over)
            assert np.shares_memory(got, over)
            _same(got, fn(x))  # the two-array loops (test_eigen_erf: the reference's bits)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_written_over_its_logits_gives_its_bits(dtype):
    for shape in ((8, 12, 128, 128), (7, 33), (5,)):
        logits = (RNG.standard_normal(shape) * 4).astype(dtype)
        logits[..., -3:] += dtype(-10000.0)
        expected = lookup("Softmax")(_Ctx(), logits)
        got, wrote = _forwarded("Softmax", (0,), logits)
        _same(got, expected)
        assert wrote


def test_what_cannot_hold_the_result_is_not_written():
    x = RNG.standard_normal((512, 256)).astype(np.float32)
    f64 = x.astype(np.float64)
    for op, inputs in (("Mul", (x, f64[:1])),            # dtypes differ: NumPy's promotion
                       ("AddV2", (np.asfortranarray(x), x)),  # not C-contiguous
                       ("Mul", (x[:1], x))):             # the donated operand broadcasts
        got, wrote = _forwarded(op, (0,), *inputs)
        _same(got, lookup(op)(_Ctx(), *inputs))
        assert not wrote
    ints = np.arange(1 << 16, dtype=np.int32)
    got, wrote = _forwarded("Mul", (0,), ints, np.int32(3))
    _same(got, ints * np.int32(3))
    assert not wrote


def test_only_an_array_no_one_else_holds_is_offered():
    big = np.ones(1 << 15)
    views_base = np.ones(1 << 15)
    inputs = [big, views_base, views_base[1:], np.ones(1 << 15), np.ones(4), np.ones(1 << 15)]
    inputs[5].flags.writeable = False
    held = inputs[3]  # noqa: F841 (a second reference, as a variable or a fetch holds one)
    del big, views_base
    assert node_run.exclusive_inputs(inputs, range(len(inputs))) == (0,)
    del held
    assert node_run.exclusive_inputs(inputs, range(len(inputs))) == (0, 3)


@pytest.fixture
def no_rewrite(monkeypatch):
    """Grappler off: constants stay constants (not folded) and chains stay unfused ops; and
    the fast path runs each op on its own step (engine/runtime/chain_steps.py off: a chain
    whose loop is compiled would run as one, its nodes' forwarding unasked)."""
    monkeypatch.setenv("GRAPH_INSPECTOR_REWRITE", "off")
    monkeypatch.setattr(chain_steps, "ENABLED", False)


@pytest.fixture
def offered_to_mul(monkeypatch):
    """The inputs each Mul node was offered to write over, a tuple of indices a call."""
    offered = []
    kernel = lookup("Mul")
    forwarding = kernel.forwarding

    def spy(ctx, donated, *inputs):
        offered.append(donated)
        return forwarding(ctx, donated, *inputs)

    monkeypatch.setattr(kernel, "forwarding", spy)
    return offered


def _runs(sess, fetches, feeds=None):
    """The fetches of an untraced run, then of a traced one (frames.py's loop)."""
    plain = sess.run(fetches, feeds)
    traced = sess.run(fetches, feeds, options=FULL_TRACE, run_metadata=tf.RunMetadata())
    return plain, traced


def test_a_fetched_value_and_a_second_reader_keep_their_values(no_rewrite):
    x = RNG.standard_normal((256, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        doubled = tf.constant(x) * 2.0       # fetched, and read by two more ops
        shifted = doubled + 1.0
        scaled = doubled * 3.0
        negated = -shifted                   # shifted's last reader: written over
        for got in _runs(sess, [doubled, negated, scaled]):
            _same(got[0], x * np.float32(2))
            _same(got[1], -(x * np.float32(2) + np.float32(1)))
            _same(got[2], x * np.float32(2) * np.float32(3))


def test_variables_feeds_and_constants_are_never_written_over(no_rewrite):
    x = RNG.standard_normal((256, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        ref_variable = tf.Variable(x)
        resource_variable = tf.Variable(x, use_resource=True)
        fed = tf.placeholder(tf.float32, x.shape)
        constant = tf.constant(x)
        outputs = [-tf.identity(ref_variable), tf.negative(resource_variable.read_value()),
                   tf.nn.softmax(tf.identity(fed)), tf.erfc(constant),
                   tf.identity(constant) * 2.0]
        sess.run(tf.global_variables_initializer())
        feed = x.copy()
        for _ in range(2):
            for got in _runs(sess, outputs, {fed: feed}):
                _same(got[0], -x)
                _same(got[1], -x)
                np.testing.assert_array_equal(feed, x)
                _same(got[4], x * np.float32(2))
        _same(sess.run(ref_variable), x)
        _same(sess.run(resource_variable), x)
        _same(sess.run(constant), x)


def test_a_loop_invariant_and_loop_values_keep_their_values(no_rewrite):
    x = RNG.standard_normal((128, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        invariant = tf.constant(x) * 1.0

        def body(i, total):
            return i + 1, total + -(invariant * 2.0)

        _, total = tf.while_loop(lambda i, total: i < 3, body,
                                 [tf.constant(0), tf.zeros_like(invariant)])
        after = invariant + 0.5  # the invariant read again after the loop
        expected_total = np.zeros_like(x)
        for _ in range(3):
            expected_total = expected_total + -(x * np.float32(2))
        for got in _runs(sess, [total, after]):
            _same(got[0], expected_total)
            _same(got[1], x + np.float32(0.5))


def test_a_step_offers_the_inputs_it_reads_last(offered_to_mul, no_rewrite):
    offered = offered_to_mul
    x = RNG.standard_normal((256, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        small = tf.constant(x[:2, :2]) * 2.0
        product = (tf.constant(x) + 1.0) * 3.0
        kept = tf.constant(x) + 1.0
        both = kept * 3.0
        plain = sess.run([small * 5.0, product, both, kept])
        assert offered == [(0,)]  # small: not offered; kept: fetched, never freed
        offered.clear()
        traced = sess.run([small * 5.0, product, both, kept], options=FULL_TRACE,
                          run_metadata=tf.RunMetadata())
        assert sorted(offered) == [(), (), (), (0,)]
    for got in (plain, traced):
        _same(got[1], (x + np.float32(1)) * np.float32(3))
        _same(got[2], got[1])
        _same(got[3], x + np.float32(1))


def test_outputs_of_one_node_keep_their_values(no_rewrite):
    x = RNG.standard_normal((256, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        fed = tf.placeholder(tf.float32, x.shape)
        doubled = fed * 2.0
        top, bottom = tf.split(doubled, 2, axis=0)   # views of one buffer
        first, second = tf.identity_n([fed + 1.0, fed + 1.0])
        same_first, same_second = tf.identity_n([doubled + 3.0] * 2)  # one array, two outputs
        fetches = [-top, bottom * 3.0, -first, second * 3.0, -same_first, same_second * 3.0]
        for got in _runs(sess, fetches, {fed: x}):
            two, one, three = np.float32(2), np.float32(1), np.float32(3)
            _same(got[0], -(x * two)[:128])
            _same(got[1], (x * two)[128:] * three)
            _same(got[2], -(x + one))
            _same(got[3], (x + one) * three)
            _same(got[4], -(x * two + three))
            _same(got[5], (x * two + three) * three)


def test_a_node_reading_two_inputs_last_is_offered_both(offered_to_mul, no_rewrite):
    offered = offered_to_mul
    x = RNG.standard_normal((256, 512)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        fed = tf.placeholder(tf.float32, x.shape)
        product = (fed + 1.0) * (fed - 1.0)
        got = sess.run(product, {fed: x})
    assert offered == [(0, 1)]
    _same(got, (x + np.float32(1)) * (x - np.float32(1)))
