"""The GPU kernel of _FusedElementwise: a fused chain as one CuPy ElementwiseKernel.

On CuPy the chain (engine/kernels/fused_chain.py) becomes the C++ body of one
`cupy.ElementwiseKernel`: one launch, one pass over memory, no temporaries, where the unfused
graph launches a kernel and allocates an array per op. CuPy compiles the body with NVRTC
once per chain and dtypes and keeps the binary in its own on-disk cache (~/.cupy/kernel_cache,
CUPY_CACHE_DIR), so a second process does not compile again. Broadcasting is CuPy's (any
shapes that broadcast, scalars included); shapes that do not raise TensorFlow's error first.

The body follows the unfused GPU kernels (engine/kernels/cuda/math.py) op by op: NaN wins in
Maximum/Minimum as in cupy.maximum, Relu keeps NaN, Cast from float to int gives x86's answer
for NaN and out-of-range values (as `x86_float_to_int`), and `--fmad=false` keeps a*b+c two
roundings as two kernels round it. Floats agree within rounding where CUDA's exp/log/tanh
differ from CuPy's by an ulp.

On the simulated GPU (NumPy behind CuPy's API) there is no compiler: the chain runs step by
step through each op's own GPU kernel, the reference the compiled form is tested against.
"""

import hashlib
import threading

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu import fused as cpu_fused
from engine.kernels.cuda.common import device
from engine.kernels.fused_chain import FUSED_OP

C_TYPES = {"float32": "float", "float64": "double", "int32": "int", "int64": "long long",
           "bool": "bool"}
FLOAT_TYPES = frozenset({"float32", "float64"})
_COMPARISONS = {"Less": "<", "LessEqual": "<=", "Greater": ">", "GreaterEqual": ">=",
                "Equal": "==", "NotEqual": "!="}
_ARITHMETIC = {"Add": "+", "AddV2": "+", "Sub": "-", "Mul": "*", "RealDiv": "/"}
_MATH = {"Sqrt": "sqrt", "Exp": "exp", "Log": "log", "Tanh": "tanh", "Floor": "floor",
         "Ceil": "ceil", "Erf": "erf", "Erfc": "erfc"}
OPTIONS = ("--fmad=false",)


def _float_to_int(a, dtype):
    """x86's truncating conversion (cvttss2si): NaN and out-of-range give the lowest value."""
    bits = 32 if dtype == "int32" else 64
    t = C_TYPES[dtype]
    low = "(-2147483647 - 1)" if bits == 32 else "(-9223372036854775807LL - 1)"
    return (f"((trunc({a}) >= -{2.0 ** (bits - 1)!r} && trunc({a}) < {2.0 ** (bits - 1)!r})"
            f" ? ({t})trunc({a}) : {low})")


def expression(op, a, b, dtype, in_dtype):
    """The C++ expression of one step (a, b: operand names; dtype: its output's)."""
    t = C_TYPES[dtype]
    if op in _ARITHMETIC:
        return f"({t})({a} {_ARITHMETIC[op]} {b})"
    if op == "SquaredDifference":
        return f"({t})(({a} - {b}) * ({a} - {b}))"
    if op in ("Maximum", "Minimum"):
        pick = ">=" if op == "Maximum" else "<="
        nan = f"{a} != {a} || " if in_dtype in FLOAT_TYPES else ""
        return f"(({nan}{a} {pick} {b}) ? {a} : {b})"
    if op == "Neg":
        return f"({t})(-{a})"
    if op == "Abs":
        return f"fabs({a})" if dtype in FLOAT_TYPES else f"({t})({a} < 0 ? -{a} : {a})"
    if op == "Square":
        return f"({t})({a} * {a})"
    if op in _MATH:
        return f"{_MATH[op]}({a})"
    if op == "Rsqrt":
        return f"(({t})1 / sqrt({a}))"
    if op == "Sigmoid":
        return f"(({t})1 / (({t})1 + exp(-{a})))"
    if op == "Relu":
        return f"({a} < ({t})0 ? ({t})0 : {a})"
    if op in _COMPARISONS:
        return f"({a} {_COMPARISONS[op]} {b})"
    if op == "LogicalAnd":
        return f"({a} && {b})"
    if op == "LogicalOr":
        return f"({a} || {b})"
    if op == "LogicalNot":
        return f"(!{a})"
    if op == "Cast":
        if dtype == "bool":
            return f"({a} != 0)"
        if in_dtype in FLOAT_TYPES and dtype not in FLOAT_TYPES:
            return _float_to_int(a, dtype)
        return f"({t})({a})"
    raise KeyError(op)


def source(chain, input_dtypes):
    """(in_params, out_params, body) of the chain's ElementwiseKernel."""
    in_params = ", ".join(f"{dtype} i{k}" for k, dtype in enumerate(input_dtypes))
    out_params = f"{chain.steps[-1][2]} out"
    lines, types = [], []
    for index, (op, operands, dtype) in enumerate(chain.steps):
        refs = [f"i{n}" if kind == "i" else f"t{n}" for kind, n in operands]
        in_dtypes = [input_dtypes[n] if kind == "i" else types[n] for kind, n in operands]
        expr = expression(op, refs[0], refs[1] if len(refs) > 1 else None, dtype, in_dtypes[0])
        lines.append(f"{C_TYPES[dtype]} t{index} = {expr};")
        types.append(dtype)
    lines.append(f"out = t{len(chain.steps) - 1};")
    return in_params, out_params, "\n".join(lines)


_kernels = {}  # (steps, input dtypes) -> cupy.ElementwiseKernel
_lock = threading.Lock()


def elementwise_kernel(xp, chain, input_dtypes):
    """The chain's ElementwiseKernel (made once per chain and input dtypes)."""
    key = (tuple(chain.steps), tuple(input_dtypes))
    found = _kernels.get(key)
    if found is None:
        in_params, out_params, body = source(chain, input_dtypes)
        digest = hashlib.sha256(f"{in_params}|{out_params}|{body}".encode()).hexdigest()[:16]
        found = xp.ElementwiseKernel(in_params, out_params, body, f"gi_fused_{digest}",
                                     options=OPTIONS)
        with _lock:
            _kernels[key] = found
    return found


def register_all(xp):
    compiles = hasattr(xp, "ElementwiseKernel")  # CuPy; the simulated GPU has no compiler

    def fused_elementwise(ctx, *inputs):
        plan = cpu_fused.plan_of(ctx)
        arrays = [device(xp, value) for value in inputs]
        if not compiles or plan.chain.random_steps or plan.chain.reduces:
            # (the CUDA body has no Philox and no reduction yet: the remapper fuses neither
            # on a GPU, but a GraphDef written elsewhere may hold one)
            return cpu_fused.run_reference(plan, arrays, device_type="GPU", ctx=ctx)
        try:
            np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:  # the step that fails raises TensorFlow's error
            return cpu_fused.run_reference(plan, arrays, device_type="GPU", ctx=ctx)
        kernel = elementwise_kernel(xp, plan.chain, [a.dtype.name for a in arrays])
        return kernel(*arrays)

    register_table({FUSED_OP: fused_elementwise}, "GPU")
