"""When a CPU kernel takes its compiled form (engine/kernels/compiled): the convolutions,
pooling and training updates that have one.

Float32 and float64 only (the other dtypes stay NumPy's). Most modules give the NumPy
reference's bits, so when they load changes no value: numba is loaded for them
(compiled/__init__.py: loading costs the caller's thread while it runs) at once for a piece
of work of LARGE multiply-adds or elements, else at the OFTEN-th request: a training loop's
second step has them, a test's tiny graph does not. Once loaded, a module serves every size:
a compiled call costs microseconds where NumPy's reference costs tens of them.

The modules in FIRST_CALL sum in another order than their reference (below), so a switch
from one to the other mid-process would change a program's values at the step where the
module loaded, and from run to run with the cache's warmth. They are loaded on the first
request, in the caller's thread, whatever the cache: every call of a process takes the same
path (the reference throughout only where numba is missing or GRAPH_INSPECTOR_COMPILED=0).
"""

import numpy as np

from engine.kernels import compiled

LARGE = 1 << 20
OFTEN = 16
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_DEMAND = {}
# Measured 2026-11-28 (tools/compiled_bits.py, float32 and float64, 1 and 2 threads, SAME and
# VALID, strides 1 and 2): the compiled convolutions (each value its terms added in one lane
# with fused multiply-adds) differ from the reference (im2col and BLAS, whose order of
# additions is OpenBLAS's kernel's: another on another CPU) in 93-97% of the values, the
# depthwise ones (LLVM contracts and reassociates their sums) in 69-98%; NumPy has no fused
# multiply-add, so the reference cannot give their bits at any reasonable speed, and their
# bits are no nearer TensorFlow's than the reference's (conv_norm fixtures: 867 vs 828 of
# 1866 float32 values differ from TensorFlow's). Loading them costs the first convolution
# 0.3-0.5 s from numba's warm disk cache (importing numba; depthwise then 0.03 s), 4.3 s
# (conv) and 8.2 s (depthwise) compiled from a cold one (`graph-inspector warm`, run by
# `make setup`, compiles them beforehand).
FIRST_CALL = frozenset({"conv", "depthwise"})


def module(name, dtype, work):
    """The compiled module `name` ("conv", "pool", "training") when it serves `work` items
    in `dtype` now, else None (the caller runs the NumPy reference)."""
    if np.dtype(dtype) not in _FLOATS or not compiled.enabled():
        return None
    loaded = compiled.loaded(name)
    if loaded is not None:
        return loaded
    if name in FIRST_CALL:
        return compiled.module(name, wait=True)
    demand = _DEMAND.setdefault(name, compiled.Demand(large=LARGE, often=OFTEN))
    return compiled.module(name) if demand.worth_loading(work) else None
