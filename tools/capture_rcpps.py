"""Print this CPU's approximate reciprocal (x86 rcpps) as engine/kernels/cpu/x86_reciprocal.py
holds it, after checking that the model there (12 mantissa bits in, 12 out, the exponent
mirrored) gives rcpps's bits on every float32 in [2**-10, 2**10).

Run with the engine's venv (numba calls the instruction): `.venv/bin/python tools/capture_rcpps.py`.
TensorFlow's float32 Erfc refines rcpps's guess with one Newton step; the fixtures of
tests/fixtures/ops/eigen_erf.npz were made on the CPU whose rcpps the module holds.
"""

import base64
import sys
import zlib
from pathlib import Path

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


@intrinsic
def _rcpps(typingctx, x):
    def codegen(context, builder, signature, args):
        vector = ir.VectorType(ir.FloatType(), 4)
        function = builder.module.declare_intrinsic("llvm.x86.sse.rcp.ps",
                                                    fnty=ir.FunctionType(vector, [vector]))
        lane = ir.Constant(ir.IntType(32), 0)
        packed = builder.insert_element(ir.Constant(vector, ir.Undefined), args[0], lane)
        return builder.extract_element(builder.call(function, [packed]), lane)
    return types.float32(types.float32), codegen


@numba.njit
def _apply(x, out):
    for j in range(x.size):
        out[j] = _rcpps(x[j])


def rcpps(x):
    out = np.empty_like(x)
    _apply(x, out)
    return out


def main():
    from engine.kernels.cpu import x86_reciprocal

    one_to_two = (np.arange(1 << 23, dtype=np.uint32) | np.uint32(0x3F800000)).view(np.float32)
    table = rcpps(one_to_two)[::1 << 11]
    steps = -np.diff(np.concatenate([[8192], np.rint(table * 8192).astype(np.int64)]))
    blob = base64.b64encode(zlib.compress(steps.astype(np.uint8).tobytes(), 9)).decode()
    x86_reciprocal.TABLE_BITS[:] = table.view(np.int32)  # check the model with this CPU's table
    for exponent in range(-10, 10):
        x = one_to_two * np.float32(2.0 ** exponent)
        model = x86_reciprocal.rcpps(x)
        assert np.array_equal(model.view(np.uint32), rcpps(x).view(np.uint32)), exponent
    print(f"rcpps of every float32 in [2**-10, 2**10) follows the model; _STEPS:\n{blob}")


if __name__ == "__main__":
    main()
