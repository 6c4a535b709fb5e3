"""NumPy CPU kernels: ExtractImagePatches and ExtractVolumePatches, each window of the input
(SAME or VALID, dilated by `rates`) laid out along the depth: [..., kernel offsets, depth]."""

import itertools

import numpy as np

from engine.framework.errors import UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid, shape_str


def windowed_output_size(size, effective, stride, padding):
    """(output size, padding before) as TensorFlow's GetWindowedOutputSize gives them; None
    for the size where it would be negative."""
    if padding == "VALID":
        out = (size - effective + stride) // stride
        return (out if out >= 0 else None), 0
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + effective - size, 0)
    return out, total // 2


def extract_patches(x, ksizes, strides, rates, padding):
    """[batch, out spatial..., prod(ksizes) * depth] of x [batch, spatial..., depth]; the
    windows' positions outside the input are zeros."""
    spatial = x.shape[1:-1]
    outs, befores, effectives = [], [], []
    for size, k, stride, rate in zip(spatial, ksizes, strides, rates):
        effective = k + (k - 1) * (rate - 1)
        out, before = windowed_output_size(size, effective, stride, padding)
        outs.append(out)
        befores.append(before)
        effectives.append(effective)
    pads = [(0, 0)]
    for size, out, before, effective, stride in zip(spatial, outs, befores, effectives,
                                                    strides):
        needed = (out - 1) * stride + effective if out > 0 else 0
        pads.append((before, max(needed - size - before, 0)))
    padded = np.pad(x, pads + [(0, 0)])
    pieces = []
    for offsets in itertools.product(*(range(k) for k in ksizes)):
        index = [slice(None)]
        for offset, out, stride, rate in zip(offsets, outs, strides, rates):
            start = offset * rate
            index.append(slice(start, start + (out - 1) * stride + 1 if out > 0 else start,
                               stride))
        pieces.append(padded[tuple(index)])
    if not pieces:
        return np.zeros((x.shape[0], *outs, 0), x.dtype)
    stacked = np.stack(pieces, axis=-2)
    return np.ascontiguousarray(stacked.reshape(*stacked.shape[:-2],
                                                stacked.shape[-2] * stacked.shape[-1]))


def _check_attrs(ctx, x, rank, names, attrs):
    """TensorFlow's checks: the attrs when the kernel is made, the input's rank when run."""
    for name, values in zip(names, attrs):
        if values[0] != 1 or values[-1] != 1:
            raise UnimplementedError(ctx.node_def, None, f"Only support {name} across space.")
    if np.ndim(x) != rank:
        raise invalid(ctx, f"input must be {rank}-dimensional{shape_str(np.shape(x))}")


def _size_errors(ctx, x, ksizes, strides, rates, padding):
    for size, k, stride, rate in zip(x.shape[1:-1], ksizes, strides, rates):
        effective = k + (k - 1) * (rate - 1)
        out, _ = windowed_output_size(size, effective, stride, padding)
        if out is None:
            raise invalid(ctx, f"Computed output size would be negative: "
                               f"{(size - effective + stride) // stride} [input_size: {size}, "
                               f"effective_filter_size: {effective}, stride: {stride}]")


@register("ExtractImagePatches")
def extract_image_patches(ctx, images):
    ksizes, strides, rates = (list(ctx.attrs[k]) for k in ("ksizes", "strides", "rates"))
    padding = ctx.attrs["padding"]
    padding = padding.decode() if isinstance(padding, bytes) else padding
    _check_attrs(ctx, images, 4, ("ksizes", "strides", "rates"), (ksizes, strides, rates))
    _size_errors(ctx, images, ksizes[1:-1], strides[1:-1], rates[1:-1], padding)
    return extract_patches(images, ksizes[1:-1], strides[1:-1], rates[1:-1], padding)


@register("ExtractVolumePatches")
def extract_volume_patches(ctx, volume):
    ksizes, strides = (list(ctx.attrs[k]) for k in ("ksizes", "strides"))
    padding = ctx.attrs["padding"]
    padding = padding.decode() if isinstance(padding, bytes) else padding
    _check_attrs(ctx, volume, 5, ("ksizes", "strides"), (ksizes, strides))
    _size_errors(ctx, volume, ksizes[1:-1], strides[1:-1], [1, 1, 1], padding)
    return extract_patches(volume, ksizes[1:-1], strides[1:-1], [1, 1, 1], padding)
