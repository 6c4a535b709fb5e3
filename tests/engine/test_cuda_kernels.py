"""Every CUDA kernel agrees with its CPU twin: on TensorFlow's fixture cases, and on seeded
random inputs (broadcasting, 0-d, empty, the error paths) for the math, reduction and random
kernels. Each test runs on the simulated GPU and, where one is present, on CuPy
(tests/engine/cuda_twin.py is the harness). Since the simulated GPU offers only CuPy's
names, these tests also show that every `xp.<name>` the kernels use exists in CuPy.
"""

import platform

import numpy as np
import pytest

from engine.kernels import lookup
from engine.kernels.cpu import math as cpu_math
from engine.kernels.cpu import random as cpu_random
from engine.kernels.cpu import reduce as cpu_reduce
from engine.kernels.cuda import backend as gpu
from engine.kernels.cuda import math as gpu_math
from engine.kernels.cuda import random as gpu_random
from engine.kernels.cuda import reduce as gpu_reduce
from tests.engine import cuda_twin
from tests.engine.cuda_twin import BACKENDS, assert_twin

MY_MODULES = (gpu_math, gpu_reduce, gpu_random)
# Ops registered on GPU whose twin cases live in another test file (none yet).
COVERED_ELSEWHERE = frozenset()

_GPU_OPS = frozenset(cuda_twin.gpu_ops("simulated"))
_FIXTURE_OPS = frozenset(entry["op"] for _, entry in cuda_twin.fixture_entries())


# Fixture cases ---------------------------------------------------------------------------------

@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("family, entry", cuda_twin.fixture_cases(ops=_GPU_OPS))
def test_fixture_case_matches_cpu_twin(backend_name, family, entry):
    cuda_twin.assert_fixture_twin(family, entry, backend_name)


# Seeded random inputs --------------------------------------------------------------------------

_rng = np.random.default_rng(20240611)


def _values(shape, dtype, low=-10, high=10, nonzero=False):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return _rng.random(shape) < 0.5
    if dtype.kind in "iu":
        values = _rng.integers(max(low, np.iinfo(dtype).min), high, size=shape, dtype=dtype)
        if nonzero:
            values[values == 0] = 3
        return values
    if dtype.kind == "c":
        return (_values(shape, np.float64, low, high, nonzero)
                + 1j * _values(shape, np.float64, low, high)).astype(dtype)
    values = (_rng.standard_normal(shape) * 3).astype(dtype)
    return np.where(values == 0, dtype.type(0.5), values) if nonzero else values


_RANDOM_CASES = []


def _case(op, attrs, inputs, host_inputs=(), runs=1, name=""):
    label = name or ",".join(f"{np.asarray(v).dtype}{list(np.shape(v))}" for v in inputs)
    _RANDOM_CASES.append(pytest.param(op, attrs, inputs, host_inputs, runs,
                                      id=f"{op}:{label}"))


