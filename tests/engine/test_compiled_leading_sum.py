"""Sum over leading axes compiled (engine/kernels/compiled/reduce_numba.py) gives the NumPy
reference's values (engine/kernels/cpu/eigen_reduce.outer_sums, TensorFlow's order: checked
against TensorFlow in test_outer_reduce.py): the same additions in the same order (NaN where
NaN, -0.0 summed from +0.0), float32 and float64, keep_dims or not, split over threads or not;
other sums do not call it."""

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled, lookup
from engine.kernels.compiled import reduce_numba
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr


@pytest.fixture(scope="module")
def loaded():
    if compiled.module("reduce", wait=True) is None:
        pytest.skip(f"numba kernels unavailable: {compiled.why_not('reduce')}")


@pytest.fixture
def calls(loaded, monkeypatch):
    """The shapes the compiled form was called with."""
    seen, real = [], reduce_numba.leading_sum
    monkeypatch.setattr(reduce_numba, "leading_sum",
                        lambda x, count, split: seen.append(x.shape) or real(x, count, split))
    return seen


def _sum(x, axes, keep_dims, monkeypatch, reference):
    node = NodeDef(name="sum", op="Sum")
    node.attr["T"].type = dtypes.as_dtype(x.dtype).as_datatype_enum
    node.attr["Tidx"].type = dtypes.int32.as_datatype_enum
    node.attr["keep_dims"].b = keep_dims
    ctx = KernelContext(node, [dtypes.as_dtype(x.dtype)], ResourceMgr())
    with monkeypatch.context() as patch:
        if reference:
            patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        return lookup("Sum")(ctx, x, np.array(axes, np.int32))


def _values(dtype, shape):
    x = (np.random.RandomState(sum(shape)).standard_normal(shape) * 1000).astype(dtype)
    x.reshape(-1)[:5] = [-0.0, np.nan, np.inf, -np.inf, 1e30]
    x[(0,) * (x.ndim - 1)][-1] = -0.0  # a column of -0.0 and numbers
    return x


def _assert_same_values(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN where NaN
    numbers = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


@pytest.mark.parametrize("shape, axes", [((32, 16, 16, 8), [0, 1, 2]), ((9, 7, 5, 64), [0, 1, 2]),
                                         ((33, 5, 6, 3), [-4, -3, -2]), ((13, 40, 6), [0]),
                                         ((13, 40, 6), [1, 0]), ((1100, 2), [0]),
                                         ((4097, 3), [0]), ((4, 4, 4), [0]),
                                         ((15, 9), [0]), ((16, 17), [0])])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("keep_dims", [False, True])
def test_a_sum_over_leading_axes_gives_the_references_values(calls, monkeypatch, shape, axes, dtype,
                                                     keep_dims):
    x = _values(dtype, shape)
    got = _sum(x, axes, keep_dims, monkeypatch, reference=False)
    rows = int(np.prod([shape[a] for a in axes]))
    assert calls == [(rows, x.size // rows)]
    _assert_same_values(got, _sum(x, axes, keep_dims, monkeypatch, reference=True))


@pytest.mark.parametrize("budget", [2, 3])
def test_split_over_threads_by_columns_it_gives_the_same_values(calls, monkeypatch, budget):
    monkeypatch.setattr(reduce_numba, "_MIN_ITEMS_PER_PIECE", 1 << 10)
    x = _values(np.float32, (16, 12, 12, 24))
    threads.configure(budget)
    try:
        got = _sum(x, [0, 1, 2], False, monkeypatch, reference=False)
    finally:
        threads.configure(0)
    assert calls == [(16 * 12 * 12, 24)]
    _assert_same_values(got, _sum(x, [0, 1, 2], False, monkeypatch, reference=True))


@pytest.mark.parametrize("x, axes", [
    (np.ones((64, 64, 1), np.float32), [0, 1]),  # one value a row: a full reduction
    (np.ones((64, 64, 4), np.float32), [0, 2]),  # not the leading axes
    (np.ones((64, 64, 4), np.float32), [0, 1, 2]),  # everything
    (np.asfortranarray(np.ones((64, 64, 4), np.float32)), [0]),  # not C-ordered
    (np.ones((64, 64, 4), np.int32), [0]),  # not a float
    (np.ones((0, 64, 4), np.float32), [0]),  # empty
])
def test_other_sums_do_not_call_it(calls, monkeypatch, x, axes):
    got = _sum(x, axes, False, monkeypatch, reference=False)
    assert calls == []
    _assert_same_values(got, _sum(x, axes, False, monkeypatch, reference=True))
