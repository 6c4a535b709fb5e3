"""RandomShuffle: the rows of its input in TensorFlow's order (random_shuffle_op.cc).

A forward Fisher-Yates shuffle, row i swapped with row i + u % (n - i), u the next uint32 of
the node's Philox stream read one at a time (SingleSampleAdapter); the stream moves on by
ceil((n - 1) / 4) blocks per run (ReserveSamples32), so a seeded shuffle equals TensorFlow's.
"""

import numpy as np

from engine.kernels import register


@register("RandomShuffle")
def random_shuffle(ctx, value):
    value = np.asarray(value)
    if value.size <= 1 or value.ndim == 0 or value.shape[0] <= 1:
        return value
    size = value.shape[0]
    samples = size - 1
    blocks = (samples + 3) // 4
    generator = ctx.rng().reserve_random_outputs(blocks, multiplier=1)
    return shuffle_rows(value, generator)


def shuffle_rows(value, generator):
    """value's rows in the order of a Fisher-Yates shuffle reading one uint32 a swap from
    `generator` (TensorFlow's RandomShuffle over a SingleSampleAdapter)."""
    if value.size <= 1 or value.ndim == 0 or value.shape[0] <= 1:
        return value
    size = value.shape[0]
    samples = size - 1
    words = generator.next_blocks((samples + 3) // 4).reshape(-1)[:samples].astype(np.int64)
    permutation = np.arange(size)
    for i in range(samples):
        j = i + int(words[i]) % (size - i)
        permutation[i], permutation[j] = permutation[j], permutation[i]
    return value[permutation]
