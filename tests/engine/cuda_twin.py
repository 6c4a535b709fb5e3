"""CPU-twin harness: a GPU kernel must give what its CPU kernel gives, errors included.

Every GPU kernel has a CPU twin (the kernel registered for the same op on "CPU"); the CPU
kernels are checked against real TensorFlow (test_kernels_fixtures.py), so agreeing with
the twin checks the GPU kernel against TensorFlow too. The API, stable for other test files:

- BACKENDS: pytest params "simulated" (always runs) and "cupy" (marked `cuda`, skipped with
  a reason where no CUDA GPU is present). Parametrize a test with
  `@pytest.mark.parametrize("backend_name", BACKENDS)`.
- gpu_backend(backend_name): context manager; makes that GPU backend current (GPU kernels
  registered for it) and yields the Backend (`.xp` is cupy or the simulation).
- make_node_def(op, attrs=None, name=None): a NodeDef from plain attrs ({"T": np.float32,
  "keep_dims": True, ...}; numpy dtypes become DT_* types).
- run_kernel(node_def, inputs, device_type, output_dtypes=(), runs=1): the kernel of that
  device run on a fresh KernelContext (its own ResourceMgr: a random op's fresh generator);
  returns Outcome(outputs=[tuple per run] or None, error=exception or None).
- run_twin(op, node_def_or_attrs, inputs, backend_name, runs=1, output_dtypes=()):
  runs the CPU kernel on `inputs` and the GPU kernel on device copies of them (xp.asarray;
  inputs named in `host_inputs` positions stay host NumPy, as TensorFlow's HostMemory args
  may arrive), returns (cpu Outcome, gpu Outcome with outputs copied to host, raw gpu values).
- assert_twin(op, node_def_or_attrs, inputs, backend_name, runs=1, host_inputs=(),
  host_outputs=False): run_twin and assert: same error class and message, or every output a
  device array (unless host_outputs: TF keeps Shape/Size-like outputs in host memory) with
  the CPU's dtype, shape and values (ints/bools exactly, floats tightly, Box-Muller float32
  normals within 2 ulp).
- fixture_cases(families=FAMILIES): pytest params (family, entry) of every fixture case;
  fixture_inputs(family, entry) -> (node_def, inputs, output_dtypes, runs);
  assert_fixture_twin(family, entry, backend_name) (outputs of HOST_OUTPUT_OPS may be host).
- gpu_ops(backend_name="simulated"): the ops registered on GPU under that backend.
"""

import contextlib
from typing import NamedTuple

import numpy as np
import pytest

from engine.framework import errors
from engine.framework.attr_value import from_python, infer_type
from engine.framework.dtypes import DType, as_dtype
from engine.kernels import lookup, registered_ops
from engine.kernels.context import KernelContext
from engine.kernels.cuda import backend as gpu
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime.resources import ResourceMgr
from tests.engine.test_kernels_fixtures import BOX_MULLER_FLOAT, FAMILIES, _arrays, _load

# Ops whose outputs TensorFlow keeps in host memory even on a GPU (HostMemory("output")).
HOST_OUTPUT_OPS = frozenset({"Shape", "ShapeN", "Size", "Rank", "BroadcastArgs",
                             "BroadcastGradientArgs", "ConcatOffset", "InvertPermutation"})

_TOLERANCE = {np.dtype(np.float16): (1e-3, 1e-3), np.dtype(np.float32): (1e-5, 1e-6),
              np.dtype(np.float64): (1e-12, 1e-14)}
# Ops that sum many products: cuDNN and cuBLAS add them in another order than the CPU, so an
# output near zero (the terms cancelling) carries an error the size of the terms, not its own.
# Their absolute tolerance scales with the largest output (seen on an H200: 2e-6 on a Conv2D
# output of -0.07 among outputs up to 25).
ACCUMULATING = frozenset({
    "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D", "DepthwiseConv2dNative",
    "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter", "MatMul",
    "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Sum", "Mean", "BiasAddGrad", "AvgPool",
    "AvgPoolGrad", "FusedBatchNorm", "FusedBatchNormV3", "FusedBatchNormGrad",
    "FusedBatchNormGradV3"})


def _cupy_skip_reason():
    return None if gpu._cupy_backend() is not None else "no CUDA GPU with CuPy on this machine"


BACKENDS = [
    pytest.param("simulated", id="simulated"),
    pytest.param("cupy", id="cupy", marks=[
        pytest.mark.cuda,
        pytest.mark.skipif(_cupy_skip_reason() is not None,
                           reason="no CUDA GPU with CuPy on this machine")]),
]


@contextlib.contextmanager
def gpu_backend(backend_name):
    """The named GPU backend made current for the block (and its kernels registered)."""
    if backend_name == "simulated":
        with gpu.simulated_gpus(1) as current:
            yield current
        return
    cupy_backend = gpu._cupy_backend()
    if cupy_backend is None:
        pytest.skip(_cupy_skip_reason())
    previous = gpu.use(cupy_backend)
    try:
        yield cupy_backend
    finally:
        gpu.use(previous)


def gpu_ops(backend_name="simulated"):
    with gpu_backend(backend_name):
        return registered_ops("GPU")


# Node defs and running one kernel --------------------------------------------------------------

def _attr_value(value):
    if isinstance(value, DType):
        return from_python(value, "type")
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return from_python(as_dtype(np.dtype(value)), "type")
    return from_python(value, infer_type(value))


def make_node_def(op, attrs=None, name=None):
    node_def = NodeDef(name=name or op.lower(), op=op)
    for key, value in (attrs or {}).items():
        node_def.attr[key].CopyFrom(_attr_value(value))
    return node_def


