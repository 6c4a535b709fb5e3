"""What TensorFlow's float32 exp, log, tanh, sigmoid and softplus cost the engine: the Eigen
functions it computes them with (engine/kernels/cpu/eigen_float32.py, NumPy operations in
Eigen's order), against NumPy's own ufuncs on the same 10^6 values; and a fused chain
holding them, compiled (engine/kernels/compiled/eigen_numba.py), against the same NumPy."""

import numpy as np

import bench

SIZE = 1_000_000


def cases():
    from engine.kernels.cpu import eigen_float32

    x = np.random.RandomState(0).uniform(-10.0, 10.0, SIZE).astype(np.float32)
    positive = np.abs(x) + np.float32(0.5)
    one = np.float32(1)
    table = [
        ("exp", lambda: eigen_float32.exp(x), lambda: np.exp(x)),
        ("log", lambda: eigen_float32.log(positive), lambda: np.log(positive)),
        ("tanh", lambda: eigen_float32.tanh(x), lambda: np.tanh(x)),
        ("sigmoid", lambda: eigen_float32.sigmoid(x), lambda: one / (one + np.exp(-x))),
        ("softplus", lambda: eigen_float32.softplus(x), lambda: np.logaddexp(np.float32(0), x)),
    ]
    cases = [bench.Case(f"float32 {name} of {SIZE:,} values, Eigen's bits (NumPy ops)",
                        engine, numpy) for name, engine, numpy in table]
    cases.append(_fused_case(x, one))
    return cases


def _fused_case(x, one):
    from engine.kernels import compiled
    from engine.kernels.compiled import fused_numba
    from engine.kernels.fused_chain import Chain

    if compiled.module("fused", wait=True) is None:
        raise bench.Skipped(f"numba is not available: {compiled.why_not('fused')}")
    chain = Chain(["Mul", "Exp", "Sigmoid"], ["i0,i0", "t0", "t1"], ["float32"] * 3)
    function = fused_numba.kernel(chain, ["float32"], [False], wait=True)
    out = np.empty_like(x)

    def fused():
        return fused_numba.run(function, out, [x])

    def numpy_chain():
        return one / (one + np.exp(-np.exp(x * x)))

    return bench.Case(f"fused chain sigmoid(exp(x*x)) of {SIZE:,} float32, Eigen's bits "
                      f"(compiled)", fused, numpy_chain)
