"""NumPy CPU kernels of the image ops: ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic and
their gradients, ResizeArea, AdjustContrastv2, AdjustSaturation, AdjustHue, RGBToHSV,
HSVToRGB, DepthToSpace and SpaceToDepth (non-max suppression: non_max_suppression.py).

Each follows TensorFlow's CPU kernel (core/kernels/image/) step by step in float32 where it
computes in float32: the source positions `scaler(x, scale)` in float, the interpolation in
its order of operations, a gradient's sums in the order its loops add (np.add.at adds the
contributions to one element in the order they are listed), so the values are TensorFlow's
bit for bit.
"""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

F32 = np.float32


# --- sizes and source positions (image_resizer_state.h) ---

def _resize_scale(in_size, out_size, align_corners):
    """CalculateResizeScale: in float32, as TensorFlow divides."""
    if align_corners and out_size > 1:
        return F32(in_size - 1) / F32(out_size - 1)
    return F32(in_size) / F32(out_size)


def _positions(out_size, scale, half_pixel_centers, nearest=False):
    """scaler(x, scale) for x in range(out_size): the legacy x * scale, the half-pixel
    (x + 0.5) * scale - 0.5 (the nearest-neighbour half-pixel scaler leaves out the - 0.5)."""
    x = np.arange(out_size, dtype=F32)
    if not half_pixel_centers:
        return x * scale
    centred = (x + F32(0.5)) * scale
    return centred if nearest else centred - F32(0.5)


def _resize_attrs(ctx):
    align = bool(ctx.attrs.get("align_corners", False))
    half = bool(ctx.attrs.get("half_pixel_centers", False))
    if align and half:
        raise invalid(ctx, "If half_pixel_centers is True, align_corners must be False.")
    return align, half


def _output_size(ctx, images, size):
    """ImageResizerState::ValidateAndCalculateOutputSize's checks; (out_height, out_width)."""
    if images.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(images.shape)}")
    size = np.asarray(size)
    if size.ndim != 1:
        raise invalid(ctx, f"shape_t must be 1-dimensional{shape_str(size.shape)}")
    if size.size != 2:
        raise invalid(ctx, f"shape_t must have two elements{shape_str(size.shape)}")
    out_h, out_w = int(size[0]), int(size[1])
    if images.shape[1] <= 0 or images.shape[2] <= 0:
        raise invalid(ctx, "input image must be of non-zero size")
    if out_h <= 0 or out_w <= 0:
        raise invalid(ctx, "output dimensions must be positive")
    return out_h, out_w


# --- ResizeBilinear ---

def _bilinear_weights(in_size, out_size, align, half):
    """compute_interpolation_weights: lower and upper source indices and the float lerp."""
    pos = _positions(out_size, _resize_scale(in_size, out_size, align), half)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    return lower, upper, (pos - floor).astype(F32)


@register("ResizeBilinear")
def resize_bilinear(ctx, images, size):
    align, half = _resize_attrs(ctx)
    out_h, out_w = _output_size(ctx, images, size)
    _, in_h, in_w, _ = images.shape
    y_lo, y_hi, y_lerp = _bilinear_weights(in_h, out_h, align, half)
    x_lo, x_hi, x_lerp = _bilinear_weights(in_w, out_w, align, half)
    image = images.astype(F32, copy=False)
    rows_lo, rows_hi = image[:, y_lo], image[:, y_hi]
    x_lerp = x_lerp[None, None, :, None]
    top_left, top_right = rows_lo[:, :, x_lo], rows_lo[:, :, x_hi]
    bottom_left, bottom_right = rows_hi[:, :, x_lo], rows_hi[:, :, x_hi]
    top = top_left + (top_right - top_left) * x_lerp
    bottom = bottom_left + (bottom_right - bottom_left) * x_lerp
    return top + (bottom - top) * y_lerp[None, :, None, None]


def _accumulate(shape, dtype, rows, cols, values):
    """A [batch, height, width, channels] zeros of `dtype` with values[k] (each [batch,
    channels]) added at (rows[k], cols[k]) in the order k: TensorFlow's loops' order."""
    batch, height, width, channels = shape
    out = np.zeros((height * width, batch, channels), dtype)
    np.add.at(out, np.asarray(rows, np.int64) * width + np.asarray(cols, np.int64),
              values.astype(dtype, copy=False))
    return np.ascontiguousarray(out.reshape(height, width, batch, channels).transpose(2, 0, 1, 3))