UNARY_SHAPES = ((2, 3), (), (4, 0))
FLOATS = (np.float32, np.float64)
# Unary ops on integers too (TensorFlow registers them for ints).
INTEGER_UNARY = {"Neg", "Abs", "Square", "Sign", "Round", "Reciprocal", "Inv"}
# Unary ops of complex numbers' parts (complex inputs) and of integers' bits (integers only).
COMPLEX_UNARY = {"Real", "Imag", "Conj", "Angle", "ComplexAbs"}
COMPLEXES = (np.complex64, np.complex128)
BITWISE = {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert"}

for op in sorted(set(cpu_math.UNARY) - gpu_math.NO_GPU_KERNEL):
    if op == "LogicalNot":
        for shape in UNARY_SHAPES:
            _case(op, {}, [_values(shape, np.bool_)])
        continue
    if op in COMPLEX_UNARY or op in BITWISE:
        for dtype in COMPLEXES if op in COMPLEX_UNARY else (np.int8, np.int32, np.uint64):
            attrs = {"T": dtype, **({"Tout": np.dtype(dtype).type(0).real.dtype.type}
                                    if op in COMPLEX_UNARY and op != "Conj" else {})}
            for shape in UNARY_SHAPES:
                _case(op, attrs, [_values(shape, dtype)])
        continue
    for dtype in FLOATS + ((np.int32, np.int64) if op in INTEGER_UNARY else ()):
        for shape in UNARY_SHAPES:
            nonzero = op in ("Reciprocal", "Inv")
            _case(op, {"T": dtype}, [_values(shape, dtype, nonzero=nonzero)])
    if op in ("Relu", "Sigmoid", "Tanh", "Exp", "Softplus"):
        _case(op, {"T": np.float16}, [_values((3, 2), np.float16)])

BINARY_SHAPES = (((2, 3), (2, 3)), ((4, 1, 3), (2, 1)), ((), (3,)))
COMPARISONS = {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"}
INTEGER_DIVISIONS = {"Div", "FloorDiv", "FloorMod", "Mod", "TruncateDiv", "TruncateMod"}

for op in sorted(cpu_math.BINARY):
    if op in ("LogicalAnd", "LogicalOr"):
        dtypes = (np.bool_,)
    elif op in ("Atan2", "RealDiv", "DivNoNan", "NextAfter", "Complex"):
        dtypes = FLOATS
    elif op in BITWISE:
        dtypes = (np.int8, np.int32, np.uint64)
    else:
        dtypes = FLOATS + (np.int32, np.int64)
    for dtype in dtypes:
        for x_shape, y_shape in BINARY_SHAPES:
            x = _values(x_shape, dtype)
            if op == "Pow" and np.dtype(dtype).kind == "i":
                y = _values(y_shape, dtype, low=0, high=5)
            elif op in ("LeftShift", "RightShift"):
                y = _values(y_shape, dtype, low=-3, high=np.dtype(dtype).itemsize * 8 + 3)
            else:
                y = _values(y_shape, dtype, nonzero=op in INTEGER_DIVISIONS)
            _case(op, {"T": dtype, **({"Tout": np.complex64 if dtype == np.float32
                                       else np.complex128} if op == "Complex" else {})},
                  [x, y])
    _case(op, {"T": dtypes[0]}, [_values((2, 3), dtypes[0]), _values((4,), dtypes[0])],
          name="incompatible shapes")
for op in sorted(INTEGER_DIVISIONS | {"DivNoNan"}):
    _case(op, {"T": np.int32} if op != "DivNoNan" else {"T": np.float32},
          [np.array([7, -7, 3], np.int32 if op != "DivNoNan" else np.float32),
           np.array([2, 0, -2], np.int32 if op != "DivNoNan" else np.float32)],
          name="by zero")
_case("Pow", {"T": np.int32}, [np.array([2, 3], np.int32), np.array([1, -1], np.int32)],
      name="negative integer power")

for shape in UNARY_SHAPES:
    _case("LeakyRelu", {"T": np.float32, "alpha": 0.3}, [_values(shape, np.float32)])
    _case("AddN", {"T": np.float32, "N": 3}, [_values(shape, np.float32) for _ in range(3)])
    _case("AddN", {"T": np.int32, "N": 1}, [_values(shape, np.int32)])
_case("ClipByValue", {"T": np.float32},
      [_values((2, 3), np.float32), np.float32(-1), np.float32(2)])
_case("ClipByValue", {"T": np.int32},
      [_values((2, 3), np.int32), _values((2, 3), np.int32, -10, 0), np.int32(4)])
_case("ClipByValue", {"T": np.float32},
      [_values((2, 3), np.float32), _values((3,), np.float32), np.float32(2)],
      name="bad bound shape")
_case("Select", {"T": np.float32},
      [_values((2, 3), np.bool_), _values((2, 3), np.float32), _values((2, 3), np.float32)])
_case("Select", {"T": np.int32},
      [_values((4,), np.bool_), _values((4, 2), np.int32), _values((4, 2), np.int32)])
_case("Select", {"T": np.float32},
      [np.bool_(False), _values((3,), np.float32), _values((3,), np.float32)])
_case("Select", {"T": np.float32},
      [_values((3,), np.bool_), _values((4, 2), np.float32), _values((4, 2), np.float32)],
      name="batch mismatch")
_case("SelectV2", {"T": np.float32},
      [_values((2, 1), np.bool_), _values((3,), np.float32), _values((), np.float32)])
_case("SelectV2", {"T": np.int64},
      [np.bool_(True), _values((2, 3), np.int64), _values((2, 3), np.int64)])
_case("SelectV2", {"T": np.float32},
      [_values((2,), np.bool_), _values((3,), np.float32), _values((3,), np.float32)],
      name="not broadcastable")
for src, dst, values in [
        (np.float32, np.int32, np.array([-2.7, -0.5, 0.5, 2.7, 1e6], np.float32)),
        (np.float64, np.int64, np.array([[-3.9, 3.9]], np.float64)),
        (np.float32, np.uint8, np.array([0.0, 1.9, 254.5], np.float32)),
        (np.int32, np.float32, _values((2, 2), np.int32)),
        (np.float32, np.bool_, np.array([0.0, -0.0, 0.1, np.nan], np.float32)),
        (np.bool_, np.float32, _values((3,), np.bool_)),
        (np.int64, np.int32, np.array([2**40 + 5, -1], np.int64)),
        (np.float64, np.float16, np.float64(1.0 / 3)),
        (np.float32, np.float32, _values((2,), np.float32))]:
    _case("Cast", {"SrcT": src, "DstT": dst, "Truncate": False}, [values],
          name=f"{np.dtype(src)}->{np.dtype(dst)}")

# Float to int beyond the range and NaN: the GPU must build x86's answers, as the CPU has them.
_EDGES = np.array([np.nan, np.inf, -np.inf, 300, -1, -129.7, 3e9, -3e9, 5e9, 2**31, 1e19,
                   -1e19, 1.8e19, 2.5, -0.5], np.float64)
for src in (np.float16, np.float32, np.float64):
    for dst in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                np.uint64):
        _case("Cast", {"SrcT": src, "DstT": dst, "Truncate": False}, [_EDGES.astype(src)],
              name=f"edges {np.dtype(src)}->{np.dtype(dst)}")

REDUCTION_AXES = ([1], [0, 2], [], [-1], [3])
for op in sorted(cpu_reduce.REDUCTIONS):
    dtypes = (np.bool_,) if op in ("All", "Any") else (np.float32, np.int32, np.float64)
    for dtype in dtypes:
        x = _values((2, 3, 4), dtype)
        for axes in REDUCTION_AXES:
            for keep_dims in (False, True):
                attrs = {"T": dtype, "Tidx": np.int32, "keep_dims": keep_dims}
                _case(op, attrs, [x, np.array(axes, np.int32)],
                      name=f"{np.dtype(dtype)} axes={axes} keep={keep_dims}")
        _case(op, {"T": dtype, "Tidx": np.int32, "keep_dims": False},
              [_values((), dtype), np.array([], np.int32)], name=f"{np.dtype(dtype)} 0-d")
        _case(op, {"T": dtype, "Tidx": np.int64, "keep_dims": False},
              [_values((3, 0), dtype), np.array([1], np.int64)],
              name=f"{np.dtype(dtype)} empty, host axes", host_inputs=(1,))
for op in ("ArgMax", "ArgMin"):
    x = _values((3, 4), np.float32)
    x[1, 2] = np.nan
    for dimension in (0, 1, -1, 2):
        _case(op, {"T": np.float32, "Tidx": np.int32, "output_type": np.int64},
              [x, np.int32(dimension)], name=f"dimension {dimension}")
    _case(op, {"T": np.int32, "Tidx": np.int32, "output_type": np.int32},
          [_values((5,), np.int32, 0, 3), np.int32(0)], name="int ties")
    _case(op, {"T": np.float32, "Tidx": np.int32, "output_type": np.int64},
          [np.zeros((2, 0), np.float32), np.int32(1)], name="empty axis")
for op in ("Cumsum", "Cumprod"):
    for dtype in (np.float32, np.int32):
        x = _values((3, 4), dtype, -3, 4)
        for exclusive in (False, True):
            for reverse in (False, True):
                for axis in (0, -1):
                    _case(op, {"T": dtype, "Tidx": np.int32, "exclusive": exclusive,
                               "reverse": reverse}, [x, np.int32(axis)],
                          name=f"{np.dtype(dtype)} ex={exclusive} rev={reverse} axis={axis}")
    _case(op, {"T": np.float32, "Tidx": np.int32, "exclusive": True, "reverse": False},
          [np.zeros((0, 2), np.float32), np.int32(0)], name="empty")
    _case(op, {"T": np.float32, "Tidx": np.int32, "exclusive": False, "reverse": False},
          [_values((2,), np.float32), np.int32(1)], name="bad axis")
for shape in UNARY_SHAPES:
    for dtype in FLOATS:
        _case("L2Loss", {"T": dtype}, [_values(shape, dtype)])

RANDOM_SHAPES = ([2, 3], [], [5], [0, 4])
for op in ("RandomUniform", "RandomStandardNormal", "TruncatedNormal"):
    for dtype in FLOATS + ((np.float16,) if op == "RandomUniform" else ()):
        for seed, seed2 in ((1, 2), (87654321, 0)):
            for shape in RANDOM_SHAPES:
                attrs = {"T": np.int32, "dtype": dtype, "seed": seed, "seed2": seed2}
                _case(op, attrs, [np.array(shape, np.int32)], runs=2,
                      name=f"{np.dtype(dtype)} seeds={seed},{seed2} shape={shape}")
    _case(op, {"T": np.int32, "dtype": np.float32, "seed": 3, "seed2": 4},
          [np.array([2, -1], np.int32)], name="negative dimension")
    _case(op, {"T": np.int32, "dtype": np.float32, "seed": 3, "seed2": 4},
          [np.array([[2]], np.int32)], name="matrix shape", host_inputs=(0,))
for dtype, low, high in ((np.int32, -5, 17), (np.int64, -2**40, 2**41)):
    for shape in RANDOM_SHAPES:
        _case("RandomUniformInt", {"T": np.int32, "Tout": dtype, "seed": 5, "seed2": 6},
              [np.array(shape, np.int32), np.array(low, dtype), np.array(high, dtype)],
              runs=2, name=f"{np.dtype(dtype)} shape={shape}")
_case("RandomUniformInt", {"T": np.int32, "Tout": np.int32, "seed": 5, "seed2": 6},
      [np.array([3], np.int32), np.array(4, np.int32), np.array(4, np.int32)],
      name="empty range")
_case("RandomUniformInt", {"T": np.int32, "Tout": np.int32, "seed": 5, "seed2": 6},
      [np.array([3], np.int32), np.array([1], np.int32), np.array(4, np.int32)],
      name="vector minval", host_inputs=(0, 1, 2))


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("op, attrs, inputs, host_inputs, runs", _RANDOM_CASES)
def test_every_cuda_kernel_agrees_with_its_cpu_twin_on_random_inputs(
        backend_name, op, attrs, inputs, host_inputs, runs):
    assert_twin(op, attrs, inputs, backend_name, runs=runs, host_inputs=host_inputs)


# Coverage --------------------------------------------------------------------------------------

def _ops_registered_by(modules, monkeypatch):
    registered = set()
    for module in modules:
        monkeypatch.setattr(module, "register_table",
                            lambda table, device_type="CPU": registered.update(table))
        module.register_all(gpu.simulated_backend(1).xp)
    return registered


def test_every_gpu_op_has_a_twin_case(monkeypatch):
    mine = _ops_registered_by(MY_MODULES, monkeypatch)
    assert mine <= _GPU_OPS
    twin_cases = {param.values[0] for param in _RANDOM_CASES} | _FIXTURE_OPS
    # Ops of other modules without fixture cases are their authors' to cover (elsewhere).
    in_scope = mine | (_GPU_OPS & _FIXTURE_OPS)
    missing = sorted(in_scope - twin_cases - COVERED_ELSEWHERE)
    assert not missing, f"GPU kernels with no CPU-twin case: {missing}"


def test_my_modules_register_every_numeric_cpu_op_but_erf(monkeypatch):
    mine = _ops_registered_by(MY_MODULES, monkeypatch)
    cpu_ops = (set(cpu_math.UNARY) | set(cpu_math.BINARY) | set(cpu_reduce.KERNELS)
               | set(cpu_random.KERNELS)
               | {"LeakyRelu", "ClipByValue", "AddN", "Select", "SelectV2", "Cast"})
    assert cpu_ops - mine == gpu_math.NO_GPU_KERNEL


def test_erf_has_no_gpu_kernel_because_cupy_core_has_no_erf():
    xp = gpu.simulated_backend(1).xp
    with pytest.raises(AttributeError, match="no attribute 'erf'"):
        xp.erf  # noqa: B018  (only cupyx.scipy.special has it)
    with gpu.simulated_gpus(1):
        assert lookup("Erf", "GPU") is None and lookup("Erf") is not None


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="the CPU Cast's out-of-range values are x86's")
def test_x86_float_to_int_is_numpys_cast_on_x86():
    for src in (np.float16, np.float32, np.float64):
        for dst in (np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64):
            x = _EDGES.astype(src)
            with np.errstate(all="ignore"):
                expected = np.trunc(x).astype(dst)
            np.testing.assert_array_equal(gpu_math.x86_float_to_int(np, x, dst), expected,
                                          err_msg=f"{np.dtype(src)}->{np.dtype(dst)}")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_random_op_continues_the_node_stream_across_runs(backend_name):
    """Run 2 on the GPU gives what run 2 on the CPU gives: the counter moves on the same."""
    attrs = {"T": np.int32, "dtype": np.float32, "seed": 7, "seed2": 9}
    cpu, gpu_outcome = assert_twin("RandomUniform", attrs, [np.array([3], np.int32)],
                                   backend_name, runs=3)
    runs = [run[0] for run in gpu_outcome.outputs]
    assert not np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_gpu_kernels_read_host_axes_from_device_arrays_too(backend_name):
    x = _values((2, 3), np.float32)
    for host_inputs in ((), (1,)):
        assert_twin("Sum", {"T": np.float32, "Tidx": np.int32, "keep_dims": False},
                    [x, np.array([1], np.int32)], backend_name, host_inputs=host_inputs)


def test_cupy_backend_param_is_marked_and_skips_without_a_gpu():
    cupy_param = BACKENDS[1]
    assert any(mark.name == "cuda" for mark in cupy_param.marks)
    if gpu._cupy_backend() is None:
        with pytest.raises(pytest.skip.Exception):
            with cuda_twin.gpu_backend("cupy"):
                pass


