"""The cases of tests/fixtures/ops/reduce_order.npz (tools/make_reduce_order_fixtures.py):
float32 Sum and Mean over innermost axes, Softmax and LogSoftmax, on seeded inputs that
both the fixture writer (with TensorFlow) and the test (with the engine) make again.

Row lengths cover each part of Eigen's InnerMostDimReducer (the scalar tail alone, single
packets, the four-packet phase, the tree past 8 * 1024) and, for Softmax, its exp's blocks
of 6,956 values (one block, blocks of whole rows, pieces of a row). Sum inputs span sixteen
binades, so the order of additions shows in the last bits; Softmax inputs are either
N(0, 4) or values in [-10, 0] with a 0 in each row (exp's packet and scalar paths differ on
a fifth of those).
"""

import hashlib

import numpy as np

LENGTHS = [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 255,
           256, 257, 500, 768, 1000, 1023, 1024, 1025, 2049, 3072, 4097, 5000, 8192, 8193,
           9001, 20001]
OUTER = [2, 3, 17]
# (name, shape, axes): the reduced axes innermost once dimensions of size 1 are dropped
SHAPED = [("rank3", (4, 6, 10), (1, 2)), ("rank4", (2, 3, 4, 50), (2, 3)),
          ("one_between", (5, 1, 40), (2,)), ("one_after", (3, 40, 1), (1,)),
          ("one_reduced", (6, 33, 1), (1, 2)), ("bert", (1024, 768), (1,))]
SOFTMAX_LENGTHS = [1, 2, 3, 7, 8, 9, 31, 32, 33, 64, 100, 127, 128, 129, 768, 1000, 1023,
                   1024, 1025, 2049, 3072, 4097, 5000, 6956, 6957, 7000, 9001]
SOFTMAX_ROWS = [1, 2, 7, 9, 33]
SOFTMAX_SHAPED = [("attention", (2, 3, 5, 128)), ("many_short", (3001, 3)),
                  ("blocks", (1000, 9)), ("wide_blocks", (100, 1025)), ("specials", (16, 40))]


def sum_cases():
    """{name: (shape, axes)}"""
    cases = {f"rows{outer}_n{n}": ((outer, n), (1,)) for n in LENGTHS for outer in OUTER
             if outer * n <= 200_000}
    cases.update({name: (shape, axes) for name, shape, axes in SHAPED})
    cases["tiny"] = ((12, 300), (1,))
    return cases


def softmax_cases():
    """{name: shape}"""
    cases = {f"rows{rows}_n{n}": (rows, n) for n in SOFTMAX_LENGTHS for rows in SOFTMAX_ROWS
             if rows * n <= 80_000}
    cases.update(dict(SOFTMAX_SHAPED))
    return cases


def _seed(name):
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")


def sum_input(name, shape):
    rng = np.random.RandomState(_seed(name))
    if name == "tiny":  # FTZ/DAZ: denormals, values whose sums fall below 2**-126
        x = rng.standard_normal(shape) * 2.0 ** rng.uniform(-135, -98, shape)
        x[::3] = rng.standard_normal(x[::3].shape)  # rows with normal values too
        return x.astype(np.float32)
    return (rng.standard_normal(shape) * 2.0 ** rng.uniform(-8, 8, shape)).astype(np.float32)


def softmax_input(name, shape):
    rng = np.random.RandomState(_seed(name))
    if name == "specials":
        x = (rng.standard_normal(shape) * 4).astype(np.float32)
        x[0, -3:] += np.float32(-10000.0)  # an attention mask's padding
        x[1, :] = -np.inf
        x[2, 0] = np.inf
        x[3, :] = 0.0
        x[3, 1::2] = -0.0
        x[4, 5] = np.nan
        x[5, :] = rng.standard_normal(shape[1]) * 1e-39  # denormals
        x[6, :] = rng.standard_normal(shape[1]) * 1e-37
        x[7, :] = rng.uniform(-200, 0, shape[1])  # exp's results denormal or zero
        x[8, :] = 88.0 + rng.uniform(0, 1, shape[1])
        return x
    if _seed(name) % 2:
        return (rng.standard_normal(shape) * 4).astype(np.float32)
    x = -rng.uniform(0, 10, shape).astype(np.float32)
    flat = x.reshape(-1, shape[-1])
    flat[np.arange(flat.shape[0]), rng.randint(0, shape[-1], flat.shape[0])] = 0.0
    return x


def canonical_bits(values):
    """A float32 array's bits, every NaN as 0x7FC00000: NaN payloads are not reproduced
    (Eigen's plog makes 0xFFFFFFFF, x86's invalid operations 0xFFC00000)."""
    values = np.ascontiguousarray(values, np.float32)
    return np.where(np.isnan(values), np.uint32(0x7FC00000), values.view(np.uint32))


def digest(values):
    """sha256 of a float32 array's canonical bits, as hex."""
    return hashlib.sha256(canonical_bits(values).astype("<u4").tobytes()).hexdigest()


def xent_cases():
    """{name: (logits, labels)} of tests/fixtures/ops/sparse_xent.npz (tools/
    make_xent_fixtures.py): the Softmax cases' logits, but rows with a NaN or an infinity
    (their losses are NaN either way), labels seeded by the case's name."""
    out = {}
    for name, shape in softmax_cases().items():
        logits = softmax_input(name, shape).reshape(-1, shape[-1])
        if not np.isfinite(logits).all():
            logits = logits[np.isfinite(logits).all(axis=1)]
        rng = np.random.RandomState(_seed("labels" + name))
        out[name] = logits, rng.randint(0, logits.shape[1], logits.shape[0]).astype(np.int64)
    return out


def dense_xent_cases():
    """{name: (logits, labels)} of SoftmaxCrossEntropyWithLogits in the same fixture: the
    xent_cases' logits with labels of their shape, probability rows (seeded) for one case in
    two, one-hot rows (the sparse labels') for the other."""
    out = {}
    for name, (logits, sparse) in xent_cases().items():
        rng = np.random.RandomState(_seed("dense" + name))
        if _seed(name) % 2:
            labels = rng.uniform(0, 1, logits.shape).astype(np.float32)
            labels /= np.maximum(labels.sum(axis=1, keepdims=True), np.float32(1e-30))
        else:
            labels = np.zeros(logits.shape, np.float32)
            labels[np.arange(logits.shape[0]), sparse] = 1
        out[name] = logits, labels
    return out
