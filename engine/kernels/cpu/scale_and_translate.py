"""CPU kernel of ScaleAndTranslate (scale_and_translate_op.cc), what tf.image.resize runs with
antialias=True and for its lanczos3, lanczos5, gaussian and mitchellcubic methods: each output
pixel a normalised weighted sum over a span of input pixels, the kernel stretched by the
downscale when antialiasing, columns first, then rows, in float32 as TensorFlow sums them."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid

_F32 = np.float32
_PI = _F32(3.14159265359)


def _lanczos(radius):
    radius = _F32(radius)

    def kernel(x):
        x = np.abs(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (radius * np.sin(_PI * x) * np.sin(_PI * x / radius)
                     / (_PI * _PI * x * x)).astype(_F32)
        return np.where(x > radius, _F32(0), np.where(x <= _F32(1e-3), _F32(1), value))
    return kernel, float(radius)


def _gaussian(x):
    """Radius 1.5, sigma 0.5 (Turkowski's support of 3 pixels); the exponent in double."""
    x = np.abs(x)
    sigma = 0.5
    value = np.exp(-(x * x).astype(np.float64) / (2.0 * sigma * sigma)).astype(_F32)
    return np.where(x >= _F32(1.5), _F32(0), value)


def _box(x):
    x = np.abs(x)
    return np.where(x < _F32(0.5), _F32(1), np.where(x == _F32(0.5), _F32(0.5), _F32(0)))


def _triangle(x):
    x = np.abs(x)
    return np.where(x < _F32(1), _F32(1) - x, _F32(0))


def _keys_cubic(x):
    x = np.abs(x)
    far = ((_F32(-0.5) * x + _F32(2.5)) * x - _F32(4)) * x + _F32(2)
    near = ((_F32(1.5) * x - _F32(2.5)) * x) * x + _F32(1)
    return np.where(x >= _F32(2), _F32(0), np.where(x >= _F32(1), far, near))


def _mitchell_cubic(x):
    x = np.abs(x)
    far = (((_F32(-7.0 / 18.0)) * x + _F32(2)) * x - _F32(10.0 / 3.0)) * x + _F32(16.0 / 9.0)
    near = (((_F32(7.0 / 6.0)) * x - _F32(2)) * x) * x + _F32(8.0 / 9.0)
    return np.where(x >= _F32(2), _F32(0), np.where(x >= _F32(1), far, near))


KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (_gaussian, 1.5), "box": (_box, 1.0), "triangle": (_triangle, 1.0),
    "keyscubic": (_keys_cubic, 2.0), "mitchellcubic": (_mitchell_cubic, 2.0),
}


def compute_spans(kernel, radius, output_size, input_size, scale, translate, antialias):
    """(span size, each output's first input, [output, span] weights), as ComputeSpansCore."""
    inv_scale = _F32(1) / _F32(scale)
    inv_translate = -inv_scale * _F32(translate)
    kernel_scale = max(inv_scale, _F32(1)) if antialias else _F32(1)
    reach = _F32(radius) * kernel_scale
    span_size = min(2 * int(np.ceil(reach)) + 1, input_size)
    starts = np.zeros(output_size, np.int64)
    weights = np.zeros((output_size, span_size), _F32)
    one_over_kernel_scale = _F32(1) / kernel_scale
    for x in range(output_size):
        sample = (_F32(x) + _F32(0.5)) * inv_scale + inv_translate
        if sample < 0 or sample > input_size:
            continue
        start = min(max(int(np.ceil(sample - reach - _F32(0.5))), 0), input_size - 1)
        end = min(max(int(np.floor(sample + reach - _F32(0.5))), 0), input_size - 1) + 1
        positions = np.arange(start, end).astype(_F32) + _F32(0.5) - sample
        values = kernel(np.abs(positions * one_over_kernel_scale)).astype(_F32)
        total = _F32(0)
        for value in values:
            total = _F32(total + value)
        if abs(total) >= 1000 * np.finfo(_F32).tiny:
            weights[x, :values.size] = values * (_F32(1) / total)
        starts[x] = start
    return span_size, starts, weights