def _grad_inputs(ctx, grads, original):
    if grads.ndim != 4:
        raise invalid(ctx, f"input_grad must be 4-dimensional{shape_str(grads.shape)}")
    if original.ndim != 4:
        raise invalid(ctx, f"original_image must be 4-dimensional{shape_str(original.shape)}")
    if grads.shape[0] != original.shape[0] or grads.shape[3] != original.shape[3]:
        raise invalid(ctx, "input_grad and original_image must have the same batch size "
                           "and depth")


@register("ResizeBilinearGrad")
def resize_bilinear_grad(ctx, grads, original_image):
    """Each gradient value spread over its four source pixels: (g * y weight) * x weight in
    float, added in T, top-left, top-right, bottom-left, bottom-right, row after row."""
    align, half = _resize_attrs(ctx)
    _grad_inputs(ctx, grads, original_image)
    batch, out_h, out_w, channels = grads.shape
    in_h, in_w = original_image.shape[1:3]
    y_lo, y_hi, y_lerp = _bilinear_weights(in_h, out_h, align, half)
    x_lo, x_hi, x_lerp = _bilinear_weights(in_w, out_w, align, half)
    g = np.moveaxis(grads.astype(F32, copy=False), 0, 2)  # [out_h, out_w, batch, channels]
    y_inv, x_inv = F32(1) - y_lerp, F32(1) - x_lerp
    parts = []
    for y_idx, y_w in ((y_lo, y_inv), (y_hi, y_lerp)):
        for x_idx, x_w in ((x_lo, x_inv), (x_hi, x_lerp)):
            value = g * y_w[:, None, None, None] * x_w[None, :, None, None]
            rows = np.broadcast_to(y_idx[:, None], (out_h, out_w))
            cols = np.broadcast_to(x_idx[None, :], (out_h, out_w))
            parts.append((rows, cols, value))
    rows = np.stack([p[0] for p in parts], axis=2).reshape(-1)
    cols = np.stack([p[1] for p in parts], axis=2).reshape(-1)
    values = np.stack([p[2] for p in parts], axis=2).reshape(-1, batch, channels)
    return _accumulate((batch, in_h, in_w, channels), original_image.dtype, rows, cols, values)


# --- ResizeNearestNeighbor ---

def _nearest_indices(in_size, out_size, align, half, scale_sizes):
    """The source index of each output position (roundf with align_corners, else floorf),
    clamped to the input as TensorFlow clamps it."""
    scale = _resize_scale(*scale_sizes, align)
    pos = _positions(out_size, scale, half, nearest=True)
    if align:
        floor = np.floor(pos)
        index = floor + (pos - floor >= F32(0.5))  # roundf: halves away from zero (pos >= 0)
    else:
        index = np.floor(pos)
    index = np.minimum(index.astype(np.int64), in_size - 1)
    return np.maximum(index, 0) if half else index


@register("ResizeNearestNeighbor")
def resize_nearest_neighbor(ctx, images, size):
    align, half = _resize_attrs(ctx)
    out_h, out_w = _output_size(ctx, images, size)
    _, in_h, in_w, _ = images.shape
    rows = _nearest_indices(in_h, out_h, align, half, (in_h, out_h))
    cols = _nearest_indices(in_w, out_w, align, half, (in_w, out_w))
    return np.ascontiguousarray(images[:, rows][:, :, cols])


@register("ResizeNearestNeighborGrad")
def resize_nearest_neighbor_grad(ctx, grads, size):
    align, half = _resize_attrs(ctx)
    if grads.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(grads.shape)}")
    size = np.asarray(size).reshape(-1)
    if size.size != 2:
        raise invalid(ctx, f"shape_t must have two elements{shape_str(np.shape(size))}")
    out_h, out_w = int(size[0]), int(size[1])
    batch, in_h, in_w, channels = grads.shape
    rows = _nearest_indices(out_h, in_h, align, half, (out_h, in_h))
    cols = _nearest_indices(out_w, in_w, align, half, (out_w, in_w))
    all_rows = np.broadcast_to(rows[:, None], (in_h, in_w)).reshape(-1)
    all_cols = np.broadcast_to(cols[None, :], (in_h, in_w)).reshape(-1)
    values = np.moveaxis(grads, 0, 2).reshape(-1, batch, channels)
    return _accumulate((batch, out_h, out_w, channels), grads.dtype, all_rows, all_cols, values)


