"""Every CPU kernel against real TensorFlow's values (tests/fixtures/ops/*.npz).

The fixtures hold, per case, the NodeDef TensorFlow built (attrs with defaults filled), the
inputs in OpDef order, and TensorFlow's outputs or its error; tools/make_op_fixtures.py makes
them (tools/make_grad_op_fixtures.py the grad_ops family). Floats compare with tight
tolerances, everything else exactly, dtypes always.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from engine.framework import errors
from engine.framework.dtypes import as_dtype
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime.resources import ResourceMgr

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ops"
# grad_ops: the max pool gradients' gradients and MirrorPadGrad
# (tools/make_grad_op_fixtures.py).
FAMILIES = ("math", "reduce", "array", "nn", "random", "grad_ops")
# Float32 Box-Muller goes through glibc's logf/sincosf, which are not correctly rounded;
# NumPy's float functions differ from them by one ulp on about 1.5% of the values.
BOX_MULLER_FLOAT = {"RandomStandardNormal", "TruncatedNormal"}


def _load(family):
    data = np.load(FIXTURES / f"{family}.npz", allow_pickle=False)
    return data, json.loads(str(data["__manifest__"]))


def _cases():
    for family in FAMILIES:
        data, manifest = _load(family)
        for entry in manifest:
            yield pytest.param(family, entry, id=f"{family}:{entry['name']}")


_DATA = {}


def _arrays(family):
    if family not in _DATA:
        _DATA[family] = _load(family)[0]
    return _DATA[family]


def make_context(node_def, output_dtypes=()):
    return KernelContext(node_def, list(output_dtypes), ResourceMgr())


def _assert_same(actual, expected, op, where):
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind == "f":
        if op in BOX_MULLER_FLOAT and expected.dtype == np.float32:
            np.testing.assert_array_max_ulp(actual, expected, maxulp=2)
            return
        tolerance = {np.dtype(np.float16): (1e-3, 1e-3), np.dtype(np.float32): (1e-5, 1e-6),
                     np.dtype(np.float64): (1e-12, 1e-14)}[expected.dtype]
        np.testing.assert_allclose(actual, expected, rtol=tolerance[0], atol=tolerance[1],
                                   equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=where)


@pytest.mark.parametrize("family, entry", list(_cases()))
def test_kernel_matches_tensorflow(family, entry):
    data, name = _arrays(family), entry["name"]
    node_def = NodeDef.FromString(data[f"{name}/node_def"].tobytes())
    inputs = [data[f"{name}/in{i}"] for i in range(entry["inputs"])]
    kernel = lookup(entry["op"])
    assert kernel is not None, f"no CPU kernel for {entry['op']}"
    outputs_known = f"{name}/out0" in data or entry["outputs"] == 0
    dtypes = [as_dtype(data[f"{name}/out{i}"].dtype) for i in range(entry["outputs"])] \
        if outputs_known and not entry["error"] else []
    ctx = make_context(node_def, dtypes)
    if entry["error"]:
        kind, message = entry["error"]
        with pytest.raises(getattr(errors, kind)) as raised:
            kernel(ctx, *inputs)
        assert raised.value.message == message
        assert raised.value.node_def is node_def
        return
    for run in range(entry.get("runs", 1)):
        with np.errstate(all="ignore"):  # as Session.run calls kernels: nan/inf, no warnings
            result = kernel(ctx, *inputs)
        results = result if isinstance(result, tuple) else (result,)
        assert len(results) == entry["outputs"]
        for i, value in enumerate(results):
            key = f"{name}/out{i}" if run == 0 else f"{name}/run{run}/out{i}"
            _assert_same(value, data[key], entry["op"], f"{name} run {run} output {i}")
