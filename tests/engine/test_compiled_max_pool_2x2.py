"""MaxPool's 2x2-window path (engine/kernels/compiled/pool_numba.py `_max_pool_2x2_row`: one
running maximum per channel in a register) against the NumPy reference: NaN, infinities,
windows clipped by SAME padding, strides that overlap or skip, NHWC and NCHW, both floats."""

import itertools

import numpy as np
import pytest

from engine.kernels.compiled import pool_numba
from engine.kernels.cpu import nn
from tests.engine.test_compiled_spatial import context, reference
from tests.engine.compiled_support import module_or_skip


@pytest.fixture(scope="module")
def loaded():
    module_or_skip("pool")


def _values(dtype, shape):
    x = np.random.RandomState(sum(shape)).standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    flat[::7] = np.nan
    flat[3::11] = np.inf
    flat[5::13] = -np.inf
    flat[2::17] = -0.0
    return x


@pytest.mark.parametrize("shape, stride, padding, layout", list(itertools.product(
    [(2, 8, 8, 8), (3, 7, 9, 64), (1, 5, 4, 3), (2, 1, 6, 16), (4, 6, 6, 1)],
    [(2, 2), (1, 1), (2, 1), (3, 3)], [b"SAME", b"VALID"], [b"NHWC", b"NCHW"])))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_2x2_max_pooling_equals_the_reference(loaded, monkeypatch, shape, stride, padding,
                                              layout, dtype):
    x = _values(dtype, shape)
    ksize, strides = [1, 2, 2, 1], [1, *stride, 1]
    if layout == b"NCHW":
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        ksize, strides = [1, 1, 2, 2], [1, 1, *stride]
    ctx = context("MaxPool", dtype, ksize=ksize, strides=strides, padding=padding,
                  data_format=layout)
    want = reference(monkeypatch, nn._max_pool, ctx, x, ksize, strides)
    if want.size == 0:
        pytest.skip("no output")
    got = nn._max_pool(ctx, x, ksize, strides)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN where NaN


def test_the_2x2_path_takes_nan_first_to_last(loaded):
    """Row-major window order, NaN winning wherever it is, as the general loop."""
    x = np.array([[1, np.nan], [7, 3]], np.float32).reshape(1, 2, 2, 1)
    x = np.concatenate([x, -x[:, ::-1]], axis=3)  # a second channel, NaN in another corner
    out = pool_numba.max_pool(x, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1), -np.inf)
    assert np.isnan(out).all()
    x = np.array([[-np.inf, -np.inf], [-np.inf, -np.inf]], np.float64).reshape(1, 2, 2, 1)
    assert pool_numba.max_pool(x, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1),
                               -np.inf).tolist() == [[[[-np.inf]]]]
