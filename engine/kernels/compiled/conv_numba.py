"""Conv2D and its two backprops compiled with numba: register blocks reading the image in place.

Each works on NHWC arrays the CPU kernels (engine/kernels/cpu/nn.py, grad.py) have already
checked and padded. Both products are written as BLAS microkernels write a matrix product
(`_register_block`: a few rows times 64 output columns (VECTORS vectors) held in vector
registers, one fused multiply-add per row and vector per step of the sum), with the rows'
values read where they
lie: the forward pass takes a block of output pixels and walks each one's window straight
in the padded image (kh runs of kw * c contiguous values; no im2col copy) against the
filter's rows [kh * kw * c, k] as they are stored; the filter gradient takes a block of the
filter's rows (tap-channels) and walks every output pixel, reading each row's tap in the
image and the pixel's gradient row. The input gradient is the forward convolution of the
output gradient (spread by the strides, padded) with the filter turned half a turn and its
channel axes swapped. NumPy's reference makes the whole im2col matrix (80 MB for a
128x14x14x32 input and a 5x5 filter) and hands it to BLAS.

Measured on this machine's AMD EPYC (Zen 5, AVX-512; 2026-11-28, one thread, CPU time, the
5x5 SAME convolutions of the MNIST tutorial, other work beside it at load 1.3-2): Conv2D
128x14x14x32->64 9.9-11.4 ms, where the former kernel (im2col 24 pixels at a time into the
first-level cache, then dot products along the sum, six pixels by four filters, each
reduced across its lanes at the end) took 12.1-13.8 and TensorFlow 2.21 12.1-12.8; its
filter gradient 11.0-12.4 ms (before: 21.5-23.3, packed blocks turned for the dot products;
TensorFlow: 32-33); its input gradient, a 64->32 convolution, 9.6-11.3 (15.2; TensorFlow
15.5). The register block alone, its data in cache, ran at 276 GFLOP/s where the dot
products ran at 230: they spent a tenth of their time reducing 24 sums across 16 lanes, and
the rest packing. Short windows take the blocks too: the former kernel sent windows of fewer
than 64 values to BLAS (im2col 4096 pixels at a time, NumPy's matmul), which the blocks beat
on every shape tried, the same values: 128x28x28x1->32 5x5 1.2 ms against 2.2, 3x3 over 3
channels (27 values) 0.23 against 0.45, a 1x1 over one channel 0.21 against 1.7.

Work is split over the intra-op threads (engine.runtime.threads.parallel_for): output
pixels for the convolutions, the filter's rows for its gradient (each piece the whole sum
for its rows, so there are no partial gradients to add) or, for a filter of few rows, runs
of images fixed by the shapes (conv2d_backprop_filter). Every value is its terms added one
after another in one lane, whatever block or piece it fell in, so it does not depend on the
thread count. Every function here releases the GIL. The register blocks live here, not in a
module of their own, because numba's on-disk cache notices a change to a function's own
file only.
"""

import numba
import numpy as np

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.runtime import threads


# A piece of work handed to another thread: at least this many multiply-adds (about 0.1 ms).
_MIN_MACS_PER_PIECE = 1 << 23


def _vector_bytes():
    """The widest vector registers numba compiles for here: 64 bytes with AVX-512 (32 of
    them), else 32 (16 of them). NUMBA_CPU_NAME, if set, names the target (a portable
    cache's "generic": no AVX)."""
    from numba.core import config
    import llvmlite.binding as llvm
    if config.CPU_NAME and config.CPU_NAME != "host":
        features = config.CPU_FEATURES or ""
        return 64 if "+avx512f" in features else 32 if "+avx" in features else 16
    features = llvm.get_host_cpu_features()
    return 64 if features.get("avx512f") else 32


VECTOR_BYTES = _vector_bytes()
# Vectors of output columns per register block, and the rows (pixels, or filter taps) each
# block takes (ROWS[vectors]): with 32 registers, 24 accumulators for 4, 3 and 2 vectors and
# 12 for one, the rest for b's vectors and a broadcast; with 16, 12 accumulators.
if VECTOR_BYTES == 64:
    VECTORS, ROWS = 4, (0, 12, 12, 8, 6)
else:
    VECTORS, ROWS = 3, (0, 12, 6, 4)
