"""What TensorFlow's float exp, log, log1p, expm1, tanh, sigmoid, softplus, Erf and Erfc cost
the engine on 10^6 values, against NumPy's own functions on the same values: the unfused
kernels' compiled loops (engine/kernels/compiled/eigen_arrays.py, at the session's default
intra-op threads), the NumPy reference they are tested against (engine/kernels/cpu/
eigen_float32.py, eigen_erf.py: Eigen's operations one NumPy call each), and a fused chain
holding them (engine/kernels/compiled/eigen_numba.py). NumPy has no erf: Erf and Erfc are
set against what the engine did before, math.erf per value."""

import math

import numpy as np

import bench

SIZE = 1_000_000


def cases():
    from engine.kernels import compiled
    from engine.kernels.cpu import eigen_erf, eigen_float32 as ef

    if compiled.module("eigen", wait=True) is None:
        raise bench.Skipped(f"numba is not available: {compiled.why_not('eigen')}")
    x = np.random.RandomState(0).uniform(-10.0, 10.0, SIZE).astype(np.float32)
    positive = np.abs(x) + np.float32(0.5)
    one = np.float32(1)
    table = [
        ("exp", x, lambda: np.exp(x)), ("log", positive, lambda: np.log(positive)),
        ("log1p", positive, lambda: np.log1p(positive)), ("expm1", x, lambda: np.expm1(x)),
        ("tanh", x, lambda: np.tanh(x)), ("sigmoid", x, lambda: one / (one + np.exp(-x))),
        ("softplus", x, lambda: np.logaddexp(np.float32(0), x)),
    ]
    rows = []
    for name, values, numpy in table:
        rows.append(bench.Case(f"float32 {name} of {SIZE:,} values, Eigen's bits (compiled loop)",
                               _bind(getattr(ef, name), values), numpy))
    for name, values, numpy in table:
        rows.append(bench.Case(f"float32 {name} of {SIZE:,} values, Eigen's bits (NumPy reference)",
                               _bind(_reference(ef, name), values), numpy))
    erf_x = x / np.float32(4)
    for dtype in (np.float32, np.float64):
        values = erf_x.astype(dtype)
        for name, scalar in (("erf", math.erf), ("erfc", math.erfc)):
            per_value = np.vectorize(scalar, otypes=[dtype])
            rows.append(bench.Case(
                f"{np.dtype(dtype).name} {name} of {SIZE:,} values, Eigen's bits (compiled loop) "
                f"vs math.{name} per value", _bind(getattr(eigen_erf, name), values),
                _bind(per_value, values)))
    rows.append(_fused_case(x, one))
    return rows


def _bind(function, values):
    return lambda: function(values)


def _reference(ef, name):
    """The function through its NumPy operations alone (never the compiled loop)."""
    packet = getattr(ef, f"packet_{name}", None) or ef.tanh_float
    scalar = getattr(ef, f"scalar_{name}", None) or ef.tanh_float
    return ef.packets_and_tail(packet, scalar)


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