# --- ResizeBicubic ---

_TABLE_SIZE = 1024


def _coefficients(keys_cubic):
    """InitCoeffsTable: the cubic kernel at 1025 points, computed in double from float x and
    stored as float (a = -0.5, Keys, with half-pixel centres; -0.75 otherwise)."""
    a = -0.5 if keys_cubic else -0.75
    x = (np.arange(_TABLE_SIZE + 1) * 1.0 / _TABLE_SIZE).astype(F32).astype(np.float64)
    near = (((a + 2) * x - (a + 3)) * x * x + 1).astype(F32)
    x = (x + 1.0).astype(F32).astype(np.float64)
    far = ((((a * x - 5 * a) * x + 8 * a) * x) - 4 * a).astype(F32)
    return near, far


def _bicubic_weights(in_size, out_size, align, half):
    """GetWeightsAndIndices for every output position: indices and weights [out_size, 4]."""
    pos = _positions(out_size, _resize_scale(in_size, out_size, align), half)
    in_loc = np.floor(pos).astype(np.int64)
    delta = (pos - in_loc.astype(F32)).astype(F32)
    offset = np.rint(delta * F32(_TABLE_SIZE)).astype(np.int64)  # lrintf: halves to even
    near, far = _coefficients(half)
    weights = np.stack([far[offset], near[offset], near[_TABLE_SIZE - offset],
                        far[_TABLE_SIZE - offset]], axis=1)
    wanted = in_loc[:, None] + np.arange(-1, 3)[None, :]
    indices = np.minimum(in_size - 1, np.maximum(0, wanted))
    if half:
        # Keys' sampling: taps outside the image weigh 0, the rest renormalised to sum 1.
        weights = np.where(indices == wanted, weights, F32(0)).astype(F32)
        total = ((weights[:, 0] + weights[:, 1]) + weights[:, 2]) + weights[:, 3]
        scale = np.abs(total) >= F32(1000) * np.finfo(F32).tiny
        inverse = np.where(scale, F32(1) / np.where(scale, total, F32(1)), F32(1)).astype(F32)
        weights = np.where(scale[:, None], weights * inverse[:, None], weights).astype(F32)
    return indices, weights


@register("ResizeBicubic")
def resize_bicubic(ctx, images, size):
    """Interpolated down the columns first (four rows, each weighted, summed in order), then
    along the row (four of those column values)."""
    align, half = _resize_attrs(ctx)
    out_h, out_w = _output_size(ctx, images, size)
    _, in_h, in_w, _ = images.shape
    y_idx, y_w = _bicubic_weights(in_h, out_h, align, half)
    x_idx, x_w = _bicubic_weights(in_w, out_w, align, half)
    image = images.astype(F32, copy=False)
    columns = None  # [batch, out_h, in_w, channels]
    for i in range(4):
        term = image[:, y_idx[:, i]] * y_w[None, :, i, None, None]
        columns = term if columns is None else columns + term
    out = None
    for j in range(4):
        term = columns[:, :, x_idx[:, j]] * x_w[None, None, :, j, None]
        out = term if out is None else out + term
    return out


@register("ResizeBicubicGrad")
def resize_bicubic_grad(ctx, grads, original_image):
    """Each gradient value spread over its 16 source pixels: (g * y weight) * x weight in
    T, rows of taps outer, columns inner, output pixels in order."""
    align, half = _resize_attrs(ctx)
    _grad_inputs(ctx, grads, original_image)
    batch, out_h, out_w, channels = grads.shape
    in_h, in_w = original_image.shape[1:3]
    dtype = original_image.dtype
    y_idx, y_w = _bicubic_weights(in_h, out_h, align, half)
    x_idx, x_w = _bicubic_weights(in_w, out_w, align, half)
    g = np.moveaxis(grads.astype(dtype), 0, 2)  # [out_h, out_w, batch, channels] in T
    y_w, x_w = y_w.astype(dtype), x_w.astype(dtype)
    values = (g[:, :, None, None] * y_w[:, None, :, None, None, None]
              * x_w[None, :, None, :, None, None])  # [out_h, out_w, 4, 4, batch, channels]
    rows = np.broadcast_to(y_idx[:, None, :, None], (out_h, out_w, 4, 4)).reshape(-1)
    cols = np.broadcast_to(x_idx[None, :, None, :], (out_h, out_w, 4, 4)).reshape(-1)
    return _accumulate((batch, in_h, in_w, channels), dtype, rows, cols,
                       values.reshape(-1, batch, channels))


