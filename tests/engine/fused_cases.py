"""What the fused-chain tests share (CPU: test_fused_elementwise.py, GPU: test_cuda_fused.py):
the ops by kind, inputs with the edge values, and the comparison with the unfused reference
(exact for integers, booleans and correctly rounded float ops; within rounding for
exp/log/tanh/sigmoid/rsqrt, which libm, CUDA and NumPy's vectorised loops round apart)."""

import numpy as np

# (the CPU's float32 Erf and Erfc are exact too, tested by bits elsewhere)
INEXACT = {"Exp", "Log", "Tanh", "Sigmoid", "Rsqrt", "Erf", "Erfc"}
UNARY_OPS = ["Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Tanh", "Sigmoid", "Relu",
             "Floor", "Ceil", "Erf", "Erfc"]
BINARY_OPS = ["Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum",
              "SquaredDifference"]
COMPARE_OPS = ["Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"]


def values(dtype, size, rng):
    """`size` values of `dtype`: the extremes (ints) or NaN, infinities and signed zeros first."""
    if dtype in ("int32", "int64"):
        big = np.iinfo(dtype).max
        result = rng.integers(-1000, 1000, size).astype(dtype)
        result[:4] = [big, -big - 1, 0, -1][:size]  # overflow wraps as NumPy's
        return result
    result = rng.standard_normal(size).astype(dtype) * 10
    result[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0][:size]
    return result


def check(got, reference, ops):
    assert got.dtype == reference.dtype and got.shape == reference.shape
    if got.dtype.kind == "f" and set(ops) & INEXACT:
        np.testing.assert_allclose(got, reference, rtol=4 * np.finfo(got.dtype).eps,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, reference)
