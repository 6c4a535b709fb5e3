"""MaxPool, AvgPool, their gradients and BiasAddGrad compiled with numba, on NHWC arrays.

NumPy's references (engine/kernels/cpu/nn.py, grad.py) pad the input, take a strided view of
every window and reduce it: a copy of the padded input, a reduction over a six-dimensional
view, and for MaxPoolGrad an argmax over a moved axis and np.add.at. Here each window is read
in place, clipped to the input (padding never materialised), with the channels as the
vectorised inner loop. Measured on this machine (2026-11-28, one thread, a 128x28x28x32
input, 2x2 windows, stride 2): MaxPool 8.4 ms in NumPy, 1.25 ms in TensorFlow 2.21;
MaxPoolGrad 35 ms in NumPy, 16 ms in TensorFlow.

Semantics are TensorFlow's CPU kernels', which the references share for every input without
NaN: a max pool's window is its valid elements (padding is -inf); its gradient goes to the
first maximum in row-major window order (the first valid element, replaced only by a strictly
greater one, as SpatialMaxPoolWithArgMaxHelper); an average pool divides by the count of
valid elements. MaxPool propagates NaN as np.max does. Gradients from overlapping windows add
in window order, as the references' np.add.at does.

`geometry` is (window rows, cols, stride rows, cols, pad top, pad left, out rows, cols).
Work is split over the intra-op threads by output rows (forward) or by image (gradients,
whose windows may overlap); every function here releases the GIL.
"""

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.runtime import threads

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
_MIN_ITEMS_PER_PIECE = 1 << 16
# MaxPool and AvgPool read each input once and do little with it: as for Relu
# (activation_numba), a piece handed to the other thread must be large to pay for the handing.
_FORWARD_MIN_ITEMS_PER_PIECE = 1 << 20


def _vector_bytes():
    """The widest vector registers numba compiles for here (conv_numba._vector_bytes)."""
    from numba.core import config
    import llvmlite.binding as llvm
    if config.CPU_NAME and config.CPU_NAME != "host":
        features = config.CPU_FEATURES or ""
        return 64 if "+avx512f" in features else 32 if "+avx" in features else 16
    return 64 if llvm.get_host_cpu_features().get("avx512f") else 32


# Vectors of channels whose running sums _row_sums keeps in registers at once: 8 of the 32
# (AVX-512) or 16 registers, so 128 float32 channels (64 with 32-byte vectors) a pass.
_SUM_VECTORS = 8
_SUM_BYTES = _vector_bytes()


def _row_sums_of(vectors):
    """_row_sums over `vectors` vectors of columns: a numba intrinsic."""

    @intrinsic
    def row_sums(typingctx, x, first, rows, ld, col, count, out):
        return _row_sums_signature(vectors, x, first, rows, ld, col, count, out)

    return row_sums