# --- ResizeArea ---

def _area_scale(i, start, stop, scale):
    """The share of source cell i in [start, stop) (resize_area_op.cc's ternaries)."""
    if i < start:
        return scale if i + 1 > stop else F32(i + 1 - start)
    return F32(stop - i) if i + 1 > stop else F32(1)


def _area_cells(out_size, scale, in_size):
    """Per output position: [(bounded source index, its share)], in TensorFlow's order."""
    cells = []
    for o in range(out_size):
        start, stop = F32(o) * scale, F32(o + 1) * scale
        first, end = int(np.floor(start)), int(np.ceil(stop))
        cells.append([(min(in_size - 1, max(0, i)), _area_scale(i, start, stop, scale))
                      for i in range(first, end)])
    return cells


@register("ResizeArea")
def resize_area(ctx, images, size):
    """Each output the source cells it covers, each weighted by its share: the row's first
    and last cells scaled, the cells between added as they are, the rows weighted and added
    in order, the sum times 1 / (height scale * width scale); all in float."""
    align = bool(ctx.attrs.get("align_corners", False))
    out_h, out_w = _output_size(ctx, images, size)
    batch, in_h, in_w, channels = images.shape
    height_scale = _resize_scale(in_h, out_h, align)
    width_scale = _resize_scale(in_w, out_w, align)
    scale = F32(1.0 / np.float64(height_scale * width_scale))
    image = images.astype(F32, copy=False)
    rows = _area_cells(out_h, height_scale, in_h)
    cols = _area_cells(out_w, width_scale, in_w)
    out = np.empty((batch, out_h, out_w, channels), F32)
    for y, row_cells in enumerate(rows):
        for x, col_cells in enumerate(cols):
            total = np.zeros((batch, channels), F32)
            for row, row_share in row_cells:
                line = image[:, row]
                first, first_share = col_cells[0]
                part = line[:, first] * first_share
                if len(col_cells) > 1:
                    for col, _ in col_cells[1:-1]:
                        part = part + line[:, col]
                    last, last_share = col_cells[-1]
                    part = part + line[:, last] * last_share
                total = total + part * row_share
            out[:, y, x] = total * scale
    return out


# --- AdjustContrastv2, AdjustSaturation, AdjustHue ---

def _image_planes(ctx, images, least_rank=3):
    if images.ndim < least_rank:
        raise invalid(ctx, f"input must be at least 3-D, got shape{shape_str(images.shape)}")


@register("AdjustContrastv2")
def adjust_contrastv2(ctx, images, contrast_factor):
    """mean + factor * (x - mean), the means summed as ReduceMeanAcrossImage folds each
    image in halves (round 0 into scratch, then the right half into the left)."""
    _image_planes(ctx, images)
    factor = np.asarray(contrast_factor)
    if factor.ndim != 0:
        raise invalid(ctx, f"contrast_factor must be scalar: {shape_str(factor.shape)}")
    height, width, channels = images.shape[-3:]
    flat = images.astype(F32, copy=False).reshape(-1, height * width, channels)
    remaining = height * width
    total = flat
    first = True
    while True:
        right = remaining // 2
        left = remaining - right
        if first:
            summed = total[:, left:left + right] + total[:, :right]
            if left > right:
                summed = np.concatenate([summed, total[:, right:right + 1]], axis=1)
            total, first = summed, False
        else:
            total = np.concatenate([total[:, :right] + total[:, left:left + right],
                                    total[:, right:]], axis=1)
        remaining = left
        if remaining <= 1:
            break
    mean = total[:, :1] * (F32(1) / F32(height * width))
    out = mean + F32(factor) * (flat - mean)
    return out.reshape(images.shape).astype(images.dtype, copy=False)


def _rgb_channels(ctx, images):
    if images.ndim < 1 or images.shape[-1] != 3:
        raise invalid(ctx, f"input must have 3 channels but instead has "
                           f"{images.shape[-1] if images.ndim else 0} channels.")
    work = images.astype(F32, copy=False)
    return work[..., 0], work[..., 1], work[..., 2]


