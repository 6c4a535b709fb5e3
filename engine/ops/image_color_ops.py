"""tf.image's values and colours (TF 1.x names): per_image_standardization,
convert_image_dtype, grayscale, HSV, brightness, contrast, gamma, saturation and hue, built as
TensorFlow 2.21's image_ops_impl.py builds them in graph mode."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, check_ops, linalg_ops, math_ops, random_ops
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import ones
from engine.ops.image_ops import _assert, _assert_at_least_3d_image
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import rank as _rank, shape as _shape


def _reduce_std(input_tensor, axis=None, keepdims=False):
    """math_ops.reduce_std and reduce_variance's nodes (TF 2's tf.math.reduce_std)."""
    with name_scope("reduce_std"):
        input_tensor = convert_to_tensor(input_tensor)
        with name_scope("reduce_variance"):
            means = math_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
            squared_deviations = math_ops.square(input_tensor - means)
            variance = math_ops.reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)
        return math_ops.sqrt(variance)


def per_image_standardization(image):
    with name_scope(None, "per_image_standardization", [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        image = math_ops.cast(image, dtype=dtypes.float32)
        num_pixels = math_ops.reduce_prod(_shape(image)[-3:])
        image_mean = math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = _reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
        adjusted_stddev = math_ops.maximum(stddev, min_stddev)
        image -= image_mean
        return math_ops.divide(image, adjusted_stddev, name=scope)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    image = convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return array_ops.identity(image, name=name)
    with name_scope(name, "convert_image", [image]) as name:
        if image.dtype.is_integer and dtype.is_integer:
            scale_in, scale_out = image.dtype.max, dtype.max
            if scale_in > scale_out:
                scaled = math_ops.floordiv(image, (scale_in + 1) // (scale_out + 1))
                if saturate:
                    return math_ops.saturate_cast(scaled, dtype, name=name)
                return math_ops.cast(scaled, dtype, name=name)
            cast = math_ops.saturate_cast(image, dtype) if saturate \
                else math_ops.cast(image, dtype)
            return math_ops.multiply(cast, (scale_out + 1) // (scale_in + 1), name=name)
        if image.dtype.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if image.dtype.is_integer:
            cast = math_ops.cast(image, dtype)
            return math_ops.multiply(cast, 1.0 / image.dtype.max, name=name)
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        if saturate:
            return math_ops.saturate_cast(scaled, dtype, name=name)
        return math_ops.cast(scaled, dtype, name=name)


def rgb_to_grayscale(images, name=None):
    with name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = convert_to_tensor(images, name="images")
        orig_dtype = images.dtype
        flt_image = convert_image_dtype(images, dtypes.float32)
        gray_float = linalg_ops.tensordot(flt_image, [0.2989, 0.5870, 0.1140], [-1, -1])
        gray_float = array_ops.expand_dims(gray_float, -1)
        return convert_image_dtype(gray_float, orig_dtype, name=name)


def _assert_grayscale_image(image):
    shape = image.get_shape()
    try:
        shape = shape.with_rank(2) if shape.ndims is None else shape.with_rank_at_least(2)
    except ValueError:
        raise ValueError(f"A grayscale image (shape {image.shape}) must be at least "
                         f"two-dimensional.") from None
    checks = []
    if shape.is_fully_defined():
        if shape.as_list()[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
    else:
        checks = [check_ops.assert_equal(
                      _shape(image)[-1], 1,
                      message="Last dimension of a grayscale image should be size 1."),
                  check_ops.assert_greater_equal(
                      _rank(image), 3,
                      message="A grayscale image must be at least two-dimensional.")]
    return with_dependencies(checks, image)


def grayscale_to_rgb(images, name=None):
    with name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = _assert_grayscale_image(convert_to_tensor(images, name="images"))
        rank_1 = array_ops.expand_dims(_rank(images) - 1, 0)
        shape_list = [ones(rank_1, dtype=dtypes.int32), array_ops.expand_dims(3, 0)]
        multiples = array_ops.concat(shape_list, 0)
        rgb = array_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.get_shape()[:-1].concatenate([3]))
        return rgb


def _as_float(image):
    """(the image as float16/float32, its dtype): other dtypes through convert_image_dtype."""
    orig_dtype = image.dtype
    if orig_dtype in (dtypes.float16, dtypes.float32):
        return image, orig_dtype
    return convert_image_dtype(image, dtypes.float32), orig_dtype


def adjust_brightness(image, delta):
    with name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = convert_to_tensor(image, name="image")
        flt_image, orig_dtype = _as_float(image)
        adjusted = math_ops.add(flt_image, math_ops.cast(delta, flt_image.dtype), name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    with name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = convert_to_tensor(images, name="images")
        flt_images, orig_dtype = _as_float(images)
        adjusted = apply_op("AdjustContrastv2", images=flt_images,
                            contrast_factor=contrast_factor, name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def adjust_saturation(image, saturation_factor, name=None):
    with name_scope(name, "adjust_saturation", [image]) as name:
        image = convert_to_tensor(image, name="image")
        flt_image, orig_dtype = _as_float(image)
        adjusted = apply_op("AdjustSaturation", images=flt_image, scale=saturation_factor)
        return convert_image_dtype(adjusted, orig_dtype)


def adjust_hue(image, delta, name=None):
    with name_scope(name, "adjust_hue", [image]) as name:
        image = convert_to_tensor(image, name="image")
        flt_image, orig_dtype = _as_float(image)
        rgb_altered = apply_op("AdjustHue", images=flt_image, delta=delta)
        return convert_image_dtype(rgb_altered, orig_dtype)


def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def _random_factor(lower, upper, seed):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return random_ops.random_uniform([], lower, upper, seed=seed)


def random_contrast(image, lower, upper, seed=None):
    return adjust_contrast(image, _random_factor(lower, upper, seed))


def random_saturation(image, lower, upper, seed=None):
    return adjust_saturation(image, _random_factor(lower, upper, seed))


def random_hue(image, max_delta, seed=None):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)


def rgb_to_hsv(images, name=None):
    return apply_op("RGBToHSV", images=images, name=name)


def hsv_to_rgb(images, name=None):
    return apply_op("HSVToRGB", images=images, name=name)


def adjust_gamma(image, gamma=1, gain=1):
    with name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = convert_to_tensor(image, name="image")
        flt_image, orig_dtype = _as_float(image)
        if isinstance(gamma, (int, float)):
            if gamma < 0:
                raise ValueError("Gamma should be a non-negative real number.")
        else:
            assert_op = _assert(gamma >= 0, ValueError,
                                "Gamma should be a non-negative real number.")
            if assert_op:
                gamma = with_dependencies(assert_op, gamma)
        adjusted_img = gain * flt_image ** gamma
        return convert_image_dtype(adjusted_img, orig_dtype, saturate=True)


# YIQ and YUV: one tensordot of the last axis with TensorFlow's matrices (no name scope).
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _color_matrix(images, matrix):
    images = convert_to_tensor(images, name="images")
    kernel = convert_to_tensor(matrix, dtype=images.dtype, name="kernel")
    ndims = images.get_shape().ndims
    return linalg_ops.tensordot(images, kernel, axes=[[ndims - 1], [0]])


def rgb_to_yiq(images):
    return _color_matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    return _color_matrix(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    return _color_matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    return _color_matrix(images, _YUV_TO_RGB)
