"""NumPy CPU kernel of ReverseSequence: each batch row's first seq_lengths[i] steps reversed."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


@register("ReverseSequence")
def reverse_sequence(ctx, x, seq_lengths):
    seq_dim, batch_dim = ctx.attrs["seq_dim"], ctx.attrs.get("batch_dim", 0)
    lengths = np.asarray(seq_lengths).reshape(-1)
    if len(lengths) != x.shape[batch_dim]:
        raise invalid(ctx, f"Length of seq_lengths != input.dims({batch_dim}), "
                           f"({len(lengths)} vs. {x.shape[batch_dim]})")
    if (lengths < 0).any() or (lengths > x.shape[seq_dim]).any():
        raise invalid(ctx, f"seq_lens(i) must be in [0, input.dims({seq_dim})]")
    out = np.array(x, copy=True)
    for row, length in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch_dim], src[seq_dim] = row, slice(0, int(length))
        out[tuple(src)] = np.flip(x[tuple(src)], axis=seq_dim - (batch_dim < seq_dim))
    return out
