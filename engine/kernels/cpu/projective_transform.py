"""CPU kernel of ImageProjectiveTransformV2 and V3 (image_ops.cc, image/image_ops.h), what
Keras's RandomRotation, RandomZoom, RandomTranslation and RandomShear run (inside a model
exported with them, in a cond their inference branch skips) and tf.raw_ops exposes.

Each output pixel (x, y) of image b reads the input at ((t0 x + t1 y + t2) / p,
(t3 x + t4 y + t5) / p), p = t6 x + t7 y + 1 (the fill value where p is 0), t being row b of
the transforms (or their one row), in float32 as TensorFlow computes it; a coordinate outside
the image is mapped back by fill_mode (REFLECT, WRAP, NEAREST; CONSTANT keeps it, reading
the fill value), then read by NEAREST (std::round: halves away from zero) or BILINEAR
interpolation, the four reads as float32 (a float64 image too), the result cast to the
image's dtype (C++'s conversion: an integer truncated).
"""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_F32 = np.float32


def _reflect(coord, length):
    """MapCoordinate<FILL_REFLECT>: [abcd] to [dcba|abcd|dcba] (TensorFlow's own arithmetic:
    its `in_coord < sz2` test holds for every negative coordinate)."""
    if length <= 1:
        return np.where((coord < 0) | (coord > length - 1), _F32(0), coord)
    size2 = 2 * length
    below = (size2 * np.trunc(-coord / _F32(size2))).astype(_F32) + coord
    below = np.where(below < -length, below + _F32(size2), -below - _F32(1))
    above = coord - (size2 * np.trunc(coord / _F32(size2))).astype(_F32)
    above = np.where(above >= length, _F32(size2) - above - _F32(1), above)
    return np.where(coord < 0, below, np.where(coord > length - 1, above, coord))


def _wrap(coord, length):
    """MapCoordinate<FILL_WRAP>: [abcd] to [abcd|abcd|abcd]."""
    if length <= 1:
        return np.where((coord < 0) | (coord > length - 1), _F32(0), coord)
    size = _F32(length - 1)
    below = coord + (length * (np.trunc(-coord / size) + 1)).astype(_F32)
    above = coord - (length * np.trunc(coord / size)).astype(_F32)
    return np.where(coord < 0, below, np.where(coord > length - 1, above, coord))


def _mapped(coord, length, fill_mode):
    if fill_mode == "CONSTANT":
        return coord
    if fill_mode == "REFLECT":
        coord = _reflect(coord, length)
    elif fill_mode == "WRAP":
        coord = _wrap(coord, length)
    return np.clip(coord, _F32(0), _F32(length - 1))


def _reader(images, batch, fill_value, dtype):
    """read_with_fill_value over whole arrays of integer coordinates, as `dtype` (NEAREST
    returns the image's values, BILINEAR reads them as float32)."""
    height, width = images.shape[1:3]
    fill = np.asarray(fill_value).astype(dtype)

    def read(rows, cols):
        inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        values = images[batch, np.clip(rows, 0, height - 1), np.clip(cols, 0, width - 1)]
        return np.where(inside[..., None], values.astype(dtype), fill)
    return read


def _round_half_away(value):
    return (np.sign(value) * np.floor(np.abs(value) + _F32(0.5))).astype(np.int64)


def _checked_inputs(ctx, images, transforms, output_shape):
    if images.ndim != 4:
        raise invalid(ctx, "Input images must have rank 4")
    if not (transforms.ndim == 2 and transforms.shape[0] in (images.shape[0], 1)
            and transforms.shape[1] == 8):
        raise invalid(ctx, "Input transform should be num_images x 8 or 1 x 8")
    if output_shape.ndim != 1:
        raise invalid(ctx, f"output shape must be 1-dimensional{shape_str(output_shape.shape)}")
    if output_shape.size != 2:
        raise invalid(ctx, f"output shape must have two elements"
                           f"{shape_str(output_shape.shape)}")
    height, width = (int(v) for v in output_shape)
    if height <= 0 or width <= 0:
        raise invalid(ctx, "output dimensions must be positive")
    return height, width


def _transform(ctx, images, transforms, output_shape, fill_value):
    height, width = _checked_inputs(ctx, images, transforms, np.asarray(output_shape))
    interpolation = ctx.attrs.get("interpolation", b"").decode()
    fill_mode = (ctx.attrs.get("fill_mode") or b"CONSTANT").decode()
    dtype = images.dtype
    fill = dtype.type(fill_value) if dtype.kind == "f" else _F32(fill_value).astype(dtype)
    t = transforms.astype(_F32)[:, None, None, :]
    ys, xs = np.meshgrid(np.arange(height, dtype=_F32), np.arange(width, dtype=_F32),
                         indexing="ij")
    with np.errstate(all="ignore"):
        projection = t[..., 6] * xs + t[..., 7] * ys + _F32(1)
        in_x = (t[..., 0] * xs + t[..., 1] * ys + t[..., 2]) / projection
        in_y = (t[..., 3] * xs + t[..., 4] * ys + t[..., 5]) / projection
        x = _mapped(in_x, images.shape[2], fill_mode)
        y = _mapped(in_y, images.shape[1], fill_mode)
        batch = np.arange(images.shape[0])[:, None, None]
        x = np.broadcast_to(x, (images.shape[0], height, width))
        y = np.broadcast_to(y, (images.shape[0], height, width))
        if interpolation == "NEAREST":
            read = _reader(images, batch, fill, dtype)
            result = read(_round_half_away(y), _round_half_away(x))
        else:
            read = _reader(images, batch, fill, _F32)
            y0, x0 = np.floor(y), np.floor(x)
            y1, x1 = y0 + _F32(1), x0 + _F32(1)
            r0, c0, r1, c1 = (v.astype(np.int64) for v in (y0, x0, y1, x1))
            wx0, wx1 = (x1 - x)[..., None], (x - x0)[..., None]
            top = wx0 * read(r0, c0) + wx1 * read(r0, c1)
            bottom = wx0 * read(r1, c0) + wx1 * read(r1, c1)
            result = (y1 - y)[..., None] * top + (y - y0)[..., None] * bottom
        result = np.where((projection == 0)[..., None], fill, result.astype(dtype))
    return result.astype(dtype, copy=False)


@register("ImageProjectiveTransformV2")
def image_projective_transform_v2(ctx, images, transforms, output_shape):
    return _transform(ctx, images, transforms, output_shape, 0.0)


@register("ImageProjectiveTransformV3")
def image_projective_transform_v3(ctx, images, transforms, output_shape, fill_value):
    if np.ndim(fill_value) != 0:
        raise invalid(ctx, f"fill_value must be a scalar{shape_str(np.shape(fill_value))}")
    return _transform(ctx, images, transforms, output_shape, float(fill_value))
