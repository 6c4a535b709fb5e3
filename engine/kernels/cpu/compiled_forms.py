"""When a CPU kernel takes its compiled form (engine/kernels/compiled): the convolutions,
pooling and training updates that have one.

Float32 and float64 only (the other dtypes stay NumPy's). numba is loaded for them
(compiled/__init__.py: loading costs the caller's thread while it runs) at once for a piece
of work of LARGE multiply-adds or elements, else at the OFTEN-th request: a training loop's
second step has them, a test's tiny graph does not. Once loaded, a module serves every size:
a compiled call costs microseconds where NumPy's reference costs tens of them.
"""

import numpy as np

from engine.kernels import compiled

LARGE = 1 << 20
OFTEN = 16
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_DEMAND = {}


def module(name, dtype, work):
    """The compiled module `name` ("conv", "pool", "training") when it serves `work` items
    in `dtype` now, else None (the caller runs the NumPy reference)."""
    if np.dtype(dtype) not in _FLOATS or not compiled.enabled():
        return None
    loaded = compiled.loaded(name)
    if loaded is not None:
        return loaded
    demand = _DEMAND.setdefault(name, compiled.Demand(large=LARGE, often=OFTEN))
    return compiled.module(name) if demand.worth_loading(work) else None
