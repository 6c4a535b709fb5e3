"""CPU kernels of TensorFlow's SDCA helpers (core/kernels/sdca_ops.cc): SdcaFprint (each
string's farmhash Fingerprint128 as [low64, high64] int64) and SdcaShrinkL1 (every weight
w = sign(w) * max(|w| - l1 / l2, 0) in float32, in place)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.fingerprint128 import fingerprint128
from engine.kernels.cpu.state import uninitialized
from engine.runtime.resources import locked


@register("SdcaFprint")
def sdca_fprint(ctx, values):
    values = np.asarray(values)
    if values.ndim != 1:
        raise invalid(ctx, f"Input must be a vector, got shape {shape_str(values.shape)}")
    out = np.zeros((values.size, 2), np.uint64)
    for i, value in enumerate(values.tolist()):
        out[i] = fingerprint128(value if isinstance(value, bytes) else str(value).encode())
    return out.view(np.int64)


@register("SdcaShrinkL1")
def sdca_shrink_l1(ctx, *weights):
    shrinkage = np.float32(ctx.attrs["l1"]) / np.float32(ctx.attrs["l2"])
    for ref in weights:
        if ref.value is None:
            raise uninitialized(ctx, ref)
        with locked([ref]), np.errstate(invalid="ignore", divide="ignore"):
            w = ref.value
            w[...] = np.sign(w) * np.maximum(np.abs(w) - shrinkage, np.float32(0))
