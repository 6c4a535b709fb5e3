"""BiasAdd's compiled form (engine/kernels/compiled/bias_numba.py) gives the NumPy reference's
bits, NHWC and NCHW, float32 and float64, any threads; BiasAddGrad's (pool_numba.bias_add_grad)
and its reference give TensorFlow's bits (each channel's rows added in order in the input's
dtype: tests/fixtures/ops/bias_add_grad.npz), whatever the thread budget."""

from pathlib import Path

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled, lookup
from engine.kernels.compiled import pool_numba
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr

from tests.engine import bias_grad_cases

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "bias_add_grad.npz")


@pytest.fixture(scope="module")
def loaded():
    for name in ("bias", "pool"):
        if compiled.module(name, wait=True) is None:
            pytest.skip(f"numba kernels unavailable: {compiled.why_not(name)}")


@pytest.fixture
def budget(request, monkeypatch):
    from engine.kernels.compiled import bias_numba
    # small pieces, so that the shapes here are split when there are two threads
    monkeypatch.setattr(bias_numba, "_MIN_ITEMS_PER_PIECE", 1 << 10)
    threads.configure(request.param)
    yield request.param
    threads.configure(0)


def _run(op, dtype, data_format, inputs, monkeypatch, reference):
    node = NodeDef(name=op.lower(), op=op)
    node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
    node.attr["data_format"].s = data_format
    ctx = KernelContext(node, [dtypes.as_dtype(dtype)], ResourceMgr())
    with monkeypatch.context() as patch:
        if reference:
            patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        return lookup(op)(ctx, *inputs)


def _values(dtype, shape, seed=5):
    x = np.random.RandomState(seed).standard_normal(shape).astype(dtype)
    x.reshape(-1)[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, -np.nan][:x.size]
    return x


def _assert_same_values(got, want):
    """Equal, NaN where NaN, and -0.0 where -0.0. (A NaN plus a NaN may carry either one's
    sign: x86 returns the first operand's, and LLVM may order an addition's operands.)"""
    np.testing.assert_array_equal(got, want)
    numbers = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


# (shape, data_format): channels last and first, 2-D (channels last whatever the format), 5-D,
# one channel, and one large enough to be split over two threads.
BIAS_ADD_CASES = [((2, 3, 4, 5), b"NHWC"), ((2, 3, 4, 5), b"NCHW"), ((3, 7), b"NHWC"),
                  ((3, 7), b"NCHW"), ((2, 3, 2, 2, 4), b"NCDHW"), ((4, 5, 5, 1), b"NHWC"),
                  ((1, 1, 1, 1), b"NCHW"), ((64, 17, 9, 33), b"NHWC"), ((16, 33, 17, 9), b"NCHW")]


@pytest.mark.parametrize("shape, data_format", BIAS_ADD_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("budget", [1, 2], indirect=True)
def test_bias_add_gives_the_references_bits(loaded, monkeypatch, budget, shape, data_format,
                                            dtype):
    value = _values(dtype, shape)
    axis = 1 if data_format != b"NHWC" and len(shape) > 2 else len(shape) - 1
    bias = _values(dtype, (shape[axis],), seed=6)
    want = _run("BiasAdd", dtype, data_format, (value, bias), monkeypatch, reference=True)
    got = _run("BiasAdd", dtype, data_format, (value, bias), monkeypatch, reference=False)
    assert got.dtype == want.dtype and got.shape == want.shape
    _assert_same_values(got, want)


def test_bias_add_of_a_value_not_contiguous_and_of_other_dtypes(loaded, monkeypatch):
    value = _values(np.float32, (6, 5, 8))[:, ::2, :]  # a view with gaps
    bias = _values(np.float32, (8,), seed=6)
    want = _run("BiasAdd", np.float32, b"NHWC", (value, bias), monkeypatch, reference=True)
    got = _run("BiasAdd", np.float32, b"NHWC", (value, bias), monkeypatch, reference=False)
    _assert_same_values(got, want)
    ints = np.arange(24, dtype=np.int32).reshape(2, 3, 4)  # NumPy's path: not compiled
    assert _run("BiasAdd", np.int32, b"NHWC", (ints, np.arange(4, dtype=np.int32)), monkeypatch,
                reference=False).tolist() == (ints + np.arange(4)).tolist()


def _rows_in_order(dy):
    """Each channel's rows added one after another in dy's dtype, from zero (cumsum is
    sequential): what TensorFlow's BiasAddGrad computes."""
    rows = dy.reshape(-1, dy.shape[-1])
    return np.cumsum(rows, axis=0, dtype=dy.dtype)[-1] + dy.dtype.type(0)


@pytest.mark.parametrize("name", sorted(bias_grad_cases.cases()))
@pytest.mark.parametrize("budget", [1, 2], indirect=True)
@pytest.mark.parametrize("form", ["compiled", "reference"])
def test_bias_add_grad_gives_tensorflows_bits(loaded, monkeypatch, budget, form, name):
    _, dtype = bias_grad_cases.cases()[name]
    dy = bias_grad_cases.case_input(name)
    got = _run("BiasAddGrad", dtype, b"NHWC", (dy,), monkeypatch, reference=form == "reference")
    want = FIXTURE[name]
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (4, 1, 1, 1), (2, 5, 7, 3), (131, 64),
                                   (3, 9, 9, 130), (50, 14, 14, 64), (200, 1), (130, 2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("budget", [1, 2], indirect=True)
def test_bias_add_grad_adds_each_channels_rows_in_order(loaded, monkeypatch, budget, shape,
                                                        dtype):
    """The compiled form and the NumPy reference both add in TensorFlow's order: the same
    bits, so a program's values do not change where the compiled module loads."""
    dy = np.random.RandomState(sum(shape)).standard_normal(shape).astype(dtype) * 100
    got = _run("BiasAddGrad", dtype, b"NHWC", (dy,), monkeypatch, reference=False)
    np.testing.assert_array_equal(got, _rows_in_order(dy))
    want = _run("BiasAddGrad", dtype, b"NHWC", (dy,), monkeypatch, reference=True)
    _assert_same_values(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bias_add_grad_reference_takes_non_finite_values_and_signed_zeros(loaded, monkeypatch,
                                                                           dtype):
    dy = _values(dtype, (70, 4))
    dy[:, 2] = -0.0
    got = _run("BiasAddGrad", dtype, b"NHWC", (dy,), monkeypatch, reference=False)
    want = _run("BiasAddGrad", dtype, b"NHWC", (dy,), monkeypatch, reference=True)
    _assert_same_values(got, want)
    assert not np.signbit(got[2])  # a sum from zero: -0.0 rows give +0.0
