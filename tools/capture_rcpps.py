"""Print this CPU's approximate reciprocal and reciprocal square root (x86 rcpps, rsqrtps) as
engine/kernels/cpu/x86_reciprocal.py holds them, after checking that the models there give the
instructions' bits on every float32 (`--range` checks [2**-10, 2**10) only, in seconds).

rcpps's table: 12 mantissa bits in, 12 out, the exponent mirrored; rsqrtps's: the exponent's
parity and 12 mantissa bits in, 12 out, half the exponent mirrored. The check runs each
model with this CPU's tables over all 2**32 bit patterns (about two minutes each), NaN
payloads included. It runs without DAZ, and the models treat denormal inputs as zeros as
TensorFlow's DAZ mode makes the instructions do: where this CPU reads them otherwise it says so.

Run with the engine's venv (numba calls the instructions): `.venv/bin/python tools/capture_rcpps.py`.
TensorFlow's float32 Reciprocal, Rsqrt and Erfc refine these guesses with one Newton step; the
fixtures of tests/fixtures/ops/eigen_erf.npz and eigen_reciprocal.npz were made on the CPU whose
tables the module holds (AMD Zen 5).
"""

import argparse
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

_CHUNK = 1 << 24


def _instruction(name):
    """A numba function of one float32 running the SSE instruction `name` (an LLVM intrinsic)
    on it, and a NumPy function of a float32 array around it."""
    @intrinsic
    def lane(typingctx, x):
        def codegen(context, builder, signature, args):
            vector = ir.VectorType(ir.FloatType(), 4)
            function = builder.module.declare_intrinsic(name,
                                                        fnty=ir.FunctionType(vector, [vector]))
            first = ir.Constant(ir.IntType(32), 0)
            packed = builder.insert_element(ir.Constant(vector, ir.Undefined), args[0], first)
            return builder.extract_element(builder.call(function, [packed]), first)
        return types.float32(types.float32), codegen

    @numba.njit
    def fill(x, out):
        for j in range(x.size):
            out[j] = lane(x[j])

    def apply(x):
        out = np.empty_like(x)
        fill(x, out)
        return out
    return apply


rcpps = _instruction("llvm.x86.sse.rcp.ps")
rsqrtps = _instruction("llvm.x86.sse.rsqrt.ps")


def _from(first_bits, count):
    return (np.arange(count, dtype=np.uint32) + np.uint32(first_bits)).view(np.float32)


def _blob(table):
    """The table (float32 in [0.5, 1], falling) as the module stores it: its steps down from
    1.0 in units of the 12-bit mantissa, compressed."""
    units = np.rint(table.astype(np.float64) * 8192).astype(np.int64)
    steps = -np.diff(np.concatenate([[8192], units]))
    assert steps.min() >= 0 and steps.max() < 256
    return base64.b64encode(zlib.compress(steps.astype(np.uint8).tobytes(), 9)).decode()


def _wrapped(blob):
    lines = [blob[i:i + 88] for i in range(0, len(blob), 88)]
    return "(\n" + "\n".join(f'    "{line}"' for line in lines) + ")"


def _check(name, model, instruction, quick):
    """Compare model and instruction bit for bit; returns how many differ."""
    if quick:
        starts = range(np.float32(2.0 ** -10).view(np.uint32), np.float32(2.0 ** 10).view(np.uint32),
                       _CHUNK)
    else:
        starts = range(0, 1 << 32, _CHUNK)
    checked = wrong = denormal_wrong = 0
    for start in starts:
        x = _from(start, _CHUNK)
        differ = model(x).view(np.uint32) != instruction(x).view(np.uint32)
        denormal = (x.view(np.uint32) & 0x7F800000) == 0
        checked += x.size
        wrong += int(np.count_nonzero(differ & ~denormal))
        denormal_wrong += int(np.count_nonzero(differ & denormal))
    print(f"{name}: {wrong} of {checked} float32 differ from the model "
          f"({denormal_wrong} denormal inputs read other than as zeros)")
    return wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--range", action="store_true",
                        help="check [2**-10, 2**10) only, not every float32")
    args = parser.parse_args()
    from engine.kernels.cpu import x86_reciprocal

    one_to_four = _from(np.float32(1.0).view(np.uint32), 1 << 24)
    rcp_table = rcpps(one_to_four[:1 << 23])[::1 << 11]
    rsqrt_table = rsqrtps(one_to_four)[::1 << 11]
    # the models with this CPU's tables
    x86_reciprocal.TABLE_BITS[:] = rcp_table.view(np.int32)
    x86_reciprocal.RSQRT_TABLE_BITS[:] = rsqrt_table.view(np.int32)
    wrong = _check("rcpps", x86_reciprocal.rcpps, rcpps, args.range)
    wrong += _check("rsqrtps", x86_reciprocal.rsqrtps, rsqrtps, args.range)
    print(f"_RCP_STEPS = {_wrapped(_blob(rcp_table))}")
    print(f"_RSQRT_STEPS = {_wrapped(_blob(rsqrt_table))}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
