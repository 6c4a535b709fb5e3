"""The CPU's Erf and Erfc give TensorFlow 2.21's bits in float32, float64 and float16
(tests/fixtures/ops/eigen_erf.npz, written by tools/make_erf_fixtures.py): Eigen's packet path
on whole packets, its scalar path on the last n % 8 (n % 4) elements, the NumPy reference, the
compiled loops and the kernels through them."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import eigen_erf, eigen_float32
from tests.engine import eigen_erf_cases as cases
from tests.engine.eigen_erf_cases import RANGES

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "eigen_erf.npz")
PATHS = {("erf", "float32"): (eigen_erf.erf_float32, eigen_erf.erf_float32),
         ("erfc", "float32"): (eigen_erf.packet_erfc_float32, eigen_erf.scalar_erfc_float32),
         ("erf", "float64"): (eigen_erf.packet_erf_float64, eigen_erf.scalar_erf_float64),
         ("erfc", "float64"): (eigen_erf.packet_erfc_float64, eigen_erf.scalar_erfc_float64)}


def assert_same_bits(ours, theirs, inputs):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    unsigned = {2: np.uint16, 4: np.uint32, 8: np.uint64}[ours.itemsize]
    differ = (ours.view(unsigned) != theirs.view(unsigned)) & ~(np.isnan(ours) & np.isnan(theirs))
    assert not differ.any(), list(zip(inputs[differ][:5], ours[differ][:5], theirs[differ][:5]))


def reference(name, dtype):
    """The NumPy reference alone, never the compiled loops."""
    packet, scalar = PATHS[name, dtype]
    return eigen_float32.packets_and_tail(packet, scalar, lanes=cases.LANES[dtype],
                                          dtype=np.dtype(dtype))


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_packet_path_matches_tensorflow_on_the_sample(name, dtype):
    x = cases.sample_inputs(name, dtype)
    assert_same_bits(reference(name, dtype)(x), FIXTURE[f"{name}_{dtype}__sample"], x)


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_packet_path_matches_tensorflow_on_two_million_inputs(name, dtype):
    ours = reference(name, dtype)(cases.dense_inputs(name, dtype))
    assert cases.digest(ours) == str(FIXTURE[f"{name}_{dtype}__digest"])


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_scalar_path_matches_tensorflow(name, dtype):
    x = cases.scalar_inputs(name, dtype)
    ours = np.concatenate([reference(name, dtype)(x[i:i + 1]) for i in range(x.size)])
    assert_same_bits(ours, FIXTURE[f"{name}_{dtype}__scalar"], x)


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_a_tensor_with_a_tail_takes_both_paths(name, dtype):
    x = cases.mixed_inputs(name, dtype)
    assert_same_bits(reference(name, dtype)(x), FIXTURE[f"{name}_{dtype}__mixed"], x)


@pytest.mark.parametrize("name, dtype", cases.HALF_CASES)
def test_float16_is_computed_through_float32(name, dtype):
    x = cases.half_inputs()
    function = getattr(eigen_erf, name)
    assert_same_bits(function(x), FIXTURE[f"{name}_{dtype}__sample"], x)
    few = x[::16]
    assert_same_bits(np.concatenate([function(few[i:i + 1]) for i in range(few.size)]),
                     FIXTURE[f"{name}_{dtype}__scalar"], few)


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_kernel_computes_as_tensorflow(name, dtype):
    x = cases.mixed_inputs(name, dtype)
    with tf.Graph().as_default():
        y = getattr(tf, name)(tf.constant(x.reshape(1, -1)))
        with tf.Session() as sess:
            value = sess.run(y)
    assert_same_bits(value.reshape(-1), FIXTURE[f"{name}_{dtype}__mixed"], x)


def test_an_empty_tensor_and_a_scalar():
    assert eigen_erf.erfc(np.zeros((0, 3), np.float32)).shape == (0, 3)
    value = eigen_erf.erf(np.float64(0.5))
    assert value.shape == () and value.dtype == np.float64


# The compiled loops (engine/kernels/compiled/eigen_arrays.py) give the reference's bits.

@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("numba")
    from engine.kernels import compiled
    module = compiled.module("eigen", wait=True)
    assert module is not None, compiled.why_not("eigen")
    return module


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_compiled_loop_gives_the_packet_paths_bits(loops, name, dtype):
    x = np.concatenate([cases.dense_inputs(name, dtype), cases.specials(dtype)])
    x = x[:x.size - x.size % cases.LANES[dtype]]
    out = np.empty_like(x)
    loops.run(f"{name}_{dtype}", out, [x], x.size)
    assert_same_bits(out, PATHS[name, dtype][0](x), x)


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_compiled_tail_gives_the_scalar_paths_bits(loops, name, dtype):
    x = np.concatenate([cases.scalar_inputs(name, dtype), cases.value_grid(name, dtype, 1 << 14)])
    out = np.empty_like(x)
    loops.run(f"{name}_{dtype}", out, [x], 0)  # every element on the scalar path
    assert_same_bits(out, PATHS[name, dtype][1](x), x)


@pytest.mark.parametrize("name, dtype", cases.CASES)
def test_the_kernels_through_the_compiled_loops_match_tensorflow(loops, name, dtype):
    function = getattr(eigen_erf, name)
    x = cases.sample_inputs(name, dtype)
    assert_same_bits(function(x), FIXTURE[f"{name}_{dtype}__sample"], x)
    x = cases.mixed_inputs(name, dtype)
    assert_same_bits(function(x), FIXTURE[f"{name}_{dtype}__mixed"], x)
    x = cases.scalar_inputs(name, dtype)
    assert_same_bits(np.concatenate([function(x[i:i + 1]) for i in range(x.size)]),
                     FIXTURE[f"{name}_{dtype}__scalar"], x)


def _mostly_small(name, dtype, share, rng):
    """A tensor whose values mostly have |x| <= 1 (the small branch), with `share` of them
    past it, the special values among those, scattered: the compiled loops gather only the
    latter through the large branch, as Eigen's packets do when no lane needs it."""
    size = 3 * 2048 + 5 * cases.LANES[dtype]  # whole blocks and a part block, whole packets
    x = rng.uniform(-1.0, 1.0, size).astype(dtype)
    low, high = RANGES[name, dtype]
    picked = rng.random(size) < share
    x[picked] = rng.uniform(low, high, int(picked.sum())).astype(dtype)
    specials = cases.specials(dtype)
    at = rng.choice(size, specials.size, replace=False)
    x[at] = specials
    x[-2048:][rng.random(2048) < 0.5] = 1.0  # |x| = 1 itself takes the small branch
    x[-1000:][rng.random(1000) < 0.6] = high  # the last block mostly large: taken whole
    return x


@pytest.mark.parametrize("name, dtype", cases.CASES)
@pytest.mark.parametrize("share", [0.0, 0.002, 0.03, 0.11, 0.2, 0.9])
def test_the_compiled_loops_take_the_large_branch_only_where_needed(loops, name, dtype, share):
    x = _mostly_small(name, dtype, share, np.random.default_rng(int(share * 1000)))
    expected = PATHS[name, dtype][0](x)
    out = np.empty_like(x)
    loops.run(f"{name}_{dtype}", out, [x], x.size)
    assert_same_bits(out, expected, x)
    over = x.copy()
    loops.run(f"{name}_{dtype}", over, [over], over.size, in_place=True)
    assert_same_bits(over, expected, x)