MAX_ROWS = 12
# A filter gradient of this many register blocks of rows or more is split over the threads by
# rows; one of fewer, by images, in this many runs (conv2d_backprop_filter).
ROW_PIECES = 8
IMAGE_PIECES = 8
JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")


def _register_block(rows, vectors):
    """A numba intrinsic: `rows` x `vectors` accumulator registers of a matrix product.

    block(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate)
    With steps = (count1, a_step1, b_step1, count2, a_step2, b_step2, count3, a_step3,
    b_step3), for t1 < count1, t2 < count2, t3 < count3 (the summed index, in three levels,
    in that order) and each row i < rows:
        out[o_off + i * ldo + l] = (out[...] + where `accumulate`) the sum of
        a[offs[i] + a_off + t1 * a_step1 + t2 * a_step2 + t3 * a_step3]
          * b[b_off + t1 * b_step1 + t2 * b_step2 + t3 * b_step3 + l]
    for the columns l < (vectors - 1) * lanes + rem (lanes: VECTOR_BYTES // itemsize); rows
    from `used` on are computed (their offs must be valid) but neither read nor written.

    The outer-product form of a matrix product, as BLAS microkernels are: each step loads
    `vectors` vectors of b's row, broadcasts one value of a per row, and adds their products
    into rows x vectors registers (one fused multiply-add each, llvm.fma), so nothing is
    reduced across lanes and a is read in place: a convolution's windows straight from the
    padded image (no im2col copy), a filter gradient's taps straight from it too. numba has
    no vector types, so this builds the LLVM IR itself; the accumulators are allocas that
    LLVM keeps in registers. Each output element is its terms added one after another in t
    order (one lane of one register) from zero, whatever the block's other rows are, so a
    value does not depend on how the work was split; an accumulating call adds its sum to
    `out` at the end (a filter gradient: one image's sum at a time, so its float32 error
    grows with an image's pixels, not the batch's). The last vector's columns are masked
    (llvm.masked load and store) to `rem` lanes."""

    @intrinsic
    def block(typingctx, a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem,
              accumulate):
        sig = types.void(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem,
                         accumulate)

        def codegen(context, builder, sig, args):
            a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate = args
            dtype = sig.args[0].dtype
            lanes = VECTOR_BYTES // (dtype.bitwidth // 8)
            scalar = context.get_value_type(dtype)
            vty = ir.VectorType(scalar, lanes)
            vptr = vty.as_pointer()
            i32, i64 = ir.IntType(32), ir.IntType(64)
            module = builder.module

            def data(k):
                return context.make_array(sig.args[k])(context, builder, args[k]).data

            a_ptr, offs_ptr, b_ptr, steps_ptr, out_ptr = (data(0), data(1), data(4), data(6),
                                                          data(7))
            (count1, a_step1, b_step1, count2, a_step2, b_step2, count3, a_step3,
             b_step3) = [builder.load(builder.gep(steps_ptr, [ir.Constant(ir.IntType(64), q)]))
                         for q in range(9)]
            splat_mask = ir.Constant(ir.VectorType(i32, lanes), [0] * lanes)

            def splat(value, vector_type):
                one = builder.insert_element(ir.Constant(vector_type, ir.Undefined), value,
                                             ir.Constant(i32, 0))
                return builder.shuffle_vector(one, one, splat_mask)

            lane = ir.Constant(ir.VectorType(i64, lanes), list(range(lanes)))
            mask = builder.icmp_signed("<", lane, splat(rem, ir.VectorType(i64, lanes)))
            suffix = f"v{lanes}f{dtype.bitwidth}"
            fma = cgutils.get_or_insert_function(
                module, ir.FunctionType(vty, [vty, vty, vty]), f"llvm.fma.{suffix}")
            masked_load = cgutils.get_or_insert_function(
                module, ir.FunctionType(vty, [vptr, i32, mask.type, vty]),
                f"llvm.masked.load.{suffix}.p0")
            masked_store = cgutils.get_or_insert_function(
                module, ir.FunctionType(ir.VoidType(), [vty, vptr, i32, mask.type]),
                f"llvm.masked.store.{suffix}.p0")
            align = ir.Constant(i32, dtype.bitwidth // 8)
            zero = ir.Constant(vty, [0.0] * lanes)

            def load(base, offset, v):
                pointer = builder.bitcast(
                    builder.gep(base, [builder.add(offset, ir.Constant(i64, v * lanes))]), vptr)
                if v == vectors - 1:
                    return builder.call(masked_load, [pointer, align, mask, zero])
                return builder.load(pointer, align=dtype.bitwidth // 8)

            def store(value, base, offset, v):
                pointer = builder.bitcast(
                    builder.gep(base, [builder.add(offset, ir.Constant(i64, v * lanes))]), vptr)
                if v == vectors - 1:
                    builder.call(masked_store, [value, pointer, align, mask])
                else:
                    builder.store(value, pointer, align=dtype.bitwidth // 8)

            sums = [[cgutils.alloca_once(builder, vty) for _ in range(vectors)]
                    for _ in range(rows)]
            row_out = [builder.add(o_off, builder.mul(ldo, ir.Constant(i64, i)))
                       for i in range(rows)]
            for i in range(rows):
                for v in range(vectors):
                    builder.store(zero, sums[i][v])
            row_a = [builder.gep(a_ptr, [builder.add(a_off, builder.load(
                builder.gep(offs_ptr, [ir.Constant(i64, i)])))]) for i in range(rows)]
            with cgutils.for_range(builder, count1) as outer:
                a1 = builder.mul(outer.index, a_step1)
                b1 = builder.add(b_off, builder.mul(outer.index, b_step1))
                with cgutils.for_range(builder, count2) as middle:
                    a2 = builder.add(a1, builder.mul(middle.index, a_step2))
                    b2 = builder.add(b1, builder.mul(middle.index, b_step2))
                    with cgutils.for_range(builder, count3) as inner:
                        at = builder.add(a2, builder.mul(inner.index, a_step3))
                        bt = builder.add(b2, builder.mul(inner.index, b_step3))
                        b_row = [load(b_ptr, bt, v) for v in range(vectors)]
                        for i in range(rows):
                            x = splat(builder.load(builder.gep(row_a[i], [at])), vty)
                            for v in range(vectors):
                                builder.store(builder.call(fma, [x, b_row[v],
                                                                 builder.load(sums[i][v])]),
                                              sums[i][v])
            for i in range(rows):
                with builder.if_then(builder.icmp_signed("<", ir.Constant(i64, i), used)):
                    for v in range(vectors):
                        total = builder.load(sums[i][v])
                        with builder.if_then(accumulate):
                            builder.store(builder.fadd(load(out_ptr, row_out[i], v), total),
                                          sums[i][v])
                        store(builder.load(sums[i][v]), out_ptr, row_out[i], v)
            return context.get_dummy_value()

        return sig, codegen

    return block


_BLOCK_1 = _register_block(ROWS[1], 1)
_BLOCK_2 = _register_block(ROWS[2], 2)
_BLOCK_3 = _register_block(ROWS[3], 3)
_BLOCK_4 = _register_block(ROWS[-1], 4)  # VECTORS == 4 only


@numba.njit(**JIT)
def _block(vectors, a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate):
    """The register block of `vectors` vectors (ROWS[vectors] rows): _register_block."""
    if vectors == 4:
        _BLOCK_4(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate)
    elif vectors == 3:
        _BLOCK_3(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate)
    elif vectors == 2:
        _BLOCK_2(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate)
    else:
        _BLOCK_1(a, offs, used, a_off, b, b_off, steps, out, o_off, ldo, rem, accumulate)


@numba.njit(**JIT)
def _column_groups(k, itemsize):
    """(first column, vectors, lanes used in the last vector) of each group of output
    columns a register block takes: VECTORS vectors of VECTOR_BYTES, the last group fewer."""
    lanes = VECTOR_BYTES // itemsize
    width = VECTORS * lanes
    groups = []
    for j0 in range(0, k, width):
        cols = min(width, k - j0)
        vectors = (cols + lanes - 1) // lanes
        groups.append((j0, vectors, cols - (vectors - 1) * lanes))
    return groups


@numba.njit(**JIT)
def _window_offsets(p, count, geometry, hp, wp, c, offs):
    """offs[i] = where output pixel p + i's window starts in the flat padded image; the
    rows from `count` on repeat the first (a register block computes them unused)."""
    _, _, sh, sw, _, _, oh, ow = geometry
    n, rest = divmod(p, oh * ow)
    row, col = divmod(rest, ow)
    for i in range(count):
        offs[i] = ((n * hp + row * sh) * wp + col * sw) * c
        col += 1
        if col == ow:
            col = 0
            row += 1
            if row == oh:
                row = 0
                n += 1
    for i in range(count, MAX_ROWS):
        offs[i] = offs[0]


@numba.njit(**JIT)
def _forward(xp, fm, geometry, out, start, end):
    """out[p] for output pixels [start, end): each window read in place from the padded
    image, kh runs of kw * c values (kh * kw runs of c where the taps are dilated)."""
    _, hp, wp, c = xp.shape
    xf = xp.reshape(-1)
    kh, kw, _, _, dh, dw, _, _ = geometry
    k = out.shape[1]
    of = out.reshape(-1)
    offs = np.empty(MAX_ROWS, np.int64)
    if dw == 1 or kw == 1:  # a window's row is one run of kw * c values
        steps = np.array([kh, dh * wp * c, kw * c * k, 1, 0, 0, kw * c, 1, k], np.int64)
    else:
        steps = np.array([kh, dh * wp * c, kw * c * k, kw, dw * c, c * k, c, 1, k], np.int64)
    for j0, vectors, rem in _column_groups(k, xp.itemsize):
        rows = ROWS[vectors]
        p = start
        while p < end:
            count = min(rows, end - p)
            _window_offsets(p, count, geometry, hp, wp, c, offs)
            _block(vectors, xf, offs, count, 0, fm, j0, steps, of, p * k + j0, k, rem, False)
            p += count


@numba.njit(**JIT)
def _filter_gradient(xp, dy, geometry, grad, start, end, first, last):
    """grad[r] for the filter's rows (tap-channels) [start, end): the sum over the output
    pixels of images [first, last) of its window's value at the row's tap and channel times
    the pixel's gradient, image after image, each image's pixels row by row; the taps read
    in place."""
    _, hp, wp, c = xp.shape
    xf, dyf, gf = xp.reshape(-1), dy.reshape(-1), grad.reshape(-1)
    kh, kw, sh, sw, dh, dw, oh, ow = geometry
    k = grad.shape[1]
    for j0, vectors, rem in _column_groups(k, xp.itemsize):
        rows = ROWS[vectors]
        blocks = -(-(end - start) // rows)
        offs = np.empty((blocks, MAX_ROWS), np.int64)
        for q in range(blocks):
            for i in range(MAX_ROWS):
                r = min(start + q * rows + i, end - 1)
                ki, rest = divmod(r, kw * c)
                kj, ch = divmod(rest, c)
                offs[q, i] = (ki * dh * wp + kj * dw) * c + ch
        steps = np.array([1, 0, 0, oh, sh * wp * c, ow * k, ow, sw * c, k], np.int64)
        for n in range(first, last):
            for q in range(blocks):
                r = start + q * rows
                _block(vectors, xf, offs[q], min(rows, end - r), n * hp * wp * c, dyf,
                       n * oh * ow * k + j0, steps, gf, r * k + j0, k, rem, n > first)


def _geometry(filter_hw, stride, dilation, out_hw):
    return np.array([*filter_hw, *stride, *dilation, *out_hw], np.int64)


def _pixels_per_piece(macs_per_pixel):
    return max(1, _MIN_MACS_PER_PIECE // max(1, macs_per_pixel))


def conv2d(xp, filters, stride, dilation, out_hw):
    """Conv2D of the padded NHWC `xp` with `filters` [kh, kw, c, k]: [n, oh, ow, k]."""
    xp = np.ascontiguousarray(xp)
    kh, kw, c, k = filters.shape
    pixels = xp.shape[0] * out_hw[0] * out_hw[1]
    out = np.empty((pixels, k), xp.dtype)
    geometry = _geometry((kh, kw), stride, dilation, out_hw)
    flat = np.ascontiguousarray(filters).reshape(-1)  # rows [kh * kw * c, k]

    def piece(start, end):
        _forward(xp, flat, geometry, out, start, end)

    threads.parallel_for(piece, pixels, _pixels_per_piece(kh * kw * c * k))
    return out.reshape(xp.shape[0], out_hw[0], out_hw[1], k)


def conv2d_backprop_filter(xp, dy, filter_shape, stride, dilation):
    """Conv2DBackpropFilter over the padded NHWC input `xp`: the filter's gradient.

    A filter of ROW_PIECES register blocks of rows (tap-channels) or more has its rows split
    over the threads, in whole blocks: each piece sums over every image, so there are no
    partial gradients to add. A filter of fewer (one input channel: 25 rows, three blocks)
    has its images cut into IMAGE_PIECES runs instead, one partial gradient each, added in
    run order; the runs depend on the shapes alone, not on the threads. (Split by rows, a
    128x28x28x1->32 filter gradient went to pieces of three rows, each a quarter of a block
    and each reading every image: 14.8 ms at two threads where one took 1.4.) Either way a
    value does not depend on the thread count."""
    xp = np.ascontiguousarray(xp)
    kh, kw, c, k = filter_shape
    out_hw = dy.shape[1:3]
    images = dy.shape[0]
    pixels = images * out_hw[0] * out_hw[1]
    dy = np.ascontiguousarray(dy)
    geometry = _geometry((kh, kw), stride, dilation, out_hw)
    length = kh * kw * c
    rows = ROWS[_column_groups(k, xp.itemsize)[0][1]]
    blocks = -(-length // rows)
    if blocks >= ROW_PIECES:
        grad = np.empty((length, k), xp.dtype)

        def piece(start, end):
            _filter_gradient(xp, dy, geometry, grad, start * rows, min(length, end * rows), 0,
                             images)

        threads.parallel_for(piece, blocks,
                             max(1, _MIN_MACS_PER_PIECE // max(1, rows * pixels * k)))
        return grad.reshape(kh, kw, c, k)
    runs = max(1, min(IMAGE_PIECES, images, length * pixels * k // _MIN_MACS_PER_PIECE))
    bounds = [images * i // runs for i in range(runs + 1)]
    partials = np.empty((runs, length, k), xp.dtype)

    def run(start, end):
        for i in range(start, end):
            _filter_gradient(xp, dy, geometry, partials[i], 0, length, bounds[i],
                             bounds[i + 1])

    threads.parallel_for(run, runs, 1)
    grad = partials[0]
    for i in range(1, runs):
        grad += partials[i]
    return grad.reshape(kh, kw, c, k)


def conv2d_backprop_input(dy, filters, input_hw, pads, stride, dilation):
    """Conv2DBackpropInput: the gradient [n, h, w, c] of the input of height and width
    `input_hw`, padded by `pads` ((top, bottom), (left, right)) in the forward pass."""
    n, oh, ow, k = dy.shape
    kh, kw, c, _ = filters.shape
    spread = dy
    if stride != (1, 1):
        spread = np.zeros((n, (oh - 1) * stride[0] + 1, (ow - 1) * stride[1] + 1, k), dy.dtype)
        spread[:, ::stride[0], ::stride[1]] = dy
    # Output pixel i of the forward pass read input rows i * s - top + t * d; the input's
    # gradient at row h sums over taps t the spread gradient at h + top - t * d, which is a
    # forward convolution of the spread gradient padded by (kh - 1) * d - top above, with
    # the taps reversed.
    padding = []
    for axis, (before, _) in enumerate(pads):
        reach = (filters.shape[axis] - 1) * dilation[axis]
        low = reach - before
        high = input_hw[axis] + reach - low - spread.shape[1 + axis]
        padding.append((low, high))
    spread = _pad_or_crop(spread, padding)
    flipped = np.ascontiguousarray(filters[::-1, ::-1].transpose(0, 1, 3, 2))
    return conv2d(spread, flipped, (1, 1), dilation, input_hw)


def _pad_or_crop(x, padding):
    """x with rows and columns added (zeros) or taken away at each end, per `padding`."""
    crop = tuple(slice(max(0, -low), x.shape[1 + axis] - max(0, -high))
                 for axis, (low, high) in enumerate(padding))
    x = x[:, crop[0], crop[1], :]
    widths = [(max(0, low), max(0, high)) for low, high in padding]
    if any(map(any, widths)):
        x = np.pad(x, ((0, 0), *widths, (0, 0)))
    return x


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.ones((1, 3, 3, 2), dtype)
        f = np.ones((2, 2, 2, 3), dtype)
        conv2d(x, f, (1, 1), (1, 1), (2, 2))
        conv2d(x, f, (1, 1), (1, 2), (2, 1))  # dilated: kh * kw runs of c values
        conv2d_backprop_filter(x, np.ones((1, 2, 2, 3), dtype), f.shape, (1, 1), (1, 1))
