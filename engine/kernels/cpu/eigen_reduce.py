"""TensorFlow's float32 Sum and Mean over a tensor's innermost axes, Softmax and LogSoftmax,
bit for bit: the order of Eigen's additions, and its exp, log and reciprocal on the paths
Eigen takes. float16's are the same order in half (row_sums, half_softmax, half_log_softmax;
tools/make_half_fixtures.py, tests/engine/test_half_math.py).

TensorFlow collapses a reduction's adjacent kept and reduced dimensions; where the reduced
ones are the innermost, it reduces an [outer, inner] matrix along its rows, each output by
Eigen's InnerMostDimReducer (unsupported/Eigen/CXX11/src/Tensor/TensorReduction.h, as the
TensorFlow 2.21 wheel ships it), whatever the threads (they split the outputs):
- a row of at most 8 * 1024 values (packet size times kLeafSize): four packet accumulators
  of 8 lanes over each 32 values while 32 remain, summed into the first (0 + 1, + 2, + 3);
  then one packet at a time while 8 remain; the last n % 8 values in a scalar running from 0;
  the result that scalar plus predux of the packet (AVX's: the two halves added, then SSE's
  (h0 + h2) + (h1 + h3));
- a longer row is cut in two at `8 * ceil((first + ceil(n / 2)) / 8)`, first being the
  row's index in the flattened input (so the cut lies on a packet boundary of the whole
  tensor, not of the row), each half reduced so again, the halves added.
Mean is that sum divided by the count (reduction_ops.h ReduceEigenImpl for MeanReducer:
`sum / static_cast<T>(in.size() / out.size())`, a division, not a reciprocal's product).

Softmax and LogSoftmax are softmax_op_functor.h's SoftmaxEigenImpl over [batch, classes]:
- shifted = logits - max along the class (exact);
- LogSoftmax: shifted - log(sum(exp(shifted))): the exp is read by the reducer, so Eigen's
  packet exp on the values it reads as packets and glibc's expf on each row's scalar tail;
  the log of the [batch] sums is one flat expression: packet log on all but the last
  batch % 8 sums, logf on those;
- Softmax: e = exp(shifted) is a broadcasting expression, which Eigen's executor evaluates in
  blocks (TensorExecutor.h, tiled): the block size is kTaskSize / cost per coefficient,
  40000 / (34/8 (exp without FMA) + 1/8 (the subtraction) + 8 * 11/64 (the broadcast's
  block)) = 6,956 values, the block shape skewed to the inner dimension (TensorBlock.h): the
  whole tensor when it holds at most 6,956 values, else ceil(6956 / classes) whole rows (the
  last block what is left), else (more classes than that) pieces of 6,956 values along each
  row. Each block is evaluated flat: packet exp on all but its last size % 8 values, expf on
  those. Then e * (sum of e along the class).inverse(): the inverse a flat expression over
  the sums, EIGEN_FAST_MATH's rcpps and a Newton step on packets, 1 / x on the last
  batch % 8;
- all under the executor's FTZ/DAZ: a denormal read as zero, a denormal result flushed.
tools/make_reduce_order_fixtures.py writes TensorFlow's bits for these (at 1 and 2
intra-op threads: the same), tests/engine/test_reduce_order.py compares.

SoftmaxCrossEntropyWithLogits is xent_op.h's XentEigenImpl: the loss the reducer's row sums
of labels * (log(sum) - shifted), the log flat over the sums; the backprop (exp(shifted) /
sum) - labels, tiled in blocks of XENT_BLOCK values. SparseSoftmaxCrossEntropyWithLogits is
sparse_xent_op.h's SparseXentEigenImpl: the shifted
logits and their exp's row sums as LogSoftmax has them; the loss glibc's logf of the sum
minus the label's shifted logit (a generator: scalar code, summed along the row from 0); the
backprop exp(shifted), a flat expression (packet exp on all but the last size % 8 values),
divided by the row's sum, minus 1 at the label (tools/make_xent_fixtures.py, test_xent.py).

This module is the NumPy reference, vectorised across rows (the order is the same for every
row); engine/kernels/compiled/eigen_reduce_numba.py computes the same values compiled.
"""

import numpy as np

from engine.kernels.cpu import eigen_float32 as ef

