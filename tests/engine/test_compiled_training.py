"""ApplyAdam's compiled form (engine/kernels/compiled/training_numba.py) gives the NumPy
reference's bits, in place in a ref variable's buffers, and steps aside where it does not
serve (other dtypes, a gradient that shares memory with a slot)."""

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled, lookup
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime.resources import ResourceMgr, Ref


@pytest.fixture(scope="module")
def loaded():
    if compiled.module("training", wait=True) is None:
        pytest.skip(f"numba kernels unavailable: {compiled.why_not('training')}")


def _apply_adam(values, scalars, nesterov, monkeypatch, reference):
    node = NodeDef(name="adam", op="ApplyAdam")
    node.attr["use_nesterov"].b = nesterov
    node.attr["T"].type = dtypes.as_dtype(values[0].dtype).as_datatype_enum
    ctx = KernelContext(node, [dtypes.as_dtype(values[0].dtype)], ResourceMgr())
    refs = [Ref(name, value.dtype, value.copy())
            for name, value in zip(("var", "m", "v"), values[:3])]
    with monkeypatch.context() as patch:
        if reference:
            patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        lookup("ApplyAdam")(ctx, *refs, *scalars, values[3])
    return [ref.value for ref in refs]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_adam_gives_the_references_bits(loaded, monkeypatch, dtype, nesterov):
    rng = np.random.RandomState(3)
    values = [rng.standard_normal((300, 70)).astype(dtype) for _ in range(4)]
    values[2] = np.abs(values[2])  # v is a running mean of squares
    values[3][0, :3] = [np.nan, np.inf, 0.0]
    scalars = [np.asarray(s, dtype) for s in (0.81, 0.998, 0.001, 0.9, 0.999, 1e-8)]
    want = _apply_adam(values, scalars, nesterov, monkeypatch, reference=True)
    got = _apply_adam(values, scalars, nesterov, monkeypatch, reference=False)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_a_gradient_sharing_a_slots_memory_takes_the_reference(loaded, monkeypatch):
    from engine.kernels.cpu import training
    calls = []
    monkeypatch.setattr(compiled.loaded("training"), "adam_in_place",
                        lambda *args: calls.append(args))
    var = np.ones(4, np.float32)
    assert not training._adam_in_place({}, var, var.copy(), var.copy(), *[np.float32(0.5)] * 6,
                                       var)
    assert calls == []
