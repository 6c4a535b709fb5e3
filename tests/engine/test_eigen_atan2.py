"""The CPU's float32 Atan2 gives TensorFlow 2.21's bits (tests/fixtures/ops/eigen_atan2.npz,
written by tools/make_atan2_fixtures.py): Eigen's patan2 on whole packets of 8, glibc's atan2f
on the last n % 8, for same-shape tensors, a scalar y, a scalar x, and through tf.atan2. The
packet path's reciprocal is x86's rcpps (engine/kernels/cpu/x86_reciprocal.py)."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import eigen_atan2
from tests.engine.compiled_support import module_or_skip

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "eigen_atan2.npz")


def assert_same_bits(ours, theirs, y, x):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype == np.float32 and ours.shape == theirs.shape
    differ = (ours.view(np.uint32) != theirs.view(np.uint32)) & ~(np.isnan(ours)
                                                                  & np.isnan(theirs))
    y, x = np.broadcast_arrays(y, x)
    assert not differ.any(), list(zip(y[differ][:5], x[differ][:5], ours[differ][:5],
                                      theirs[differ][:5]))


def inputs(case):
    return FIXTURE[f"{case}__y"], FIXTURE[f"{case}__x"]


def reference(y, x):
    """The NumPy reference alone, never the compiled loop."""
    return eigen_atan2._ATAN2(*np.broadcast_arrays(y, x))


@pytest.mark.parametrize("case", ["special", "wide", "unit"])
def test_the_reference_matches_tensorflow(case):
    y, x = inputs(case)
    assert_same_bits(reference(y, x), FIXTURE[f"{case}__out"], y, x)


def test_the_packet_path_alone_on_whole_packets():
    y, x = inputs("special")
    assert y.size % 8 == 0
    assert_same_bits(eigen_atan2.packet_atan2(y, x), FIXTURE["special__out"], y, x)


def test_the_scalar_path_on_special_values():
    y, x = inputs("special")
    assert_same_bits(eigen_atan2.scalar_atan2(y, x), FIXTURE["special__scalar"], y, x)


def test_a_scalar_y_and_a_scalar_x():
    y, x = inputs("unit")
    assert_same_bits(reference(y[0], x), FIXTURE["unit_sy__out"], y[0], x)
    assert_same_bits(reference(y, x[0]), FIXTURE["unit_sx__out"], y, x[0])


def test_numpy_arctan2_is_not_tensorflow():
    """What the kernel replaced: NumPy's arctan2 rounds apart on about 40% of these."""
    y, x = inputs("unit")
    theirs = FIXTURE["unit__out"]
    assert (np.arctan2(y, x).view(np.uint32) != theirs.view(np.uint32)).sum() > 1000


@pytest.mark.parametrize("case", ["special", "unit"])
def test_tf_atan2_through_a_session(case):
    y, x = inputs(case)
    with tf.Graph().as_default():
        holders = [tf.placeholder(tf.float32, None) for _ in range(2)]
        with tf.Session() as session:
            ours = session.run(tf.atan2(*holders), dict(zip(holders, [y, x])))
    assert_same_bits(ours, FIXTURE[f"{case}__out"], y, x)


# The compiled loop (engine/kernels/compiled/eigen_atan2_numba.py) gives the reference's bits.

@pytest.fixture(scope="module")
def loop():
    return module_or_skip("atan2")


def compiled_atan2(loop, y, x):
    from engine.kernels.cpu.x86_reciprocal import TABLE_BITS
    y, x = np.broadcast_arrays(y, x)
    return loop.atan2_float32(y, x, eigen_atan2.scalar_atan2, TABLE_BITS)


@pytest.mark.parametrize("case", ["special", "wide", "unit"])
def test_the_compiled_loop_matches_tensorflow(loop, case):
    y, x = inputs(case)
    assert_same_bits(compiled_atan2(loop, y, x), FIXTURE[f"{case}__out"], y, x)


def test_the_compiled_loop_gives_the_references_bits(loop):
    rng = np.random.default_rng(3)
    n = 1 << 16

    def values():
        return (np.exp2(rng.uniform(-130, 128, n)) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    y, x = values(), values()
    x[::3] = rng.uniform(-3, 3, x[::3].size)
    y[::4] = rng.integers(-2, 3, y[::4].size)
    assert_same_bits(compiled_atan2(loop, y, x), reference(y, x), y, x)


def test_the_kernel_takes_the_compiled_loop_once_loaded(loop):
    y, x = inputs("unit")
    assert_same_bits(eigen_atan2.atan2_float32(y, x), FIXTURE["unit__out"], y, x)
