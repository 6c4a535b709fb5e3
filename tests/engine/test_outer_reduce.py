"""Sum and Mean over leading or middle axes against TensorFlow 2.21, bit for bit
(tests/fixtures/ops/outer_reduce.npz, tools/make_outer_reduce_fixtures.py, the cases in
tests/engine/outer_reduce_cases.py): the Sum and Mean kernels (compiled where numba is), the
NumPy reference (eigen_reduce.outer_sums) and the compiled loop alone."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.cpu import eigen_reduce
from tests.engine import outer_reduce_cases as cases

EXPECTED = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "outer_reduce.npz")


def _same_bits(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    differing = int(np.sum(got.view(np.uint8).reshape(got.size, -1)
                           != want.view(np.uint8).reshape(want.size, -1), axis=1)
                    .astype(bool).sum())
    assert got.tobytes() == want.tobytes(), f"{differing} of {got.size} values differ"


@pytest.mark.parametrize("name", list(cases.CASES))
def test_sum_and_mean_kernels(name):
    shape, axes, _ = cases.CASES[name]
    x = cases.case_input(name)
    with tf.Graph().as_default(), tf.Session() as session:
        fed = tf.placeholder(x.dtype)
        total, mean = session.run([tf.reduce_sum(fed, list(axes)),
                                   tf.reduce_mean(fed, list(axes))], {fed: x})
    _same_bits(total, EXPECTED[f"sum__{name}"])
    _same_bits(mean, EXPECTED[f"mean__{name}"])


@pytest.mark.parametrize("name", list(cases.CASES))
def test_numpy_reference(name):
    shape, axes, _ = cases.CASES[name]
    x = cases.case_input(name)
    sums = eigen_reduce.outer_sums(x.reshape(eigen_reduce.outer(x, axes)))
    _same_bits(sums.reshape(EXPECTED[f"sum__{name}"].shape), EXPECTED[f"sum__{name}"])


@pytest.fixture(scope="module")
def reduce_numba():
    module = compiled.module("reduce", wait=True)
    if module is None:
        pytest.skip(f"numba kernels unavailable: {compiled.why_not('reduce')}")
    return module


@pytest.mark.parametrize("name", [n for n, (_, axes, _) in cases.CASES.items()
                                  if axes[0] == 0 and not n.startswith("denormals")])
def test_compiled_leading_sums(name, reduce_numba):
    shape, axes, _ = cases.CASES[name]
    x = cases.case_input(name)
    _, rows, inner = eigen_reduce.outer(x, axes)
    lanes = eigen_reduce.lanes_of(x.dtype)
    values = reduce_numba.leading_sum(x.reshape(rows, inner), 1,
                                      inner - inner % lanes if rows >= 16 else 0)
    _same_bits(values.reshape(EXPECTED[f"sum__{name}"].shape), EXPECTED[f"sum__{name}"])


def test_compiled_loop_hands_denormal_risk_back(reduce_numba):
    x = cases.case_input("denormals_rows24_cols8")
    assert reduce_numba.leading_sum(x, 1, 8) is None


def test_other_reductions_are_not_taken_as_outer():
    x = np.ones((4, 5, 6), np.float32)
    assert eigen_reduce.outer(x, (0, 2)) is None  # two reduced groups
    assert eigen_reduce.outer(x, (2,)) is None  # innermost: eigen_reduce.innermost's
    assert eigen_reduce.outer(x.astype(np.int32), (0,)) is None
    # float16 is (in half: tests/engine/test_half_math.py)
    assert eigen_reduce.outer(x.astype(np.float16), (0,)) == (1, 4, 30)
    assert eigen_reduce.outer(np.ones((0, 3), np.float32), (0,)) is None
    assert eigen_reduce.outer(x, (0,)) == (1, 4, 30)
    assert eigen_reduce.outer(x, (1,)) == (4, 5, 6)