class Outcome(NamedTuple):
    outputs: list | None  # one tuple of outputs per run
    error: Exception | None


def run_kernel(node_def, inputs, device_type, output_dtypes=(), runs=1):
    kernel = lookup(node_def.op, device_type)
    assert kernel is not None, f"no {device_type} kernel for {node_def.op}"
    ctx = KernelContext(node_def, list(output_dtypes), ResourceMgr())
    outputs = []
    try:
        for _ in range(runs):
            with np.errstate(all="ignore"):  # as Session.run calls kernels
                result = kernel(ctx, *inputs)
            outputs.append(tuple(result) if isinstance(result, (tuple, list)) else (result,))
    except errors.OpError as error:
        return Outcome(None, error)
    return Outcome(outputs, None)


def _as_node_def(op, node_def_or_attrs):
    if isinstance(node_def_or_attrs, NodeDef):
        return node_def_or_attrs
    return make_node_def(op, node_def_or_attrs)


def run_twin(op, node_def_or_attrs, inputs, backend_name, runs=1, output_dtypes=(),
             host_inputs=()):
    """(cpu Outcome, gpu Outcome with host copies, raw gpu outputs or None)."""
    node_def = _as_node_def(op, node_def_or_attrs)
    cpu = run_kernel(node_def, inputs, "CPU", output_dtypes, runs)
    with gpu_backend(backend_name) as current:
        xp = current.xp
        device_inputs = [value if i in host_inputs else xp.asarray(value)
                         for i, value in enumerate(inputs)]
        raw = run_kernel(node_def, device_inputs, "GPU", output_dtypes, runs)
    if raw.error is not None:
        return cpu, raw, None
    host = [tuple(gpu.to_host(v) for v in run) for run in raw.outputs]
    return cpu, Outcome(host, None), raw.outputs


# Comparing -------------------------------------------------------------------------------------

def assert_same_values(actual, expected, op, where):
    """`actual` (host) has `expected`'s dtype, shape and values (CPU results may be scalars)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind in "fc":
        if op in BOX_MULLER_FLOAT and expected.dtype == np.float32:
            np.testing.assert_array_max_ulp(actual, expected, maxulp=2)
            return
        rtol, atol = _TOLERANCE.get(expected.dtype, (1e-5, 1e-6))
        finite = np.abs(expected[np.isfinite(expected)])
        if op in ACCUMULATING and finite.size:
            atol = max(atol, rtol * 0.1 * float(finite.max()))
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=where)


def assert_twin(op, node_def_or_attrs, inputs, backend_name, runs=1, output_dtypes=(),
                host_inputs=(), host_outputs=False, where=""):
    where = where or op
    cpu, gpu_outcome, raw = run_twin(op, node_def_or_attrs, inputs, backend_name, runs,
                                     output_dtypes, host_inputs)
    if cpu.error is not None or gpu_outcome.error is not None:
        assert gpu_outcome.error is not None, f"{where}: CPU raised {cpu.error!r}, GPU not"
        assert cpu.error is not None, f"{where}: GPU raised {gpu_outcome.error!r}, CPU not"
        assert type(gpu_outcome.error) is type(cpu.error), \
            f"{where}: {type(gpu_outcome.error).__name__} != {type(cpu.error).__name__}"
        assert gpu_outcome.error.message == cpu.error.message, where
        return cpu, gpu_outcome
    for run, (cpu_run, gpu_run, raw_run) in enumerate(zip(cpu.outputs, gpu_outcome.outputs,
                                                         raw)):
        assert len(gpu_run) == len(cpu_run), f"{where}: {len(gpu_run)} != {len(cpu_run)} outputs"
        for i, (actual, expected, value) in enumerate(zip(gpu_run, cpu_run, raw_run)):
            here = f"{where} run {run} output {i}"
            if not host_outputs:
                assert gpu.is_device_array(value), \
                    f"{here}: GPU output is {type(value).__name__}, not a device array"
            assert_same_values(actual, expected, op, here)
    return cpu, gpu_outcome


# The fixtures (tests/fixtures/ops/*.npz) -------------------------------------------------------

def fixture_entries(families=FAMILIES):
    for family in families:
        for entry in _load(family)[1]:
            yield family, entry


def fixture_cases(families=FAMILIES, ops=None):
    """pytest params (family, entry), only of `ops` when given."""
    return [pytest.param(family, entry, id=f"{family}:{entry['name']}")
            for family, entry in fixture_entries(families)
            if ops is None or entry["op"] in ops]


def fixture_inputs(family, entry):
    """(node_def, inputs, output_dtypes, runs) of a fixture case."""
    data, name = _arrays(family), entry["name"]
    node_def = NodeDef.FromString(data[f"{name}/node_def"].tobytes())
    inputs = [data[f"{name}/in{i}"] for i in range(entry["inputs"])]
    known = f"{name}/out0" in data and not entry["error"]
    dtypes = [as_dtype(data[f"{name}/out{i}"].dtype) for i in range(entry["outputs"])] \
        if known else []
    return node_def, inputs, dtypes, entry.get("runs", 1)


def assert_fixture_twin(family, entry, backend_name, host_inputs=(), host_outputs=None):
    node_def, inputs, dtypes, runs = fixture_inputs(family, entry)
    if host_outputs is None:
        host_outputs = entry["op"] in HOST_OUTPUT_OPS
    return assert_twin(entry["op"], node_def, inputs, backend_name, runs, dtypes,
                       host_inputs=host_inputs, host_outputs=host_outputs,
                       where=f"{family}:{entry['name']}")
