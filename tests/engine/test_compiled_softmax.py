"""Softmax's first step compiled (engine/kernels/compiled/reduce_numba.py shifted_rows and
shift_rows: each row less its maximum, in one pass): the softmax is NumPy's bit for bit, split
or not, written over its logits or not."""

import numpy as np
import pytest

from engine.kernels import compiled, lookup
from engine.kernels.cpu import nn, threaded_elementwise
from engine.runtime import threads

RNG = np.random.default_rng(21)


class _Ctx:
    node_def = None
    attrs = {}


@pytest.fixture(scope="module")
def reduce_module():
    module = compiled.module("reduce", wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not('reduce')}")
    return module


def _reference(logits):
    exp = np.exp(logits - np.max(logits, axis=-1, keepdims=True))
    return exp / np.sum(exp, axis=-1, keepdims=True)


def _logits(shape, dtype):
    logits = (RNG.standard_normal(shape) * 4).astype(dtype)
    flat = logits.reshape(-1, shape[-1])
    flat[:, -3:] += dtype(-10000.0)        # the attention mask's padding
    flat[0, -1] = np.nan                   # a row with a NaN: NaN throughout
    flat[1, :] = -np.inf                   # a row of -inf: NaN throughout
    flat[2, 0] = np.inf
    flat[3, :] = 0.0                       # zeros of both signs: the maximum's sign
    flat[3, 1::2] = -0.0
    flat[4, :] = -0.0
    return logits


def _same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rows_less_their_maximum_exponentiate_as_numpys(reduce_module, dtype):
    for shape in ((300, 128), (40, 97), (20, 16), (9, 5), (6, 1)):
        x = _logits(shape, dtype)
        with np.errstate(all="ignore"):
            expected = x - np.max(x, axis=-1, keepdims=True)
            out = np.empty_like(x)
            reduce_module.shifted_rows(x, out)
            over = x.copy()
            reduce_module.shift_rows(over)
            _same(over, out)
            # equal but for the sign of a zero, which exp does not see
            np.testing.assert_array_equal(out, expected)
            _same(np.exp(out), np.exp(expected))


# float32 Softmax is TensorFlow's, not NumPy's (tests/engine/test_reduce_order.py)
@pytest.mark.parametrize("dtype", [np.float64])
@pytest.mark.parametrize("budget", [1, 2])
def test_softmax_with_the_compiled_step_is_numpys(reduce_module, monkeypatch, dtype, budget):
    monkeypatch.setattr(threads, "budget", lambda: budget)
    kernel = lookup("Softmax")
    for shape in ((8, 12, 128, 128), (6001, 97), (5, 40)):
        logits = _logits(shape, dtype)
        with np.errstate(all="ignore"):
            expected = _reference(logits)
            _same(kernel(_Ctx(), logits), expected)
            over = logits.copy()
            got = kernel.forwarding(_Ctx(), (0,), over)
            assert np.shares_memory(got, over)
            _same(got, expected)
    assert nn._rows_of(logits) is not nn._softmax_rows  # (the compiled step was taken)
    rows = threaded_elementwise.rows(nn._rows_of(logits), _logits((4096, 128), dtype))
    assert rows is None or rows.shape == (4096, 128)