PACKET = 8          # float32 lanes of an AVX packet
LEAF = 1024         # Eigen's kLeafSize: rows longer than PACKET * LEAF are cut in two
HALF_LEAF = 200     # Eigen's LeafSize<half>: a float16 row's leaf holds PACKET * 200 values
SOFTMAX_BLOCK = 6956  # values in a block of Softmax's exp (see above)
# SoftmaxCrossEntropyWithLogits' backprop, (exp(shifted) / sums.broadcast) - labels.broadcast:
# 40000 / (34/8 (exp) + 14/8 (the division) + 1/8 (the subtraction) + 2 * 8 * 11/64 (two
# broadcasts' blocks)) = 4,507 values a block (found as the only block of 8 to 45,000 that
# reproduced TensorFlow's bits on ten shapes, 4,506-4,508, then read off the cost model).
XENT_BLOCK = 4507
_F = np.float32
_TINY = _F(np.finfo(np.float32).tiny)
# Values whose magnitude is at least this (or zero) make no denormal partial sum: every
# partial sum is then a multiple of 2**-126, so 0 or at least the smallest normal.
_SAFE = _F(2.0 ** -103)


def _flush(x):
    return ef.flush(x)


def needs_flush(x):
    """Whether some value of `x` is nonzero and below 2**-103 in magnitude: only then can a
    denormal enter, or a partial sum fall below the smallest normal (FTZ/DAZ)."""
    magnitude = np.abs(x)
    return bool(np.any((magnitude < _SAFE) & (magnitude != 0)))


def _adder(flushing):
    if not flushing:
        return np.add
    return lambda a, b: _flush(np.add(a, b))


def _predux(acc, add):
    """Eigen's predux of AVX packets (rows of 8 lanes): halves added, then SSE's order. A
    float16 packet (Packet8h) is reduced as the float32 packet it converts to, the result
    rounded to half once (Eigen's predux<Packet8h>)."""
    if acc.dtype == np.float16:
        return _predux(acc.astype(_F), np.add).astype(np.float16)
    h = add(acc[:, :4], acc[:, 4:])
    return add(add(h[:, 0], h[:, 2]), add(h[:, 1], h[:, 3]))


