"""Relu and ReluGrad's compiled forms (engine/kernels/compiled/activation_numba.py) give the
NumPy references' bits: NaN, infinities and -0.0 included, float32 and float64, any threads."""

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled, lookup
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr


@pytest.fixture(scope="module")
def loaded():
    if compiled.module("activation", wait=True) is None:
        pytest.skip(f"numba kernels unavailable: {compiled.why_not('activation')}")


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
    threads.configure(budget)
    try:
        for op, inputs in (("Relu", (features,)), ("ReluGrad", (gradients, features))):
            want = _run(op, dtype, inputs, monkeypatch, reference=True)
            got = _run(op, dtype, inputs, monkeypatch, reference=False)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), op
    finally:
        threads.configure(0)