@register("AdjustSaturation")
def adjust_saturation(ctx, images, scale):
    """rgb_to_hsv, s * scale clamped to [0, 1], hsv_to_rgb (adjust_saturation_op.cc)."""
    r, g, b = _rgb_channels(ctx, images)
    with np.errstate(all="ignore"):
        v = np.maximum(r, np.maximum(g, b))
        rng = v - np.minimum(r, np.minimum(g, b))
        s = np.where(v > 0, rng / np.where(v > 0, v, F32(1)), F32(0)).astype(F32)
        norm = F32(1) / (F32(6) * rng)
        # 2.0 / 6.0 and 4.0 / 6.0 are doubles: the sum is rounded from double to float.
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, (norm * (b - r)).astype(np.float64) + 2.0 / 6.0,
                              (norm * (r - g)).astype(np.float64) + 4.0 / 6.0)).astype(F32)
        h = np.where(rng <= 0, F32(0), h)
        h = np.where(h < 0, h + F32(1), h).astype(F32)
        s = np.minimum(F32(1), np.maximum(F32(0), s * F32(scale))).astype(F32)
        out = _hsv_to_rgb(h, s, v)
    return out.astype(images.dtype, copy=False)


def _hsv_to_rgb(h, s, v):
    c = s * v
    m = v - c
    dh = h * F32(6)
    category = np.trunc(dh).astype(np.int64)
    fmodu = dh.copy()
    while (fmodu <= 0).any():
        fmodu = np.where(fmodu <= 0, fmodu + F32(2), fmodu)
    while (fmodu >= 2).any():
        fmodu = np.where(fmodu >= 2, fmodu - F32(2), fmodu)
    x = c * (F32(1) - np.abs(fmodu - F32(1)))
    zero = np.zeros_like(c)
    table = {0: (c, x, zero), 1: (x, c, zero), 2: (zero, c, x), 3: (zero, x, c),
             4: (x, zero, c), 5: (c, zero, x)}
    channels = []
    for k in range(3):
        value = zero
        for category_value, parts in table.items():
            value = np.where(category == category_value, parts[k], value)
        channels.append(value + m)
    return np.stack(channels, axis=-1).astype(F32)


@register("AdjustHue")
def adjust_hue(ctx, images, delta):
    """rgb_to_hv_range, h + delta * 6 brought into [0, 6), hv_range_to_rgb
    (adjust_hue_op.cc)."""
    r, g, b = _rgb_channels(ctx, images)
    r_lt_g = r < g
    # (v_max, v_mid, v_min, category) for each ordering of the channels, as TensorFlow tests.
    cases = [
        (r_lt_g & (b < r), (g, r, b, 1)), (r_lt_g & ~(b < r) & (b > g), (b, g, r, 3)),
        (r_lt_g & ~(b < r) & ~(b > g), (g, b, r, 2)), (~r_lt_g & (b < g), (r, g, b, 0)),
        (~r_lt_g & ~(b < g) & (b > r), (b, r, g, 4)), (~r_lt_g & ~(b < g) & ~(b > r),
                                                          (r, b, g, 5))]
    v_max, v_mid, v_min = np.zeros_like(r), np.zeros_like(r), np.zeros_like(r)
    category = np.zeros(r.shape, np.int64)
    for where, (hi, mid, lo, cat) in cases:
        v_max, v_mid, v_min = (np.where(where, hi, v_max), np.where(where, mid, v_mid),
                               np.where(where, lo, v_min))
        category = np.where(where, cat, category)
    with np.errstate(all="ignore"):
        ratio = (v_mid - v_min) / (v_max - v_min)
        increase = (category & 1) == 0
        h = category.astype(F32) + np.where(increase, ratio, F32(1) - ratio)
        h = np.where(v_max == v_min, F32(0), h).astype(F32)
    h = (h + F32(delta) * F32(6)).astype(F32)
    while (h < 0).any():
        h = np.where(h < 0, h + F32(6), h)
    while (h >= 6).any():
        h = np.where(h >= 6, h - F32(6), h)
    category = np.trunc(h).astype(np.int64)
    ratio = h - category.astype(F32)
    ratio = np.where((category & 1) == 0, ratio, F32(1) - ratio)
    v_mid = v_min + ratio * (v_max - v_min)
    table = {0: (v_max, v_mid, v_min), 1: (v_mid, v_max, v_min), 2: (v_min, v_max, v_mid),
             3: (v_min, v_mid, v_max), 4: (v_mid, v_min, v_max)}
    channels = []
    for k in range(3):
        value = (v_max, v_min, v_mid)[k]  # category 5 and the default
        for category_value, parts in table.items():
            value = np.where(category == category_value, parts[k], value)
        channels.append(value)
    return np.stack(channels, axis=-1).astype(images.dtype)


