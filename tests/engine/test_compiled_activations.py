"""Relu and ReluGrad's compiled forms (engine/kernels/compiled/activation_numba.py) give the
NumPy references' bits: NaN, infinities and -0.0 included, float32 and float64, any threads."""

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr
from tests.engine.compiled_support import module_or_skip


@pytest.fixture(scope="module")
def loaded():
    module_or_skip("activation")


def _run(op, dtype, inputs, monkeypatch, reference):
    node = NodeDef(name=op.lower(), op=op)
    node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
    ctx = KernelContext(node, [dtypes.as_dtype(dtype)], ResourceMgr())
    with monkeypatch.context() as patch:
        if reference:
            patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        return lookup(op)(ctx, *inputs)


def _values(dtype, shape):
    rng = np.random.RandomState(11)
    x = rng.standard_normal(shape).astype(dtype)
    x.reshape(-1)[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, -np.nan]
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("budget", [1, 2])
@pytest.mark.parametrize("shape", [(7,), (64, 9, 9, 33)])
def test_relu_and_its_gradient_give_the_references_bits(loaded, monkeypatch, dtype, budget,
                                                        shape):
    features, gradients = _values(dtype, shape), _values(dtype, shape)[::-1].copy()
    from engine.kernels.compiled import activation_numba
    # small pieces, so that the larger shape is split when there are two threads
    monkeypatch.setattr(activation_numba, "_MIN_ITEMS_PER_PIECE", 1 << 10)
    monkeypatch.setattr(activation_numba, "_MIN_GRAD_ITEMS_PER_PIECE", 1 << 10)
    threads.configure(budget)
    try:
        for op, inputs in (("Relu", (features,)), ("ReluGrad", (gradients, features))):
            want = _run(op, dtype, inputs, monkeypatch, reference=True)
            got = _run(op, dtype, inputs, monkeypatch, reference=False)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), op
    finally:
        threads.configure(0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("budget", [1, 2])
@pytest.mark.parametrize("shapes", [((1024, 768), (1024, 1)), ((8, 128, 768), (8, 128, 1)),
                                    ((700, 777), (700, 777)), ((1024, 768), (768,))])
def test_squared_difference_compiled_gives_the_references_bits(loaded, monkeypatch, dtype,
                                                                budget, shapes):
    monkeypatch.setattr(threads, "budget", lambda: budget)
    with np.errstate(all="ignore"):  # (NaN and infinities, as a session runs them)
        x = _values(dtype, shapes[0])
        y = _values(dtype, shapes[1]) * dtype(0.5)
        reference = _run("SquaredDifference", dtype, (x, y), monkeypatch, reference=True)
        np.testing.assert_array_equal(reference.view(np.uint8),
                                      np.square(np.subtract(x, y)).view(np.uint8))
        got = _run("SquaredDifference", dtype, (x, y), monkeypatch, reference=False)
        assert got.dtype == reference.dtype and got.shape == reference.shape
        np.testing.assert_array_equal(got.view(np.uint8), reference.view(np.uint8))
        over = x.copy()
        written = lookup("SquaredDifference").forwarding(None, (0,), over, y)
        assert np.shares_memory(written, over)
        np.testing.assert_array_equal(written.view(np.uint8), reference.view(np.uint8))