def _leaf(x, add):
    """InnerMostDimReducer (vectorised, no tree) of each row of the 2-D `x`."""
    rows, n = x.shape
    acc0 = np.zeros((rows, PACKET), x.dtype)
    start = 0
    if n >= 4 * PACKET:
        v4 = n // (4 * PACKET) * (4 * PACKET)
        acc = np.zeros((4, rows, PACKET), x.dtype)
        blocks = x[:, :v4].reshape(rows, -1, 4, PACKET).transpose(1, 2, 0, 3)
        for block in blocks:
            acc = add(acc, block)
        acc0 = add(add(add(acc[0], acc[1]), acc[2]), acc[3])
        start = v4
    if start <= n - PACKET:
        for j in range(start, n // PACKET * PACKET, PACKET):
            acc0 = add(acc0, x[:, j:j + PACKET])
        start = n // PACKET * PACKET
    scalar = np.zeros(rows, x.dtype)
    for j in range(start, n):
        scalar = add(scalar, x[:, j])
    return add(scalar, _predux(acc0, add))


def _leaf_values(dtype):
    """The most values of a row one leaf reduces (Eigen's packet size times LeafSize)."""
    return PACKET * (HALF_LEAF if dtype == np.float16 else LEAF)


def _tree(x, first, add):
    """InnerMostDimReducer with its tree: rows whose first index in the flat input is
    `first` modulo PACKET (the cut depends on it)."""
    n = x.shape[1]
    if n <= _leaf_values(x.dtype):
        return _leaf(x, add)
    split = PACKET * -(-(first + -(-n // 2)) // PACKET)
    left = min(split - first, n)
    total = _tree(x[:, :left], first, add)
    if left < n:
        total = add(total, _tree(x[:, left:], first + left, add))
    return total


def row_sums(x, flushed_nonnegative=False):
    """The sum of each row of the 2-D float32 or float16 `x`, in Eigen's order (see the
    module's doc; float16's packets, Packet8h, have 8 lanes too, each addition a float32 one
    rounded to half, as NumPy's float16 add, its leaves of 8 * 200 values; no half value is denormal as a float32, so FTZ
    does not touch them). `flushed_nonnegative`: x's values are 0 or normal and not negative
    (exp's), so no partial sum is denormal: FTZ/DAZ need not be looked for."""
    rows, n = x.shape
    flushing = not flushed_nonnegative and x.dtype == _F and needs_flush(x)
    if flushing:
        x = _flush(x)
    add = _adder(flushing)
    with np.errstate(all="ignore"):
        if n <= _leaf_values(x.dtype):
            return _leaf(x, add)
        out = np.empty(rows, x.dtype)
        for r0 in range(min(PACKET, rows)):  # a row's cut depends on (r * n) % PACKET
            which = slice(r0, rows, PACKET)
            out[which] = _tree(x[which], r0 * n, add)
        return out


def row_means(x):
    with np.errstate(all="ignore"):
        return row_sums(x) / x.dtype.type(x.shape[1])


def innermost(x, axis):
    """(outer, inner) where reducing `x` over `axis` is TensorFlow's innermost-dimension
    reduction of an [outer, inner] matrix with outer > 1 (its dimensions of size 1 dropped,
    every reduced one after every kept one), for a C-contiguous float32 ndarray; else None
    (a reduction to one value is Eigen's FullReducer, which shards by threads: not here).
    float16 too: its rows are summed in the same order (row_sums)."""
    if not (isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float16)
            and x.flags.c_contiguous):
        return None
    outer = inner = 1
    for a, size in enumerate(x.shape):
        if size == 1:
            continue
        if a in axis:
            inner *= size
        elif inner > 1:
            return None  # a kept dimension after a reduced one
        else:
            outer *= size
    if outer < 2 or inner < 2:
        return None
    return outer, inner


def outer(x, axis):
    """(A, B, C) where reducing `x` over `axis` is TensorFlow's reduction of an [A, B, C]
    tensor over B, the kept C innermost (A is 1 for a reduction over leading axes: a bias's
    gradient through `x + b`, tf.nn.moments over N, H and W), its dimensions of size 1
    dropped and adjacent ones of a kind merged as TensorFlow's ReductionHelper does, for a
    C-contiguous float32, float64 or float16 ndarray; else None."""
    if not (isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64, np.float16)
            and x.flags.c_contiguous and x.size):
        return None
    groups = []
    for a, size in enumerate(x.shape):
        if size == 1:
            continue
        reduced = a in axis
        if groups and groups[-1][1] == reduced:
            groups[-1][0] *= size
        else:
            groups.append([size, reduced])
    kinds = [reduced for _, reduced in groups]
    if kinds == [True, False]:
        return 1, groups[0][0], groups[1][0]
    if kinds == [False, True, False]:
        return tuple(size for size, _ in groups)
    return None


def lanes_of(dtype):
    """An AVX packet's lanes of the dtype (float32 8, float64 4, float16 8: Packet8h)."""
    return PACKET if np.dtype(dtype) in (np.float32, np.float16) else PACKET // 2


def packet_outputs(outer_size, inner, lanes):
    """Boolean [A, C]: the outputs of an [A, B, C] -> [A, C] reduction Eigen computes as
    packets (TensorReduction.h's packet() with PreservingInnerMostDims): those of each
    aligned packet of the flat output that lies within one row of C. The others, a packet
    across two rows and the flat output's last A * C % lanes, are reduced one at a time."""
    n = outer_size * inner
    starts = np.arange(0, n - n % lanes, lanes)
    starts = starts[starts % inner + lanes <= inner]
    flat = np.zeros(n, bool)
    flat[(starts[:, None] + np.arange(lanes)).ravel()] = True
    return flat.reshape(outer_size, inner)


def outer_sums(x3):
    """The [A, C] sums over axis 1 of the float [A, B, C] `x3` in Eigen's order (its
    reduction preserving the innermost dimension, InnerMostDimPreserver): an output reduced
    one at a time adds B's values in order from 0; an output of a packet, where B >= 16,
    keeps four running sums (of b = 0, 4, 8, ...; 1, 5, 9, ...; ...) up to the last
    multiple of 4, adds the other three to the first in turn, then the values left one by
    one (fewer than 16: in order, as the others). The same at any intra-op thread count
    (they split the outputs). tools/make_outer_reduce_fixtures.py checks it against
    TensorFlow 2.21; under FTZ/DAZ (float32) as the innermost reduction above. float16 the
    same in half (8-lane packets, each add rounded to half: tools/make_half_fixtures.py)."""
    outer_size, rows, inner = x3.shape
    flushing = x3.dtype == np.float32 and needs_flush(x3)
    if flushing:
        x3 = _flush(x3)
    add = _adder(flushing)
    with np.errstate(all="ignore"):
        in_order = _in_order(x3, 0, rows, add)
        if rows < 16:
            return add(in_order, x3.dtype.type(0))
        packets = packet_outputs(outer_size, inner, lanes_of(x3.dtype))
        if not packets.any():
            return add(in_order, x3.dtype.type(0))
        whole = rows - rows % 4
        running = [_in_order(x3[:, k:whole:4], 0, whole // 4, add) for k in range(4)]
        total = add(add(add(running[0], running[1]), running[2]), running[3])
        for b in range(whole, rows):
            total = add(total, x3[:, b])
        return add(np.where(packets, total, in_order), x3.dtype.type(0))


def _in_order(x3, start, stop, add):
    """x3[:, start:stop] summed over axis 1 one value after another (from the first)."""
    if add is np.add:
        return np.add.reduce(x3[:, start:stop], axis=1) if x3.shape[2] > 1 else \
            np.add.accumulate(x3[:, start:stop], axis=1)[:, -1]
    total = x3[:, start]
    for b in range(start + 1, stop):
        total = add(total, x3[:, b])
    return total


def _flat(v, packet, scalar):
    """A flat expression over the 1-D `v`: `packet` on all but the last len % PACKET."""
    end = v.size - v.size % PACKET
    out = np.empty_like(v)
    out[:end] = packet(v[:end])
    out[end:] = scalar(v[end:])
    return out


def _leaf_packets(n):
    """Which of a row's n values the reducer reads as packets (the rest: its scalar tail)."""
    packets = np.zeros(n, bool)
    if n >= PACKET:
        packets[:n // PACKET * PACKET] = True
    return packets


def _tree_packets(n, first):
    if n <= PACKET * LEAF:
        return _leaf_packets(n)
    split = PACKET * -(-(first + -(-n // 2)) // PACKET)
    left = min(split - first, n)
    return np.concatenate([_tree_packets(left, first), _tree_packets(n - left, first + left)])


def reduced_exp(shifted):
    """exp of each value as the reducer reads it: packet exp on its packets, expf on the
    tails."""
    return _exp_on_paths(shifted, _reducer_packets(*shifted.shape))


def _reducer_packets(rows, n):
    """Which values of each of `rows` rows of n the reducer reads as packets."""
    if n <= PACKET * LEAF:
        return _leaf_packets(n)
    return np.stack([_tree_packets(n, r * n) for r in range(rows)])


def _exp_on_paths(shifted, packets, packet_exp=None):
    """Packet exp of `shifted` (`packet_exp` where given), but glibc's expf where `packets`
    is False (a few values a row: expf through ctypes costs a microsecond a value)."""
    e = (ef.packet_exp(shifted) if packet_exp is None else packet_exp).astype(_F)
    scalar = ~np.broadcast_to(packets, shifted.shape)
    if scalar.any():
        e[scalar] = _scalar_exp(shifted[scalar])
    return e


def _scalar_exp(values):
    """glibc's expf of each value, with FTZ/DAZ: the compiled loops' scalar path where they are
    loaded (ctypes costs a microsecond a value: 256 of them were most of a [128, 10] loss)."""
    values = np.ascontiguousarray(values, _F).reshape(-1)
    loops = ef.compiled_loops(values.size)
    if loops is None or not values.size:
        return ef.scalar_exp(values)
    out = np.empty_like(values)
    loops.run("exp", out, [values], 0)
    return out


def block_packets(rows, n, block=SOFTMAX_BLOCK):
    """Which values of Softmax's [rows, n] exp take the packet path (tiled evaluation in
    blocks of `block` values: the expression's own, XENT_BLOCK for SoftmaxCrossEntropy's)."""
    packets = np.ones((rows, n), bool)
    flat = packets.reshape(-1)
    if rows * n <= block:  # one block, the whole tensor
        flat[rows * n - rows * n % PACKET:] = False
        return packets
    if n <= block:  # blocks of whole rows
        block_rows = -(-block // n)
        for r in range(0, rows, block_rows):
            start, end = r * n, min(r + block_rows, rows) * n
            flat[end - (end - start) % PACKET:end] = False
        return packets
    for start in range(0, n, block):  # pieces of each row
        end = min(start + block, n)
        packets[:, end - (end - start) % PACKET:end] = False
    return packets


def _shifted(x):
    x = _flush(x)
    return _flush(x - np.max(x, axis=-1, keepdims=True))


def softmax(x):
    """TensorFlow's float32 Softmax of the 2-D `x` along its rows."""
    with np.errstate(all="ignore"):
        shifted = _shifted(x)
        e = _exp_on_paths(shifted, block_packets(*x.shape))
        inverse = _flat(row_sums(e, True), ef.packet_reciprocal, ef.scalar_reciprocal)
        return _flush(e * inverse[:, None])


def log_softmax(x):
    """TensorFlow's float32 LogSoftmax of the 2-D `x` along its rows."""
    with np.errstate(all="ignore"):
        shifted = _shifted(x)
        log_sums = _flat(row_sums(reduced_exp(shifted), True), ef.packet_log, ef.scalar_log)
        return _flush(shifted - log_sums[:, None])


def half_softmax(x):
    """TensorFlow's float16 Softmax of the 2-D `x` along its rows: SoftmaxEigenImpl in half,
    each step a float32 one rounded to half (Eigen's half ops, NumPy's float16 ufuncs):
    shifted, exp, the row sums in the reducer's order, their inverse, then the product."""
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e * (np.float16(1) / row_sums(e))[:, None]


def half_log_softmax(x):
    """TensorFlow's float16 LogSoftmax of the 2-D `x` along its rows (as half_softmax)."""
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=-1, keepdims=True)
        return shifted - np.log(row_sums(np.exp(shifted)))[:, None]


def sparse_softmax_cross_entropy(x, labels):
    """TensorFlow's float32 (loss, backprop) of SparseSoftmaxCrossEntropyWithLogits of the
    2-D `x` and its labels (each in [0, classes): the kernel checks them first). One packet
    exp of every shifted value (eigen_float32.exp, compiled where loaded) serves both the
    reducer's packets and the flat expression's; glibc's expf the scalar values of each."""
    with np.errstate(all="ignore"):
        shifted = _shifted(x)
        rows, n = shifted.shape
        flat = shifted.reshape(-1)
        size = flat.size
        packet = _packet_exp(shifted)
        sums = row_sums(_exp_on_paths(shifted, _reducer_packets(rows, n), packet), True)
        rows_at = np.arange(rows)
        labels = np.asarray(labels).reshape(-1)
        # the generator's row: zeros but at the label, summed from 0 (-0.0 comes out +0.0)
        loss = _flush(ef.scalar_log(sums) - shifted[rows_at, labels]) + _F(0)
        e = packet.copy()
        end = size - size % PACKET
        e.reshape(-1)[end:] = _scalar_exp(flat[end:])
        backprop = _flush(_flush(e) / sums[:, None])
        backprop[rows_at, labels] = _flush(backprop[rows_at, labels] - _F(1))
        return loss, backprop


def softmax_cross_entropy(x, labels):
    """TensorFlow's float32 (loss, backprop) of SoftmaxCrossEntropyWithLogits of the 2-D `x`
    and `labels` of its shape (xent_op.h's XentEigenImpl): the loss the row sums, in the
    reducer's order, of labels * (log(sum) - shifted), the log a flat expression over the sums
    (packet log but on the last rows % 8); the backprop (exp(shifted) / sum) - labels, a
    broadcasting expression evaluated in tiled blocks of XENT_BLOCK values (exp's packet path
    but on each block's last size % 8)."""
    with np.errstate(all="ignore"):
        shifted = _shifted(x)
        rows, n = shifted.shape
        packet = _packet_exp(shifted)
        sums = row_sums(_exp_on_paths(shifted, _reducer_packets(rows, n), packet), True)
        logs = _flat(sums, ef.packet_log, ef.scalar_log)
        loss = row_sums(_flush(labels * _flush(logs[:, None] - shifted)))
        e = _exp_on_paths(shifted, block_packets(rows, n, XENT_BLOCK), packet)
        return loss, _flush(_flush(e / sums[:, None]) - labels)


def _packet_exp(shifted):
    """Eigen's packet exp of every value of `shifted` (eigen_float32.exp over a whole number of
    packets: its compiled loops where loaded)."""
    flat = shifted.reshape(-1)
    padded = np.zeros(-(-flat.size // PACKET) * PACKET, _F)
    padded[:flat.size] = flat
    return ef.exp(padded)[:flat.size].reshape(shifted.shape)