# --- RGBToHSV / HSVToRGB (colorspace_op.h) ---

@register("RGBToHSV")
def rgb_to_hsv(ctx, images):
    """colorspace_op.h's Eigen expressions. range.inverse() is an exact 1 / x: with
    EIGEN_FAST_MATH's reciprocal (rcpps and a Newton step) 5 of 42 float32 hues were an ulp
    off TensorFlow's, with the division none."""
    if images.ndim < 1 or images.shape[-1] != 3:
        raise invalid(ctx, f"input must have 3 channels but input only has "
                           f"{images.shape[-1] if images.ndim else 0} channels.")
    dtype = images.dtype.type
    flat = images.reshape(-1, 3)
    r, g, b = flat[:, 0], flat[:, 1], flat[:, 2]
    v = flat.max(axis=1)
    with np.errstate(all="ignore"):
        rng = v - flat.min(axis=1)
        s = np.where(v > 0, rng / v, dtype(0))
        norm = (dtype(1) / rng) * (dtype(1) / dtype(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + dtype(2) / dtype(6),
                              norm * (r - g) + dtype(4) / dtype(6)))
        h = np.where(rng > 0, h, dtype(0))
        h = np.where(h < 0, h + dtype(1), h)
    return np.stack([h, s, v], axis=1).astype(images.dtype).reshape(images.shape)


@register("HSVToRGB")
def hsv_to_rgb(ctx, images):
    if images.ndim < 1 or images.shape[-1] != 3:
        raise invalid(ctx, f"input must have 3 channels but input only has "
                           f"{images.shape[-1] if images.ndim else 0} channels.")
    dtype = images.dtype.type
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    dh = h * dtype(6)
    one, zero, two = dtype(1), dtype(0), dtype(2)
    dr = np.minimum(np.maximum(np.abs(dh - dtype(3)) - one, zero), one)
    dg = np.minimum(np.maximum(-np.abs(dh - two) + two, zero), one)
    db = np.minimum(np.maximum(-np.abs(dh - dtype(4)) + two, zero), one)
    one_s = -s + one
    return np.stack([(one_s + s * dr) * v, (one_s + s * dg) * v, (one_s + s * db) * v],
                    axis=-1).astype(images.dtype)


# --- DepthToSpace / SpaceToDepth ---

def _block_attrs(ctx, x, what):
    if ctx.attrs.get("data_format", b"NHWC") not in (b"NHWC", "NHWC"):
        fmt = ctx.attrs.get("data_format")
        fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
        raise invalid(ctx, f"Only NHWC data_format supported on CPU. Got {fmt}")
    if x.ndim != 4:
        raise invalid(ctx, f"Input rank should be: 4 instead of: {x.ndim}")
    return int(ctx.attrs["block_size"])


@register("DepthToSpace")
def depth_to_space(ctx, x):
    block = _block_attrs(ctx, x, "depth")
    batch, height, width, depth = x.shape
    if depth % (block * block):
        raise invalid(ctx, f"Input depth dimension {depth} should be divisible by: "
                           f"{block * block}")
    out_depth = depth // (block * block)
    view = x.reshape(batch, height, width, block, block, out_depth)
    return np.ascontiguousarray(view.transpose(0, 1, 3, 2, 4, 5)).reshape(
        batch, height * block, width * block, out_depth)


@register("SpaceToDepth")
def space_to_depth(ctx, x):
    block = _block_attrs(ctx, x, "space")
    batch, height, width, depth = x.shape
    if height % block or width % block:
        raise invalid(ctx, f"Image width {width} and height {height} should be divisible by "
                           f"block_size: {block}")
    view = x.reshape(batch, height // block, block, width // block, block, depth)
    return np.ascontiguousarray(view.transpose(0, 1, 3, 2, 4, 5)).reshape(
        batch, height // block, width // block, block * block * depth)
