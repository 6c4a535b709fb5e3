"""CPU kernel of ExtractGlimpse (attention_ops.cc over Eigen's ExtractGlimpses): each image's
window of `size` at its offset, in pixels from the offsets as the kernel works them out in
float (un-normalised, un-centred, the half window taken off, truncated to an index). A window
reaching outside the image is first filled with noise, as TensorFlow fills it: uniform in
[min, max) of the image, or a Gaussian of each channel's mean and deviation clipped to its
range; TensorFlow draws it unseeded, so its values are not TensorFlow's (the image's part is)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

F32 = np.float32


def _origin(offset, size, window, normalized, centered):
    """The window's first pixel along one axis: the offset in pixels (times the size when
    normalised; halved and moved to the image's centre when centred), less half the window,
    truncated to an index (measured against TensorFlow 2.21's ExtractGlimpse)."""
    x = F32(offset)
    if normalized:
        x = F32(x * F32(size))
    if centered:
        x = F32(x / F32(2))
        x = F32(x + F32(size) / F32(2))
    x = F32(x - F32(window) / F32(2))
    return int(x)


def _noise(image, window_h, window_w, uniform, rng):
    """The window's filling before the image's part is copied in."""
    depth = image.shape[-1]
    if uniform:
        low = image.min()
        span = F32(image.max() - low)
        draws = rng.random((window_h, window_w, depth), dtype=np.float32)
        return (low + (draws * span).astype(image.dtype)).astype(image.dtype)
    out = np.empty((window_h, window_w, depth), image.dtype)
    for c in range(depth):
        plane = image[..., c].astype(F32)
        mean, sigma = plane.mean(dtype=F32), np.sqrt(((plane - plane.mean()) ** 2).mean())
        draws = rng.standard_normal((window_h, window_w), dtype=np.float32)
        out[..., c] = np.clip(mean + draws * F32(sigma), plane.min(), plane.max())
    return out


@register("ExtractGlimpse")
def extract_glimpse(ctx, images, size, offsets):
    images, size, offsets = np.asarray(images), np.asarray(size), np.asarray(offsets)
    if images.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional (batch_size, height, width, depth)"
                           f"{shape_str(images.shape)}")
    if size.ndim != 1 or size.shape[0] != 2:
        raise invalid(ctx, f"input must be a vector of size 2 (height, width)"
                           f"{shape_str(size.shape)}")
    window_h, window_w = int(size[0]), int(size[1])
    batch, height, width, depth = images.shape
    if offsets.ndim != 2:
        raise invalid(ctx, f"input must be a matrix{shape_str(offsets.shape)}")
    if offsets.shape[0] != batch:
        raise invalid(ctx, f"first dimension should be batch{shape_str(offsets.shape)}")
    if offsets.shape[1] != 2:
        raise invalid(ctx, f"second dimension should be of size 2 (y,x)"
                           f"{shape_str(offsets.shape)}")
    noise = ctx.attrs.get("noise", "uniform")
    noise = noise.decode() if isinstance(noise, bytes) else noise
    uniform_flag = bool(ctx.attrs.get("uniform_noise", True))
    if uniform_flag and noise not in ("", "uniform"):
        raise invalid(ctx, "The uniform_noise and noise could not be specified at the same "
                           "time")
    mode = ("uniform" if uniform_flag else "gaussian") if noise == "" else noise
    if mode not in ("uniform", "gaussian", "zero"):
        raise invalid(ctx, f"The noise could only be uniform, gaussian, or zero, got{noise}")
    normalized = bool(ctx.attrs.get("normalized", True))
    centered = bool(ctx.attrs.get("centered", True))
    out = np.zeros((batch, window_h, window_w, depth), images.dtype)
    rng = np.random.default_rng()
    for b in range(batch):
        y0 = _origin(offsets[b, 0], height, window_h, normalized, centered)
        x0 = _origin(offsets[b, 1], width, window_w, normalized, centered)
        partial = x0 < 0 or x0 + window_w >= width or y0 < 0 or y0 + window_h >= height
        if partial and mode != "zero":
            out[b] = _noise(images[b], window_h, window_w, mode == "uniform", rng)
        src_y, src_x = max(y0, 0), max(x0, 0)
        stop_y, stop_x = min(y0 + window_h, height), min(x0 + window_w, width)
        if stop_y > src_y and stop_x > src_x:
            out[b, src_y - y0:stop_y - y0, src_x - x0:stop_x - x0] = \
                images[b, src_y:stop_y, src_x:stop_x]
    return out
