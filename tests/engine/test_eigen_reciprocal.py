"""Rsqrt, Reciprocal and Inv beyond float32's functions (test_eigen_float32.py holds those):
x86's rcpps and rsqrtps as engine/kernels/cpu/x86_reciprocal.py models them, float16 Rsqrt,
Reciprocal, Sin and Cos, the SqrtGrad, RsqrtGrad, ReciprocalGrad and InvGrad kernels, and the
kernels' forms writing over their input, against TensorFlow 2.21's bits
(tests/fixtures/ops/eigen_reciprocal.npz, written by tools/make_eigen_math_fixtures.py)."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import eigen_float32, x86_reciprocal
from engine.ops.op_def_library import apply_op
from engine.runtime import chain_steps
from tests.engine import eigen_math_cases as cases

FIXTURES = Path(__file__).parent.parent / "fixtures" / "ops"
FIXTURE = np.load(FIXTURES / "eigen_reciprocal.npz")
FLOAT32 = np.load(FIXTURES / "eigen_float32.npz")
_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def assert_same_bits(ours, theirs):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    if ours.dtype.kind == "c":
        assert_same_bits(ours.real, theirs.real)
        assert_same_bits(ours.imag, theirs.imag)
        return
    unsigned = _UNSIGNED[ours.dtype.itemsize]
    differ = (ours.view(unsigned) != theirs.view(unsigned)) & ~(np.isnan(ours) & np.isnan(theirs))
    assert not differ.any(), (np.nonzero(differ)[0][:5], ours[differ][:5], theirs[differ][:5])


def run(op, *inputs):
    with tf.Graph().as_default(), tf.Session() as sess:
        return sess.run(op(*[tf.constant(x) for x in inputs]))


# The instructions' models (tools/capture_rcpps.py checks them against the CPU on every float32).

def _some_bit_patterns():
    return np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)


def test_rsqrtps_follows_its_table_and_mirrors_half_the_exponent():
    assert x86_reciprocal.RSQRT_TABLE_BITS.size == 8192
    one_to_four = (np.arange(1 << 24, dtype=np.uint32) + np.uint32(0x3F800000)).view(np.float32)
    guess = x86_reciprocal.rsqrtps(one_to_four).view(np.int32)
    np.testing.assert_array_equal(guess[::1 << 11], x86_reciprocal.RSQRT_TABLE_BITS)
    quarter = x86_reciprocal.rsqrtps(one_to_four * np.float32(0.25)).view(np.int32)
    np.testing.assert_array_equal(quarter, guess + (1 << 23))  # rsqrt(x / 4) = 2 rsqrt(x)
    assert float(np.max(np.abs(guess.view(np.float32) * np.sqrt(one_to_four) - 1))) < 2 ** -11


def test_the_instructions_special_values():
    x = np.array([0.0, -0.0, 1e-40, -1e-40, np.inf, -np.inf, -1.0, 3e38, 8.6e37],
                 np.float32)
    rcp = x86_reciprocal.rcpps(x).view(np.uint32)
    rsqrt = x86_reciprocal.rsqrtps(x).view(np.uint32)
    assert [hex(b) for b in rcp] == ["0x7f800000", "0xff800000", "0x7f800000", "0xff800000",
                                     "0x0", "0x80000000", "0xbf7ff000", "0x0", "0x0"]
    assert [hex(b) for b in rsqrt[:7]] == ["0x7f800000", "0xff800000", "0x7f800000",
                                           "0xff800000", "0x0", "0xffc00000", "0xffc00000"]
    nan = np.array([0x7FA00000, 0xFF800001], np.uint32).view(np.float32)
    assert list(x86_reciprocal.rsqrtps(nan).view(np.uint32)) == [0x7FE00000, 0xFFC00001]
    assert list(x86_reciprocal.rcpps(nan).view(np.uint32)) == [0x7FE00000, 0xFFC00001]


def test_the_newton_steps_fast_path_is_the_full_one():
    """rsqrt_newton and reciprocal_newton skip the special values' selects where every input
    is ordinary: the values are those of the full path."""
    x = np.abs(np.random.RandomState(3).standard_normal(4096).astype(np.float32)) + 1e-3
    special = np.concatenate([x, [0.0]]).astype(np.float32)
    for newton in (x86_reciprocal.rsqrt_newton, x86_reciprocal.reciprocal_newton):
        assert_same_bits(newton(x), newton(special)[:-1])


# float16: packets through float32's functions; Rsqrt's scalar path in half arithmetic, Sin's
# and Cos's sinf and cosf rounded to half.

@pytest.mark.parametrize("name", cases.HALF_FUNCTIONS)
def test_float16_matches_tensorflow(name):
    op = getattr(tf, name)
    x = cases.every_half()
    assert cases.digest(run(op, x).astype(np.float32)) == str(FIXTURE[f"{name}_float16__digest"])
    few = x[::257]
    assert_same_bits(np.concatenate([run(op, few[i:i + 1]) for i in range(few.size)]),
                     FIXTURE[f"{name}_float16__scalar"])
    assert_same_bits(run(op, x[0x3C00:0x3C00 + 21]), FIXTURE[f"{name}_float16__mixed"])


# Inv is Reciprocal's kernel.

def test_inv_is_reciprocal():
    x = cases.mixed_inputs("reciprocal")
    assert_same_bits(run(lambda t: apply_op("Inv", x=t), x), FLOAT32["reciprocal__mixed"])


# The gradient kernels.

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("op", cases.RECIPROCAL_GRADS)
def test_the_gradient_kernels_match_tensorflow(op, dtype):
    y, dy = cases.grad_inputs(dtype)
    grad = lambda a, b: apply_op(op, y=a, dy=b)  # noqa: E731
    with np.errstate(all="ignore"):
        assert_same_bits(run(grad, y, dy), FIXTURE[f"{op}_{dtype}__mixed"])
        n = FIXTURE[f"{op}_{dtype}__scalar"].size
        assert_same_bits(np.concatenate([run(grad, y[i:i + 1], dy[i:i + 1]) for i in range(n)]),
                         FIXTURE[f"{op}_{dtype}__scalar"])


@pytest.mark.parametrize("op", cases.RECIPROCAL_GRADS)
def test_complex_gradients_conjugate_y(op):
    """TensorFlow's functors conjugate y (complex): the values are within rounding of its
    (Eigen's complex products and quotients round apart from NumPy's)."""
    y, dy = cases.grad_inputs("complex64")
    with np.errstate(all="ignore"):
        ours = run(lambda a, b: apply_op(op, y=a, dy=b), y, dy)
    theirs = FIXTURE[f"{op}_complex64__mixed"]
    finite = np.isfinite(theirs) & np.isfinite(ours) & (np.abs(theirs) < 1e30)
    assert finite.sum() > 200
    np.testing.assert_allclose(ours[finite], theirs[finite], rtol=1e-5, atol=1e-30)


# A user's LayerNorm.

def test_a_layer_norm_gives_tensorflows_bits_from_its_moments():
    """(x - mean) * rsqrt(var + 1e-12) on [1024, 768] float32, given TensorFlow's moments:
    TensorFlow's bits (not so before Rsqrt followed prsqrt). With the engine's own
    tf.nn.moments: tests/engine/test_reduce_order.py."""
    x = cases.layer_norm_input()
    with tf.Graph().as_default(), tf.Session() as sess:
        p = tf.placeholder(tf.float32, x.shape)
        m, v = (tf.placeholder(tf.float32, [x.shape[0], 1]) for _ in range(2))
        y = sess.run(cases.layer_norm(tf, p, m, v)[2],
                     {p: x, m: FIXTURE["layer_norm__mean"], v: FIXTURE["layer_norm__variance"]})
    assert cases.digest(y) == str(FIXTURE["layer_norm__digest"])


# The compiled loops: in place (a forwarded buffer) and through a session.

@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("numba")
    from engine.kernels import compiled
    module = compiled.module("eigen", wait=True)
    assert module is not None, compiled.why_not("eigen")
    return module


@pytest.mark.parametrize("name", ["rsqrt", "reciprocal"])
def test_the_in_place_loop_gives_the_references_bits(loops, name):
    x = np.concatenate([_some_bit_patterns(), cases.SPECIALS])
    reference = eigen_float32.packets_and_tail(getattr(eigen_float32, f"packet_{name}"),
                                               getattr(eigen_float32, f"scalar_{name}"))(x)
    buffer = x.copy()
    end = eigen_float32.packet_end(buffer.size)
    loops.run(name, buffer, [buffer], end, in_place=True)
    assert_same_bits(buffer, reference)
    out = np.empty_like(x)
    loops.run(name, out, [x], end)
    assert_same_bits(out, reference)


@pytest.mark.parametrize("name", ["rsqrt", "reciprocal"])
def test_a_forwarded_input_gives_tensorflows_bits(loops, name, monkeypatch):
    """An intermediate the kernel writes over (executor forwarding), large enough for the
    loops: the values of the kernel on a fresh buffer. (Each op on its own step: with the
    fast path's chains on, p * q and the op would run as one compiled loop.)"""
    monkeypatch.setattr(chain_steps, "ENABLED", False)
    x = cases.grid(name, 1 << 17)
    calls = []
    run_loop = loops.run

    def spy(loop, out, inputs, end, in_place=False):
        calls.append((loop, in_place))
        return run_loop(loop, out, inputs, end, in_place)
    loops.run = spy
    try:
        with tf.Graph().as_default(), tf.Session() as sess:
            p, q = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
            value = sess.run(getattr(tf, name)(p * q), {p: x, q: np.ones_like(x)})
    finally:
        loops.run = run_loop
    assert calls == [(name, True)]
    assert_same_bits(value, getattr(eigen_float32, name)(x))
