"""TensorFlow's float32 innermost-axis Sum and Mean, Softmax and LogSoftmax compiled: the
operations of engine/kernels/cpu/eigen_reduce.py (the reference, whose docstring says what
Eigen does) in the same order, row by row, the rows split over the intra-op threads.

A row's sum is InnerMostDimReducer's: 32 running lanes (its four packets) while 32 values
remain, then the first 8 lanes alone, a scalar tail, AVX's predux; four rows' 32 lanes go
side by side (numba keeps them in memory: a lone row waits on its last add). numba without
fastmath neither reorders nor fuses, so the values are the reference's. FTZ/DAZ costs little
on the common path: the same loop keeps the smallest magnitude of each lane (an integer
minimum), and a group of rows holding a nonzero value below 2**-103 (only such a row can make
a denormal) is summed again with every value and partial sum flushed. A row longer than
Eigen's leaf (8 * 1024) goes through its tree (_tree_sum); Softmax rows longer than its exp's
block (6,956) and LogSoftmax rows longer than a leaf stay with the reference (`fits`).

Softmax and LogSoftmax take four rows at a time through scratch rows (so `out` may be `x`, a
forwarded buffer): their maxima side by side, the shifted values, their exp on the path Eigen
takes for each (packet_exp_nonpositive, eigen_numba's packet lane for x <= 0 without float64
lanes; its scalar lane on the tails), the rows' sums side by side, then each row scaled by
the inverse of its sum or less the log of it (packet or scalar path by the row's place among
the batch's flat packets).

The functions' source, with eigen_numba's lanes, is one generated file named by its hash
(engine/kernels/compiled/numba_source.py), so numba's cache goes stale with any lane.
"""

import numpy as np
import numba  # noqa: F401 (imported here, in the loader's thread)

from engine.kernels.compiled import eigen_numba, numba_source
from engine.kernels.compiled.reduce_numba import _LANES, _row_max  # noqa: F401 (source)
# the lanes, for this module's own functions (the generated file has their source)
from engine.kernels.compiled.eigen_numba import (  # noqa: F401
    _EXP_HI, _EXP_LO, _EXP_P2, _EXP_P3, _EXP_P4, _EXP_P5, _EXP_P6, _HALF, _LN2_HI, _LN2_LO,
    _LOG2E, _ONE, _ZERO, _flush, _maximum, packet_exp, packet_log, packet_reciprocal,
    scalar_exp, scalar_log, scalar_reciprocal)
from engine.kernels.cpu.eigen_reduce import LEAF, PACKET, SOFTMAX_BLOCK
from engine.runtime import threads