def _gather(data, axis, span_size, starts, weights):
    """Weighted sums along `axis` (1 rows, 2 columns) over each output's span, in span order."""
    size = data.shape[axis]
    out_shape = list(data.shape)
    out_shape[axis] = starts.size
    out = np.zeros(out_shape, _F32)
    for i in range(span_size):
        index = starts + i
        inside = index < size
        taken = np.take(data, np.minimum(index, size - 1), axis=axis)
        weight = np.where(inside, weights[:, i], _F32(0))
        shape = [1, 1, 1, 1]
        shape[axis] = starts.size
        out += np.where(inside.reshape(shape), weight.reshape(shape) * taken, _F32(0))
    return out


@register("ScaleAndTranslate")
def scale_and_translate(ctx, images, size, scale, translation):
    images = np.asarray(images)
    if images.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{list(images.shape)}")
    size = np.asarray(size).reshape(-1)
    scale = np.asarray(scale, _F32).reshape(-1)
    translation = np.asarray(translation, _F32).reshape(-1)
    if size.size != 2 or scale.size != 2 or translation.size != 2:
        raise invalid(ctx, "size, scale and translation must each hold 2 values")
    out_height, out_width = int(size[0]), int(size[1])
    if out_height <= 0 or out_width <= 0:
        raise invalid(ctx, "output dimensions must be positive")
    if scale[0] <= 0 or scale[1] <= 0:
        raise invalid(ctx, "Scale must be greater than zero.")
    kind = ctx.attr("kernel_type", "lanczos3")
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind not in KERNELS:
        raise invalid(ctx, f"Unrecognized kernel type: {kind}")
    kernel, radius = KERNELS[kind]
    antialias = ctx.attr("antialias", True)
    _, in_height, in_width, _ = images.shape
    columns = compute_spans(kernel, radius, out_width, in_width, scale[1], translation[1],
                            antialias)
    rows = compute_spans(kernel, radius, out_height, in_height, scale[0], translation[0],
                         antialias)
    intermediate = _gather(images.astype(_F32), 2, *columns)
    return _gather(intermediate, 1, *rows)


def _span_matrix(span_size, starts, weights, input_size):
    """The spans as an [output, input] matrix of weights."""
    matrix = np.zeros((starts.size, input_size), _F32)
    for i in range(span_size):
        index = starts + i
        inside = index < input_size
        matrix[np.arange(starts.size)[inside], index[inside]] += weights[inside, i]
    return matrix


@register("ScaleAndTranslateGrad")
def scale_and_translate_grad(ctx, grads, original_image, scale, translation):
    """The adjoint of ScaleAndTranslate: the output gradient spread back over each span with
    the forward weights (TensorFlow sums the transposed spans in another order: a few ulps)."""
    grads, original = np.asarray(grads, _F32), np.asarray(original_image)
    scale = np.asarray(scale, _F32).reshape(-1)
    translation = np.asarray(translation, _F32).reshape(-1)
    kind = ctx.attr("kernel_type", "lanczos3")
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind not in KERNELS:
        raise invalid(ctx, f"Unrecognized kernel type: {kind}")
    kernel, radius = KERNELS[kind]
    antialias = ctx.attr("antialias", True)
    _, out_height, out_width, _ = grads.shape
    _, in_height, in_width, _ = original.shape
    columns = _span_matrix(*compute_spans(kernel, radius, out_width, in_width, scale[1],
                                          translation[1], antialias), in_width)
    rows = _span_matrix(*compute_spans(kernel, radius, out_height, in_height, scale[0],
                                       translation[0], antialias), in_height)
    through_rows = np.einsum("oi,bowc->biwc", rows, grads).astype(_F32)
    return np.einsum("oj,bioc->bijc", columns, through_rows).astype(_F32)