def _row_sums_signature(vectors, x, first, rows, ld, col, count, out):
    """out[0:count] = for each column of the flat x in [col, col + count) (count at most
    `vectors` vectors' lanes), the sum of rows first, ..., first + rows - 1 (x[r * ld +
    column]) added one after another in x's dtype. The running sums stay in vector registers
    the whole time: no store and reload of them a row, and nothing reordered (plain adds, no
    fast-math). Each vector is masked to the columns there are (a masked-off lane reads
    nothing)."""
    sig = types.void(x, first, rows, ld, col, count, out)

    def codegen(context, builder, sig, args):
        x, first, rows, ld, col, count, out = args
        dtype = sig.args[0].dtype
        lanes = _SUM_BYTES // (dtype.bitwidth // 8)
        vty = ir.VectorType(context.get_value_type(dtype), lanes)
        vptr = vty.as_pointer()
        i32, i64 = ir.IntType(32), ir.IntType(64)
        x_ptr = context.make_array(sig.args[0])(context, builder, x).data
        out_ptr = context.make_array(sig.args[6])(context, builder, out).data
        counts = builder.insert_element(ir.Constant(ir.VectorType(i64, lanes), ir.Undefined),
                                        count, ir.Constant(i32, 0))
        counts = builder.shuffle_vector(counts, counts, ir.Constant(ir.VectorType(i32, lanes),
                                                                    [0] * lanes))
        masks = [builder.icmp_signed("<", ir.Constant(ir.VectorType(i64, lanes),
                                                      [v * lanes + l for l in range(lanes)]),
                                     counts) for v in range(vectors)]
        suffix = f"v{lanes}f{dtype.bitwidth}"
        masked_load = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(vty, [vptr, i32, masks[0].type, vty]),
            f"llvm.masked.load.{suffix}.p0")
        masked_store = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [vty, vptr, i32, masks[0].type]),
            f"llvm.masked.store.{suffix}.p0")
        align = ir.Constant(i32, dtype.bitwidth // 8)
        zero = ir.Constant(vty, [0.0] * lanes)

        def pointer(base, offset, v):
            return builder.bitcast(
                builder.gep(base, [builder.add(offset, ir.Constant(i64, v * lanes))]), vptr)

        sums = [cgutils.alloca_once(builder, vty) for _ in range(vectors)]
        start = builder.add(builder.mul(first, ld), col)
        for v in range(vectors):
            builder.store(builder.call(masked_load, [pointer(x_ptr, start, v), align, masks[v],
                                                     zero]), sums[v])
        with cgutils.for_range(builder, builder.sub(rows, ir.Constant(i64, 1))) as loop:
            at = builder.add(start, builder.mul(builder.add(loop.index, ir.Constant(i64, 1)),
                                                ld))
            for v in range(vectors):
                row = builder.call(masked_load, [pointer(x_ptr, at, v), align, masks[v], zero])
                builder.store(builder.fadd(builder.load(sums[v]), row), sums[v])
        for v in range(vectors):
            builder.call(masked_store, [builder.load(sums[v]),
                                        pointer(out_ptr, ir.Constant(i64, 0), v), align,
                                        masks[v]])
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(**JIT)
def _clip(start, size, limit):
    return max(start, 0), min(start + size, limit)


@numba.njit(inline="always")
def _larger(a, b):
    """Max pooling's step: `a` where greater, and NaN wins and stays. `|` (not `or`): a
    select LLVM vectorises."""
    return a if (a > b) | (a != a) else b


@numba.njit(**JIT)
def _max_pool_2x2_row(x, n, h0, lowest, geometry, out_row):
    """An output row of 2x2 windows, each window's four inputs taken in row-major order into
    one running maximum per channel held in a register (the row-at-a-time loop below stores
    and reloads it per input: 2-5x slower for 2x2 windows, measured 2026-11-28)."""
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for j in range(ow):
        w0, w1 = _clip(j * sw - pl, kw, w)
        o = out_row[j]
        if w1 - w0 == 2:
            v0, v1, v2, v3 = x[n, h0, w0], x[n, h0, w0 + 1], x[n, h0 + 1, w0], x[n, h0 + 1, w0 + 1]
            for ch in range(c):
                o[ch] = _larger(v3[ch], _larger(v2[ch], _larger(v1[ch], _larger(v0[ch], lowest))))
        else:  # clipped by the padding: one column, or none
            for ch in range(c):
                o[ch] = lowest
            for y in range(h0, h0 + 2):
                for z in range(w0, w1):
                    v = x[n, y, z]
                    for ch in range(c):
                        o[ch] = _larger(v[ch], o[ch])


@numba.njit(**JIT)
def _max_pool(x, geometry, lowest, out, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for row in range(start, end):
        n, i = divmod(row, oh)
        h0, h1 = _clip(i * sh - pt, kh, h)
        if kh == 2 and kw == 2 and h1 - h0 == 2:
            _max_pool_2x2_row(x, n, h0, lowest, geometry, out[n, i])
            continue
        results = out[n, i].reshape(-1)  # the output row, (ow, c) flat
        for q in range(results.shape[0]):
            results[q] = lowest
        for y in range(h0, h1):  # a window row of every output of the row at once
            inputs = x[n, y].reshape(-1)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                o = results[j * c:(j + 1) * c]
                for z in range(w0, w1):
                    v = inputs[z * c:(z + 1) * c]
                    for ch in range(c):
                        a, b = v[ch], o[ch]
                        # NaN wins and stays; `|` (not `or`): a select LLVM vectorises
                        o[ch] = a if (a > b) | (a != a) else b


@numba.njit(**JIT)
def _max_pool_grad(x, dy, geometry, dx, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    best = np.empty(c, x.dtype)
    at_y = np.empty(c, np.int64)
    at_z = np.empty(c, np.int64)
    for n in range(start, end):
        for i in range(oh):
            h0, h1 = _clip(i * sh - pt, kh, h)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                if h0 >= h1 or w0 >= w1:
                    continue
                best[:] = x[n, h0, w0]
                at_y[:] = h0
                at_z[:] = w0
                for y in range(h0, h1):
                    for z in range(w0, w1):
                        v = x[n, y, z]
                        for ch in range(c):
                            greater = v[ch] > best[ch]
                            best[ch] = v[ch] if greater else best[ch]
                            at_y[ch] = y if greater else at_y[ch]
                            at_z[ch] = z if greater else at_z[ch]
                g = dy[n, i, j]
                for ch in range(c):
                    dx[n, at_y[ch], at_z[ch], ch] += g[ch]


@numba.njit(**JIT)
def _avg_pool(x, geometry, out, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for row in range(start, end):
        n, i = divmod(row, oh)
        h0, h1 = _clip(i * sh - pt, kh, h)
        for j in range(ow):
            w0, w1 = _clip(j * sw - pl, kw, w)
            o = out[n, i, j]
            o[:] = 0
            for y in range(h0, h1):
                for z in range(w0, w1):
                    o += x[n, y, z]
            o /= x.dtype.type((h1 - h0) * (w1 - w0))


@numba.njit(**JIT)
def _avg_pool_grad(dy, geometry, dx, start, end):
    _, h, w, c = dx.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for n in range(start, end):
        dx[n] = 0
        for i in range(oh):
            h0, h1 = _clip(i * sh - pt, kh, h)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                share = dy[n, i, j] / dy.dtype.type((h1 - h0) * (w1 - w0))
                for y in range(h0, h1):
                    for z in range(w0, w1):
                        dx[n, y, z] += share


_ROW_SUMS = [_row_sums_of(v) for v in range(1, _SUM_VECTORS + 1)]
_ROW_SUMS_1, _ROW_SUMS_2, _ROW_SUMS_3, _ROW_SUMS_4 = _ROW_SUMS[:4]
_ROW_SUMS_5, _ROW_SUMS_6, _ROW_SUMS_7, _ROW_SUMS_8 = _ROW_SUMS[4:]


@numba.njit(**JIT)
def _row_sums(x, first, rows, ld, col, count, out):
    """The row sums of count columns (at most _SUM_VECTORS vectors' lanes), in as many
    vectors as they take: a masked-off vector still costs its loads and adds."""
    vectors = -(-count // (_SUM_BYTES // x.itemsize))
    if vectors <= 4:
        if vectors == 1:
            _ROW_SUMS_1(x, first, rows, ld, col, count, out)
        elif vectors == 2:
            _ROW_SUMS_2(x, first, rows, ld, col, count, out)
        elif vectors == 3:
            _ROW_SUMS_3(x, first, rows, ld, col, count, out)
        else:
            _ROW_SUMS_4(x, first, rows, ld, col, count, out)
    elif vectors == 5:
        _ROW_SUMS_5(x, first, rows, ld, col, count, out)
    elif vectors == 6:
        _ROW_SUMS_6(x, first, rows, ld, col, count, out)
    elif vectors == 7:
        _ROW_SUMS_7(x, first, rows, ld, col, count, out)
    else:
        _ROW_SUMS_8(x, first, rows, ld, col, count, out)


@numba.njit(**JIT)
def _column_sums(x, start, end, sums):
    """sums[c] = the sum of column c of the 2-D `x` over all its rows, for the columns of
    vectors start..end (of the dtype's lanes each): each column's rows added one after another
    in x's dtype, ((r0 + r1) + r2) + ..., then + 0 (TensorFlow's sum starts from zero: a
    column of -0.0 sums to +0.0), its running sum in a register the whole time (_row_sums: up
    to _SUM_VECTORS vectors of columns at once, a group after another where there are
    more)."""
    channels, count = x.shape[1], x.shape[0]
    flat = x.reshape(-1)
    lanes = _SUM_BYTES // x.itemsize
    block = np.empty(_SUM_VECTORS * lanes, x.dtype)
    zero = x.dtype.type(0)
    for vector in range(start, end, _SUM_VECTORS):
        col = vector * lanes
        width = min(min(end, vector + _SUM_VECTORS) * lanes, channels) - col
        _row_sums(flat, 0, count, channels, col, width, block)
        for ch in range(width):
            sums[col + ch] = block[ch] + zero


def _geometry(window, stride, pads, out_hw):
    return np.array([*window, *stride, pads[0][0], pads[1][0], *out_hw], np.int64)


def _split(total, items_each, piece, min_items=None):
    minimum = _MIN_ITEMS_PER_PIECE if min_items is None else min_items
    threads.parallel_for(piece, total, max(1, minimum // max(1, items_each)))


def max_pool(x, window, stride, pads, out_hw, lowest):
    """MaxPool of the NHWC `x` (unpadded; `pads` ((top, bottom), (left, right)))."""
    x = np.ascontiguousarray(x)
    out = np.empty((x.shape[0], *out_hw, x.shape[3]), x.dtype)
    geometry = _geometry(window, stride, pads, out_hw)
    lowest = x.dtype.type(lowest)
    _split(x.shape[0] * out_hw[0], out_hw[1] * x.shape[3] * window[0] * window[1],
           lambda start, end: _max_pool(x, geometry, lowest, out, start, end),
           _FORWARD_MIN_ITEMS_PER_PIECE)
    return out


def max_pool_grad(x, dy, window, stride, pads):
    """MaxPoolGrad: dy [n, oh, ow, c] sent to each window's first maximum in `x`."""
    x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    dx = np.zeros(x.shape, dy.dtype)
    geometry = _geometry(window, stride, pads, dy.shape[1:3])
    _split(x.shape[0], dy[0].size * window[0] * window[1],
           lambda start, end: _max_pool_grad(x, dy, geometry, dx, start, end))
    return dx


def avg_pool(x, window, stride, pads, out_hw):
    x = np.ascontiguousarray(x)
    out = np.empty((x.shape[0], *out_hw, x.shape[3]), x.dtype)
    geometry = _geometry(window, stride, pads, out_hw)
    _split(x.shape[0] * out_hw[0], out_hw[1] * x.shape[3] * window[0] * window[1],
           lambda start, end: _avg_pool(x, geometry, out, start, end),
           _FORWARD_MIN_ITEMS_PER_PIECE)
    return out


def avg_pool_grad(dy, input_shape, window, stride, pads):
    """AvgPoolGrad: each window's dy shared among its valid elements."""
    dy = np.ascontiguousarray(dy)
    dx = np.empty(input_shape, dy.dtype)
    geometry = _geometry(window, stride, pads, dy.shape[1:3])
    _split(dy.shape[0], dy[0].size * window[0] * window[1],
           lambda start, end: _avg_pool_grad(dy, geometry, dx, start, end))
    return dx


# BiasAddGrad reads each element once, on one thread: TensorFlow's running sums cannot be cut
# by rows (its bits are each column's rows added in order), and a second thread taking half
# the channels of every row ran slower than one thread taking all of them (bench.conv_ops,
# 2026-11-28: 128x14x14x64 float32 0.14 ms in two pieces, 0.07 in one; 128x28x28x32 0.22
# against 0.15), both streaming the same cache lines.


def bias_add_grad(dy):
    """BiasAddGrad of a channels-last `dy` as TensorFlow 2.21 computes it (bias_op.cc's sum of
    the [rows, channels] matrix over its rows): each channel's rows added one after another
    in dy's dtype, from zero, as TensorFlow does whatever its threads (measured on float32 and
    float64 at 1 and 2 intra-op threads; tools/make_bias_grad_fixtures.py). The NumPy reference
    (grad.channel_sums) adds in the same order: the same bits."""
    rows = np.ascontiguousarray(dy).reshape(-1, dy.shape[-1])
    out = np.empty(rows.shape[1], dy.dtype)
    _column_sums(rows, 0, -(-rows.shape[1] // (_SUM_BYTES // rows.itemsize)), out)
    return out


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.arange(18, dtype=dtype).reshape(1, 3, 3, 2)
        pads = ((0, 1), (0, 1))
        pooled = max_pool(x, (2, 2), (2, 2), pads, (2, 2), -np.inf)
        max_pool_grad(x, pooled, (2, 2), (2, 2), pads)
        avg_pool_grad(avg_pool(x, (2, 2), (2, 2), pads, (2, 2)), x.shape, (2, 2), (2, 2), pads)
        bias_add_grad(x)