_R_LANES = np.int64(32)  # four packets of 8
_R_ZERO = np.float32(0.0)
_R_SAFE = np.float32(2.0 ** -103)
_R_MAGNITUDE, _R_ONE_BIT = np.uint32(0x7FFFFFFF), np.uint32(1)
_R_SAFE_BITS = np.uint32(np.float32(2.0 ** -103).view(np.uint32) - 1)
_R_NO_BITS = np.uint32(0xFFFFFFFF)
# A row whose maximum m has |m| >= 2**-100 makes no denormal x - m (x <= m lies within
# 2**-126 of m only where its ulp is above that), and a denormal x gives -m, as DAZ's 0 does.
_R_SAFE_MAX = np.float32(2.0 ** -100)
_R_M_LOW, _R_BIAS = np.float32(-152.0), np.int32(127)
# A piece of work handed to another thread holds at least this many values: a sum reads each
# value once and does one add (as Relu, activation_numba: a tensor of up to 2M values stays
# on one thread; Mean of [1024, 768] took 0.136 ms split in 8 pieces over two threads, 0.072
# on one, 2026-11-28); Softmax spends about a nanosecond a value (as the float loops,
# eigen_arrays: from a quarter million).
_MIN_SUM_ITEMS_PER_PIECE = 1 << 20
_MIN_SOFTMAX_ITEMS_PER_PIECE = 1 << 18
# Moments read each value once and square its difference in the first-level cache: between a
# sum's cost and a softmax's; split as a softmax is (measured below, bench.bert_signature).
_MIN_MOMENTS_ITEMS_PER_PIECE = 1 << 18


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def packet_exp_nonpositive(x):
    """eigen_numba.packet_exp for x <= 0 (and NaN): a softmax's shifted values. Its 2**m is
    two float32 powers of two, 2**(m - m // 2) and 2**(m // 2) (m in [-152, 0]): the first
    product is exact and normal, so the second rounds once, as packet_exp's float64 product
    and single rounding do, without float64 lanes (1M values 0.35 ms, packet_exp 0.49).
    Every float32 from -0 down to -NaN, and +0 to 2**-130, gives packet_exp's bits (NaN for
    NaN) (tests/engine/test_reduce_order.py samples them)."""
    c = _EXP_HI if x > _EXP_HI else x
    m = np.floor(c * _LOG2E + _HALF)
    r = m * _LN2_HI + c
    r = m * _LN2_LO + r
    r2 = r * r
    p_even = r2 * _EXP_P6 + _EXP_P4
    p_odd = r2 * _EXP_P5 + _EXP_P3
    p_even = r2 * p_even + _EXP_P2
    y = r * p_odd + p_even
    y = r2 * y + (r + _ONE)
    m = m if m > _R_M_LOW else _R_M_LOW
    m = m if m < _ZERO else _ZERO
    whole = np.int32(m)
    half = np.int32(whole >> 1)
    first = np.int32((whole - half + _R_BIAS) << 23).view(np.float32)
    second = np.int32((half + _R_BIAS) << 23).view(np.float32)
    y = _maximum((y * first) * second, x)  # x itself for NaN
    return _ZERO if x < _EXP_LO else _flush(y)


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _leaf_sum(row, acc):
    """InnerMostDimReducer's sum of `row` (at most a leaf long); acc: 32 scratch lanes."""
    n = row.shape[0]
    for k in range(_R_LANES):
        acc[k] = _R_ZERO
    start = 0
    if n >= 32:
        v4 = n // 32 * 32
        for j in range(0, v4, 32):
            for k in range(_R_LANES):
                acc[k] += row[j + k]
        for k in range(8):
            acc[k] = ((acc[k] + acc[k + 8]) + acc[k + 16]) + acc[k + 24]
        start = v4
    if start <= n - 8:
        v = n // 8 * 8
        for j in range(start, v, 8):
            for k in range(8):
                acc[k] += row[j + k]
        start = v
    s = _R_ZERO
    for j in range(start, n):
        s += row[j]
    h0, h1 = acc[0] + acc[4], acc[1] + acc[5]
    h2, h3 = acc[2] + acc[6], acc[3] + acc[7]
    return s + ((h0 + h2) + (h1 + h3))


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _leaf_sum_flushing(row, acc):
    """_leaf_sum under FTZ/DAZ: every value read and every sum made flushed."""
    n = row.shape[0]
    for k in range(_R_LANES):
        acc[k] = _R_ZERO
    start = 0
    if n >= 32:
        v4 = n // 32 * 32
        for j in range(0, v4, 32):
            for k in range(_R_LANES):
                acc[k] = _flush(acc[k] + _flush(row[j + k]))
        for k in range(8):
            acc[k] = _flush(_flush(_flush(acc[k] + acc[k + 8]) + acc[k + 16]) + acc[k + 24])
        start = v4
    if start <= n - 8:
        v = n // 8 * 8
        for j in range(start, v, 8):
            for k in range(8):
                acc[k] = _flush(acc[k] + _flush(row[j + k]))
        start = v
    s = _R_ZERO
    for j in range(start, n):
        s = _flush(s + _flush(row[j]))
    h0, h1 = _flush(acc[0] + acc[4]), _flush(acc[1] + acc[5])
    h2, h3 = _flush(acc[2] + acc[6]), _flush(acc[3] + acc[7])
    return _flush(s + _flush(_flush(h0 + h2) + _flush(h1 + h3)))


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _tiny_count(row):
    """How many values of `row` are nonzero and below 2**-103 in magnitude."""
    count = 0
    for j in range(row.shape[0]):
        a = abs(row[j])
        count += (a < _R_SAFE) & (a != _R_ZERO)
    return count


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _exact_sum(row, acc):
    s = _leaf_sum(row, acc)
    if _tiny_count(row):
        s = _leaf_sum_flushing(row, acc)
    return s


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _tree_sum(row, first, acc, stack, lefts):
    """Eigen's sum of a row longer than a leaf (PACKET * LEAF values) whose first value is
    the flat input's `first`: cut at PACKET * ceil((first + ceil(n / 2)) / PACKET), each part
    summed so again (_exact_sum at the leaves), the halves added (flushed: under FTZ two
    normal halves can make a denormal). stack: [64, 3] int64 (offset, count, the left half's
    count once cut, else 0), lefts: 64 float32 (the left halves' sums); the depth is the
    log of the length."""
    top = 0
    stack[0, 0], stack[0, 1], stack[0, 2] = 0, row.shape[0], 0
    value = _R_ZERO
    going_down = True
    while True:
        if going_down:
            offset, count = stack[top, 0], stack[top, 1]
            if count > PACKET * LEAF:
                start = first + offset
                split = PACKET * -(-(start + -(-count // 2)) // PACKET)
                stack[top, 2] = split - start
                top += 1
                stack[top, 0], stack[top, 1], stack[top, 2] = offset, split - start, 0
                continue
            value = _exact_sum(row[offset:offset + count], acc)
            going_down = False
        if top == 0:
            return value
        top -= 1
        left = stack[top, 2]
        if left > 0:  # its left half came back: the right half next
            lefts[top] = value
            stack[top, 2] = 0
            offset, count = stack[top, 0], stack[top, 1]
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2] = offset + left, count - left, 0
            going_down = True
        else:  # both halves back
            value = _flush(lefts[top] + value)


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _magnitude_less_one(v):
    """|v|'s bits less 1, unsigned: 0xFFFFFFFF for a zero, below _R_SAFE_BITS for a nonzero
    value below 2**-103 (an integer minimum of these finds one among many values)."""
    return np.uint32(np.uint32(np.float32(v).view(np.uint32) & _R_MAGNITUDE) - _R_ONE_BIT)


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _group_sums(x, r, acc, low, sums, check):
    """sums[0:4] = Eigen's sums of rows r..r+3 of x: the four rows' 32-lane phases side by
    side (one row's lanes wait on the previous add's result; four rows' do not), then each
    row's own packets, tail and predux. acc: 128 scratch lanes, low: 32. `check`: FTZ/DAZ
    (_exact_sum) for a group holding a value below 2**-103, found by the lanes' smallest
    magnitude, kept beside the sums."""
    n = x.shape[1]
    a, b, c, d = x[r], x[r + 1], x[r + 2], x[r + 3]
    for k in range(4 * _R_LANES):
        acc[k] = _R_ZERO
    for k in range(_R_LANES):
        low[k] = _R_NO_BITS
    v4 = n // 32 * 32 if n >= 32 else 0
    if check:
        for j in range(0, v4, 32):
            for k in range(_R_LANES):
                va, vb, vc, vd = a[j + k], b[j + k], c[j + k], d[j + k]
                acc[k] += va
                acc[32 + k] += vb
                acc[64 + k] += vc
                acc[96 + k] += vd
                low[k] = min(low[k], min(min(_magnitude_less_one(va), _magnitude_less_one(vb)),
                                         min(_magnitude_less_one(vc), _magnitude_less_one(vd))))
    else:
        for j in range(0, v4, 32):
            for k in range(_R_LANES):
                acc[k] += a[j + k]
                acc[32 + k] += b[j + k]
                acc[64 + k] += c[j + k]
                acc[96 + k] += d[j + k]
    tiny = False
    if check:
        for k in range(_R_LANES):
            tiny |= low[k] < _R_SAFE_BITS
    for i in range(4):
        row, o = x[r + i], 32 * i
        if v4:
            for k in range(8):
                acc[o + k] = ((acc[o + k] + acc[o + k + 8]) + acc[o + k + 16]) + acc[o + k + 24]
        start = v4
        if start <= n - 8:
            v = n // 8 * 8
            for j in range(start, v, 8):
                for k in range(8):
                    acc[o + k] += row[j + k]
            start = v
        s = _R_ZERO
        for j in range(start, n):
            s += row[j]
        h0, h1 = acc[o] + acc[o + 4], acc[o + 1] + acc[o + 5]
        h2, h3 = acc[o + 2] + acc[o + 6], acc[o + 3] + acc[o + 7]
        s = s + ((h0 + h2) + (h1 + h3))
        if check:
            for j in range(v4, n):
                tiny |= _magnitude_less_one(row[j]) < _R_SAFE_BITS
        sums[i] = s
    if tiny:
        for i in range(4):
            sums[i] = _exact_sum(x[r + i], acc)


@numba.njit(nogil=True, boundscheck=False, error_model="numpy")
def _sums_into(x, out, start, end, divisor):
    """out[r] = Eigen's sum of x[r] (divided by `divisor` unless it is 0), rows start..end."""
    acc = np.empty(4 * _R_LANES, np.float32)
    low = np.empty(_R_LANES, np.uint32)
    lanes = np.empty(_R_LANES, np.float32)
    sums = np.empty(4, np.float32)
    n = x.shape[1]
    if n > PACKET * LEAF:
        stack = np.empty((64, 3), np.int64)
        lefts = np.empty(64, np.float32)
        for r in range(start, end):
            s = _tree_sum(x[r], r * n, acc, stack, lefts)
            out[r] = s / divisor if divisor != _R_ZERO else s
        return
    r = start
    while r + 4 <= end:
        _group_sums(x, r, acc, low, sums, True)
        for i in range(4):
            out[r + i] = sums[i] / divisor if divisor != _R_ZERO else sums[i]
        r += 4
    for r in range(r, end):
        s = _exact_sum(x[r], lanes)
        out[r] = s / divisor if divisor != _R_ZERO else s


@numba.njit(cache=True, nogil=True, boundscheck=False, error_model="numpy")
def row_sums(x, out, start, end):
    """out[r] = Eigen's sum of x[r] for rows start..end of the 2-D C-contiguous x."""
    _sums_into(x, out, start, end, _R_ZERO)


@numba.njit(cache=True, nogil=True, boundscheck=False, error_model="numpy")
def row_means(x, out, start, end):
    """out[r] = Eigen's sum of x[r] divided by its length."""
    _sums_into(x, out, start, end, np.float32(x.shape[1]))


@numba.njit(cache=True, nogil=True, boundscheck=False, error_model="numpy")
def row_moments(x, means, variances, start, end):
    """means[r] = Eigen's mean of x[r] and variances[r] = Eigen's mean of (x[r] - means[r])**2,
    rows start..end of the 2-D C-contiguous x, its rows at most PACKET * LEAF long: the values
    of Mean, SquaredDifference (a difference and its square, each rounded) and Mean over the
    last axis (tf.nn.moments), each row's squares in a scratch row rather than a tensor of
    their own. Four rows at a time, as row_means takes them."""
    n = x.shape[1]
    divisor = np.float32(n)
    scratch = np.empty((4, n), np.float32)
    acc = np.empty(4 * _R_LANES, np.float32)
    low = np.empty(_R_LANES, np.uint32)
    lanes = np.empty(_R_LANES, np.float32)
    sums = np.empty(4, np.float32)
    r = start
    while r + 4 <= end:
        _group_sums(x, r, acc, low, sums, True)
        for i in range(4):
            m = sums[i] / divisor
            means[r + i] = m
            row, squares = x[r + i], scratch[i]
            for j in range(n):
                d = row[j] - m
                squares[j] = d * d
        _group_sums(scratch, 0, acc, low, sums, True)
        for i in range(4):
            variances[r + i] = sums[i] / divisor
        r += 4
    squares = scratch[0]
    for r in range(r, end):
        m = _exact_sum(x[r], lanes) / divisor
        means[r] = m
        row = x[r]
        for j in range(n):
            d = row[j] - m
            squares[j] = d * d
        variances[r] = _exact_sum(squares, lanes) / divisor


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def _flushed_max(row, lanes):
    """The maximum of the row's values read under DAZ (NaN if one is): reduce_numba's
    running maxima (selects LLVM vectorises), flushed. The maximum of the values flushed is
    the flushed maximum (but for a zero's sign, which no softmax shows: x - (+0) and x - (-0)
    differ only in a zero's sign, and exp of either zero is 1)."""
    return _flush(_row_max(row, lanes))


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def _group_max(x, r, lanes, maxes):
    """maxes[0:4] = the flushed maxima of rows r..r+3 (16 running maxima a row, the four
    rows side by side; lanes: 64). A NaN may be passed over: its row's softmax is NaN
    throughout whatever the maximum (x - m is NaN there, so the row's sum is)."""
    n = x.shape[1]
    full = n - n % _LANES
    a, b, c, d = x[r], x[r + 1], x[r + 2], x[r + 3]
    if full:
        for k in range(_LANES):
            lanes[k], lanes[16 + k], lanes[32 + k], lanes[48 + k] = a[k], b[k], c[k], d[k]
        for j in range(_LANES, full, _LANES):
            for k in range(_LANES):
                va, vb, vc, vd = a[j + k], b[j + k], c[j + k], d[j + k]
                la, lb, lc, ld = lanes[k], lanes[16 + k], lanes[32 + k], lanes[48 + k]
                lanes[k] = va if va > la else la
                lanes[16 + k] = vb if vb > lb else lb
                lanes[32 + k] = vc if vc > lc else lc
                lanes[48 + k] = vd if vd > ld else ld
    for i in range(4):
        row, o = x[r + i], 16 * i
        m = row[0]
        if full:
            m = lanes[o]
            for k in range(1, _LANES):
                v = lanes[o + k]
                m = v if v > m else m
        for j in range(full, n):
            v = row[j]
            m = v if v > m else m
        maxes[i] = _flush(m)


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def _shifted_row(row, shifted, m):
    """shifted = row less its maximum m, under FTZ/DAZ."""
    n = row.shape[0]
    if abs(m) >= _R_SAFE_MAX or m != m:
        # no difference can be denormal, and a denormal x gives -m as 0 would
        for j in range(n):
            shifted[j] = row[j] - m
    else:
        for j in range(n):
            shifted[j] = _flush(_flush(row[j]) - m)


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def _softmax_exp_row(row, e, r, rows, block_rows, m):
    """e = exp(row less its maximum m), row r of `rows`, as Eigen's tiled executor takes it:
    packet exp, but expf on the values of the tail of r's block (its last size % 8) that lie
    in this row."""
    n = row.shape[0]
    if abs(m) >= _R_SAFE_MAX or m != m:
        for j in range(n):
            e[j] = packet_exp_nonpositive(row[j] - m)
    else:
        for j in range(n):
            e[j] = packet_exp_nonpositive(_flush(_flush(row[j]) - m))
    first_row = r // block_rows * block_rows
    last_row = min(first_row + block_rows, rows)
    block_end = last_row * n
    tail_start = block_end - (last_row - first_row) * n % PACKET
    for g in range(max(tail_start, r * n), min(block_end, r * n + n)):
        j = g - r * n
        e[j] = scalar_exp(_flush(_flush(row[j]) - m))


@numba.njit(cache=True, nogil=True, boundscheck=False, error_model="numpy")
def softmax_rows(x, out, start, end, rows):
    """Softmax of rows start..end of the [rows, n] x into out (which may be x), n at most
    SOFTMAX_BLOCK: exp by the blocks of Eigen's tiled executor, the inverse of row r's sum
    by rcpps and Newton where r lies among the batch's whole packets. Four rows at a time
    (their sums side by side: _group_sums), through a scratch of four rows."""
    n = x.shape[1]
    scratch = np.empty((4, n), np.float32)
    acc = np.empty(4 * _R_LANES, np.float32)
    low = np.empty(_R_LANES, np.uint32)
    lanes = np.empty(4 * _LANES, np.float32)
    sums = np.empty(4, np.float32)
    maxes = np.empty(4, np.float32)
    block_rows = rows if rows * n <= SOFTMAX_BLOCK else -(-SOFTMAX_BLOCK // n)
    packet_rows = rows - rows % PACKET
    r = start
    while r < end:
        group = min(4, end - r)
        if group == 4:
            _group_max(x, r, lanes, maxes)
        else:
            for i in range(group):
                maxes[i] = _flushed_max(x[r + i], lanes)
        for i in range(group):
            _softmax_exp_row(x[r + i], scratch[i], r + i, rows, block_rows, maxes[i])
        # values >= 0, each 0 or normal: no partial sum is denormal
        if group == 4:
            _group_sums(scratch, 0, acc, low, sums, False)
        else:
            for i in range(group):
                sums[i] = _leaf_sum(scratch[i], acc)
        for i in range(group):
            s = sums[i]
            inverse = packet_reciprocal(s) if r + i < packet_rows else scalar_reciprocal(s)
            e, target = scratch[i], out[r + i]
            for j in range(n):
                target[j] = _flush(e[j] * inverse)
        r += group


@numba.njit(cache=True, nogil=True, boundscheck=False, error_model="numpy")
def log_softmax_rows(x, out, start, end, rows):
    """LogSoftmax of rows start..end of the [rows, n] x into out (which may be x), n at most
    a leaf: exp as the reducer reads it (packets, then the row's last n % 8 by expf), the log
    of row r's sum packet or scalar by r's place among the batch's whole packets. Four rows
    at a time, as softmax_rows."""
    n = x.shape[1]
    shifted = np.empty((4, n), np.float32)
    exps = np.empty((4, n), np.float32)
    acc = np.empty(4 * _R_LANES, np.float32)
    low = np.empty(_R_LANES, np.uint32)
    lanes = np.empty(4 * _LANES, np.float32)
    sums = np.empty(4, np.float32)
    maxes = np.empty(4, np.float32)
    packet_rows = rows - rows % PACKET
    packet_end = n - n % PACKET
    r = start
    while r < end:
        group = min(4, end - r)
        if group == 4:
            _group_max(x, r, lanes, maxes)
        else:
            for i in range(group):
                maxes[i] = _flushed_max(x[r + i], lanes)
        for i in range(group):
            sh, ex = shifted[i], exps[i]
            _shifted_row(x[r + i], sh, maxes[i])
            for j in range(packet_end):
                ex[j] = packet_exp_nonpositive(sh[j])
            for j in range(packet_end, n):
                ex[j] = scalar_exp(sh[j])
        if group == 4:
            _group_sums(exps, 0, acc, low, sums, False)
        else:
            for i in range(group):
                sums[i] = _leaf_sum(exps[i], acc)
        for i in range(group):
            s = sums[i]
            log_sum = packet_log(s) if r + i < packet_rows else scalar_log(s)
            sh, target = shifted[i], out[r + i]
            for j in range(n):
                target[j] = _flush(sh[j] - log_sum)
        r += group


# Only the softmax's per-value functions are inlined by numba (inline="always"); the sums'
# tree and leaves are left to LLVM, which inlines what pays: numba's own inlining of all of
# them made this file take 31.7 s to compile (a cold `graph-inspector warm` 103 s in all),
# 6.1 s so, at the same speed (Softmax [12288, 128] 0.58-0.59 ms, Mean [1024, 768] 0.05 ms;
# inlining none made Softmax 20% slower).
FUNCTIONS = ("packet_exp_nonpositive", "_leaf_sum", "_leaf_sum_flushing", "_tiny_count",
             "_exact_sum", "_tree_sum", "_magnitude_less_one", "_group_sums",
             "_sums_into", "row_sums", "row_means", "row_moments", "_flushed_max", "_group_max", "_shifted_row",
             "_softmax_exp_row", "softmax_rows", "log_softmax_rows")
_HEADER = ('"""TensorFlow\'s float32 reductions and softmax; written by '
           'engine/kernels/compiled/eigen_reduce_numba.py."""\nimport math\n\n'
           'import numpy as np\nimport numba\n\n')


def source():
    """The generated file's text: eigen_numba's constants and lanes, then these kernels."""
    own = [line for line in numba_source.constants_source(globals()) if line.startswith("_R_")]
    own += [f"PACKET = {PACKET}", f"LEAF = {LEAF}", f"SOFTMAX_BLOCK = {SOFTMAX_BLOCK}",
            f"_LANES = {_LANES}"]
    return (_HEADER + eigen_numba.source_of() + "\n".join(own) + "\n\n\n"
            + numba_source.functions_source(globals(), ("_row_max",) + FUNCTIONS) + "\n")


_kernels = None


def fits(op, shape):
    """Whether the compiled kernels take a [rows, n] matrix for `op` ("sum", "mean",
    "softmax", "log_softmax", "moments"); the reference takes the others."""
    n = shape[1]
    if op == "softmax":
        return 0 < n <= SOFTMAX_BLOCK
    if op in ("log_softmax", "moments"):
        return 0 < n <= PACKET * LEAF
    return n > 0


def _split(kernel, rows, n, min_items):
    """kernel(start, end) over the rows, in pieces of at least `min_items` values."""
    if rows * n < 2 * min_items:  # one piece: no threads' bookkeeping
        kernel(0, rows)
        return
    threads.parallel_for(kernel, rows, max(1, min_items // n))


def reduce_rows(op, x):
    """Eigen's sum or mean ("sum", "mean") of each row of the 2-D C-contiguous float32 x."""
    out = np.empty(x.shape[0], np.float32)
    kernel = _kernels.row_sums if op == "sum" else _kernels.row_means
    _split(lambda start, end: kernel(x, out, start, end), *x.shape, _MIN_SUM_ITEMS_PER_PIECE)
    return out


def moments(x):
    """(means, variances) of the rows of the 2-D C-contiguous float32 x, as row_moments: what
    Mean, SquaredDifference and Mean give one after another."""
    rows, n = x.shape
    means, variances = np.empty(rows, np.float32), np.empty(rows, np.float32)
    _split(lambda start, end: _kernels.row_moments(x, means, variances, start, end), rows, n,
           _MIN_MOMENTS_ITEMS_PER_PIECE)
    return means, variances


def softmax(op, x, out):
    """Softmax or LogSoftmax ("softmax", "log_softmax") of the rows of the 2-D C-contiguous
    float32 x into out (x itself for a forwarded buffer)."""
    kernel = _kernels.softmax_rows if op == "softmax" else _kernels.log_softmax_rows
    rows = x.shape[0]
    _split(lambda start, end: kernel(x, out, start, end, rows), *x.shape,
           _MIN_SOFTMAX_ITEMS_PER_PIECE)
    return out


def warm():
    """Import the generated file and compile (or load from numba's cache) each kernel."""
    global _kernels
    module = numba_source.import_text(source(), "eigen-reduce", "reduce")
    x = np.linspace(-3, 3, 3 * 40, dtype=np.float32).reshape(3, 40)
    out = np.empty(3, np.float32)
    module.row_sums(x, out, 0, 3)
    module.row_means(x, out, 0, 3)
    module.row_moments(x, out, np.empty_like(out), 0, 3)
    module.softmax_rows(x, np.empty_like(x), 0, 3, 3)
    module.log_softmax_rows(x, np.empty_like(x), 0, 3, 3)
    _kernels = module
