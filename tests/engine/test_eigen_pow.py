"""The CPU's float32 Pow gives TensorFlow 2.21's bits (tests/fixtures/ops/eigen_pow.npz, written
by tools/make_pow_fixtures.py): Eigen's generic_pow on whole packets of 8, glibc's powf on the
last n % 8, for same-shape tensors, a scalar exponent, a scalar base, and through tf.pow."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import eigen_pow
from tests.engine.compiled_support import module_or_skip

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "eigen_pow.npz")
CASES = ["special", "wide", "edge", "lead"]


def assert_same_bits(ours, theirs, x, y):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype == np.float32 and ours.shape == theirs.shape
    differ = (ours.view(np.uint32) != theirs.view(np.uint32)) & ~(np.isnan(ours)
                                                                  & np.isnan(theirs))
    x, y = np.broadcast_arrays(x, y)
    assert not differ.any(), list(zip(x[differ][:5], y[differ][:5], ours[differ][:5],
                                      theirs[differ][:5]))


def inputs(case):
    return FIXTURE[f"{case}__x"], FIXTURE[f"{case}__y"]


def reference(x, y):
    """The NumPy reference alone, never the compiled loop."""
    return eigen_pow._POW(*np.broadcast_arrays(x, y))


@pytest.mark.parametrize("case", CASES)
def test_the_reference_matches_tensorflow(case):
    x, y = inputs(case)
    assert_same_bits(reference(x, y), FIXTURE[f"{case}__out"], x, y)


def test_the_packet_path_alone_on_whole_packets():
    x, y = inputs("special")
    assert x.size % 8 == 0
    assert_same_bits(eigen_pow.packet_pow(x, y), FIXTURE["special__out"], x, y)


def test_the_scalar_path_on_special_values():
    x, y = inputs("special")
    assert_same_bits(eigen_pow.scalar_pow(x, y), FIXTURE["special__scalar"], x, y)


def test_a_scalar_exponent_and_a_scalar_base():
    x, y = inputs("lead")
    assert_same_bits(reference(x, y[0]), FIXTURE["lead_sexp__out"], x, y[0])
    assert_same_bits(reference(x[0], y), FIXTURE["lead_sbase__out"], x[0], y)


def test_numpy_power_is_not_tensorflow():
    """What the kernel replaced: NumPy's power rounds apart on about a third of these."""
    x, y = inputs("lead")
    theirs = FIXTURE["lead__out"]
    assert (np.power(x, y).view(np.uint32) != theirs.view(np.uint32)).sum() > 1000


def run(build, feeds):
    with tf.Graph().as_default():
        holders = [tf.placeholder(tf.float32, None) for _ in feeds]
        output = build(*holders)
        with tf.Session() as session:
            return session.run(output, dict(zip(holders, feeds)))


@pytest.mark.parametrize("case", ["special", "lead"])
def test_tf_pow_through_a_session(case):
    x, y = inputs(case)
    assert_same_bits(run(tf.pow, [x, y]), FIXTURE[f"{case}__out"], x, y)


def test_a_learning_rate_decay():
    """0.96 ** (step / 100.0), a constant base (the division fed, as the fixture ran it)."""
    exponents = np.arange(4100, dtype=np.float32) / np.float32(100)
    ours = run(lambda e: tf.pow(tf.constant(0.96), e), [exponents])
    assert_same_bits(ours, FIXTURE["decay__out"], np.float32(0.96), exponents)


def test_a_broadcast_pair_and_other_dtypes_keep_numpy():
    x, y = inputs("lead")
    ours = run(tf.pow, [x[:37 * 53].reshape(37, 53), y[:53]])
    assert ours.shape == (37, 53)
    assert_same_bits(ours, reference(x[:37 * 53].reshape(37, 53), y[:53]),
                     x[:37 * 53].reshape(37, 53), y[:53])
    with tf.Graph().as_default(), tf.Session() as session:
        doubles = session.run(tf.pow(tf.constant([2.0, 3.0], tf.float64), 2.5))
    np.testing.assert_array_equal(doubles, np.power([2.0, 3.0], 2.5))


# The compiled loop (engine/kernels/compiled/eigen_pow_numba.py) gives the reference's bits.

@pytest.fixture(scope="module")
def loop():
    return module_or_skip("pow")


@pytest.mark.parametrize("case", CASES)
def test_the_compiled_loop_matches_tensorflow(loop, case):
    x, y = inputs(case)
    assert_same_bits(loop.pow_float32(x, y, eigen_pow.scalar_pow), FIXTURE[f"{case}__out"], x, y)


def test_the_compiled_loop_gives_the_references_bits(loop):
    rng = np.random.default_rng(3)
    n = 1 << 16
    x = (np.exp2(rng.uniform(-130, 128, n)) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    y = (rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(-45, 2.5, n)).astype(np.float32)
    y[::5] = np.round(y[::5] * 1000)
    x[::7] = rng.uniform(0.5, 3, x[::7].size)
    assert_same_bits(loop.pow_float32(x, y, eigen_pow.scalar_pow), reference(x, y), x, y)


def test_the_kernel_takes_the_compiled_loop_once_loaded(loop):
    x, y = inputs("lead")
    assert_same_bits(eigen_pow.pow_float32(x, y), FIXTURE["lead__out"], x, y)
    assert_same_bits(run(tf.pow, [x, y]), FIXTURE["lead__out"], x, y)
