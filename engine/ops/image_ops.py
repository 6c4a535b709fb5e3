"""tf.image's geometry (TF 1.x names): resizes, flips, rotations, crops and pads, and
tf.random_crop, each built as TensorFlow 2.21's image_ops_impl.py and random_crop_ops.py
build it in graph mode, so the graphs have TensorFlow's nodes and names. The colour
functions are engine/ops/image_color_ops.py."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value, constant_value_as_shape
from engine.ops import array_ops, check_ops, math_ops, random_ops
from engine.ops.control_flow.case import case
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.logging_ops import Assert
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import rank as _rank, shape as _shape
from engine.ops.variables import Variable


class ResizeMethod:
    """TF 1.x's tf.image.ResizeMethod (ResizeMethodV1)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def _is_tensor(x):
    return isinstance(x, (Tensor, Variable))


def _assert(condition, ex_type, message):
    if _is_tensor(condition):
        return [Assert(condition, [message])]
    if not condition:
        raise ex_type(message)
    return []


def _image_dimensions(image, rank):
    if image.get_shape().is_fully_defined():
        return image.get_shape().as_list()
    static_shape = image.get_shape().with_rank(rank).as_list()
    dynamic_shape = array_ops.unstack(_shape(image), rank)
    return [s if s is not None else d for s, d in zip(static_shape, dynamic_shape)]


def _check_at_least_3d_image(image, require_static=True):
    try:
        if image.get_shape().ndims is None:
            image_shape = image.get_shape().with_rank(3)
        else:
            image_shape = image.get_shape().with_rank_at_least(3)
    except ValueError:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.") \
            from None
    if require_static and not image_shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    inner = TensorShape(image_shape.as_list()[-3:]) if image_shape.ndims is not None \
        else TensorShape(None)
    if any(x == 0 for x in (inner.as_list() if inner.ndims is not None else [])):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {image_shape}")
    if not inner.is_fully_defined():
        return [check_ops.assert_positive(_shape(image)[-3:],
                                          ["inner 3 dims of 'image.shape' must be > 0."]),
                check_ops.assert_greater_equal(
                    _rank(image), 3, message="'image' must be at least three-dimensional.")]
    return []


def _assert_at_least_3d_image(image):
    return with_dependencies(_check_at_least_3d_image(image, require_static=False), image)


def _fix_image_flip_shape(image, result):
    image_shape = image.get_shape()
    if image_shape.ndims is None:
        result.set_shape([None, None, None])
    else:
        result.set_shape(image_shape)
    return result


def _flip(image, flip_index, scope_name):
    with name_scope(None, scope_name, [image]):
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.get_shape()

        def f_rank3():
            return _fix_image_flip_shape(image, array_ops.reverse(image, [flip_index]))

        def f_rank4():
            return array_ops.reverse(image, [flip_index + 1])

        if shape.ndims is None:
            return cond(math_ops.equal(_rank(image), 3), f_rank3, f_rank4)
        if shape.ndims == 3:
            return f_rank3()
        if shape.ndims == 4:
            return f_rank4()
        raise ValueError(f"'image' (shape {shape})must have either 3 or 4 dimensions.")


def flip_left_right(image):
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, flip_index, seed, scope_name):
    with name_scope(None, scope_name, [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.get_shape()

        def f_rank3():
            uniform_random = random_ops.random_uniform(shape=[], minval=0, maxval=1.0,
                                                       seed=seed)
            mirror_cond = math_ops.less(uniform_random, 0.5)
            result = cond(mirror_cond, lambda: array_ops.reverse(image, [flip_index]),
                          lambda: image, name=scope)
            return _fix_image_flip_shape(image, result)

        def f_rank4():
            batch_size = _shape(image)[0]
            uniform_random = random_ops.random_uniform(shape=[batch_size], minval=0,
                                                       maxval=1.0, seed=seed)
            flips = math_ops.round(array_ops.reshape(uniform_random, [batch_size, 1, 1, 1]))
            flips = math_ops.cast(flips, image.dtype)
            flipped_input = array_ops.reverse(image, [flip_index + 1])
            return flips * flipped_input + (1 - flips) * image

        if shape.ndims is None:
            return cond(math_ops.equal(_rank(image), 3), f_rank3, f_rank4)
        if shape.ndims == 3:
            return f_rank3()
        if shape.ndims == 4:
            return f_rank4()
        raise ValueError(f"'image' (shape {shape}) must have either 3 or 4 dimensions.")


def random_flip_left_right(image, seed=None):
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    return _random_flip(image, 0, seed, "random_flip_up_down")


def transpose_image(image, name=None):
    with name_scope(name, "transpose", [image]):
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.get_shape()
        if shape.ndims is None:
            return cond(math_ops.equal(_rank(image), 3),
                        lambda: array_ops.transpose(image, [1, 0, 2], name=name),
                        lambda: array_ops.transpose(image, [0, 2, 1, 3], name=name))
        if shape.ndims == 3:
            return array_ops.transpose(image, [1, 0, 2], name=name)
        if shape.ndims == 4:
            return array_ops.transpose(image, [0, 2, 1, 3], name=name)
        raise ValueError(f"'image' (shape {shape}) must have either 3 or 4 dimensions.")


def rot90(image, k=1, name=None):
    with name_scope(name, "rot90", [image, k]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        k = convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k.get_shape().assert_has_rank(0)
        with name_scope(None, "mod", [k, 4]) as mod_name:  # math_ops.floormod's scope
            k = apply_op("FloorMod", x=k, y=4, name=mod_name)
        shape = image.get_shape()
        if shape.ndims is None:
            return cond(math_ops.equal(_rank(image), 3), lambda: _rot90_3d(image, k, scope),
                        lambda: _rot90_4d(image, k, scope))
        if shape.ndims == 3:
            return _rot90_3d(image, k, scope)
        if shape.ndims == 4:
            return _rot90_4d(image, k, scope)
        raise ValueError(f"'image' (shape {shape}) must have either 3 or 4 dimensions.")


def _rot90_3d(image, k, scope):
    cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(
                 array_ops.reverse_v2(image, [1]), [1, 0, 2])),
             (math_ops.equal(k, 2), lambda: array_ops.reverse_v2(image, [0, 1])),
             (math_ops.equal(k, 3), lambda: array_ops.reverse_v2(
                 array_ops.transpose(image, [1, 0, 2]), [1]))]
    result = case(cases, default=lambda: image, exclusive=True, name=scope)
    result.set_shape([None, None, image.get_shape()[2]])
    return result


def _rot90_4d(images, k, scope):
    cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(
                 array_ops.reverse_v2(images, [2]), [0, 2, 1, 3])),
             (math_ops.equal(k, 2), lambda: array_ops.reverse_v2(images, [1, 2])),
             (math_ops.equal(k, 3), lambda: array_ops.reverse_v2(
                 array_ops.transpose(images, [0, 2, 1, 3]), [2]))]
    result = case(cases, default=lambda: images, exclusive=True, name=scope)
    shape = result.get_shape()
    result.set_shape([shape[0], None, None, shape[3]])
    return result


def _batched(image):
    """(the image as a batch, whether it was one): a 3-D image gets a batch of one."""
    image_shape = image.get_shape()
    if image_shape.ndims == 3:
        return array_ops.expand_dims(image, 0), False
    if image_shape.ndims is None:
        image = array_ops.expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if image_shape.ndims != 4:
        raise ValueError(f"'image' (shape {image_shape}) must have either 3 or 4 dimensions.")
    return image, True


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with name_scope(None, "pad_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        after_padding_width = target_width - offset_width - width
        after_padding_height = target_height - offset_height - height
        assert_ops = _check_at_least_3d_image(image, require_static=False)
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0")
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0")
        assert_ops += _assert(after_padding_width >= 0, ValueError,
                              "width must be <= target - offset")
        assert_ops += _assert(after_padding_height >= 0, ValueError,
                              "height must be <= target - offset")
        image = with_dependencies(assert_ops, image)
        paddings = array_ops.reshape(array_ops.stack(
            [0, 0, offset_height, after_padding_height, offset_width, after_padding_width, 0,
             0]), [4, 2])
        padded = array_ops.pad(image, paddings)
        padded.set_shape([None if _is_tensor(i) else i
                          for i in [batch, target_height, target_width, depth]])
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with name_scope(None, "crop_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        assert_ops = _check_at_least_3d_image(image, require_static=False)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        assert_ops += _assert(width >= target_width + offset_width, ValueError,
                              "width must be >= target + offset.")
        assert_ops += _assert(height >= target_height + offset_height, ValueError,
                              "height must be >= target + offset.")
        image = with_dependencies(assert_ops, image)
        cropped = array_ops.slice(
            image, array_ops.stack([0, offset_height, offset_width, 0]),
            array_ops.stack([_shape(image)[0], target_height, target_width,
                             _shape(image)[3]]))
        cropped.set_shape([None if _is_tensor(i) else i
                           for i in [batch, target_height, target_width, depth]])
        if not is_batch:
            cropped = array_ops.squeeze(cropped, axis=[0])
        return cropped


def _max(x, y):
    return math_ops.maximum(x, y) if _is_tensor(x) or _is_tensor(y) else max(x, y)


def _min(x, y):
    return math_ops.minimum(x, y) if _is_tensor(x) or _is_tensor(y) else min(x, y)


def _equal(x, y):
    return math_ops.equal(x, y) if _is_tensor(x) or _is_tensor(y) else x == y


def resize_image_with_crop_or_pad(image, target_height, target_width):
    with name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        assert_ops = _check_at_least_3d_image(image, require_static=False)
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(assert_ops, image)
        if _is_tensor(target_height):
            target_height = with_dependencies(assert_ops, target_height)
        if _is_tensor(target_width):
            target_width = with_dependencies(assert_ops, target_width)
        _, height, width, _ = _image_dimensions(image, rank=4)
        width_diff = target_width - width
        offset_crop_width = _max(-width_diff // 2, 0)
        offset_pad_width = _max(width_diff // 2, 0)
        height_diff = target_height - height
        offset_crop_height = _max(-height_diff // 2, 0)
        offset_pad_height = _max(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image, offset_crop_height, offset_crop_width,
                                       _min(target_height, height), _min(target_width, width))
        resized = pad_to_bounding_box(cropped, offset_pad_height, offset_pad_width,
                                      target_height, target_width)
        if resized.get_shape().ndims is None:
            raise ValueError("resized contains no shape.")
        _, resized_height, resized_width, _ = _image_dimensions(resized, rank=4)
        assert_ops = _assert(_equal(resized_height, target_height), ValueError,
                             "resized height is not correct.")
        assert_ops += _assert(_equal(resized_width, target_width), ValueError,
                              "resized width is not correct.")
        resized = with_dependencies(assert_ops, resized)
        if not is_batch:
            resized = array_ops.squeeze(resized, axis=[0])
        return resized


def central_crop(image, central_fraction):
    with name_scope(None, "central_crop", [image]):
        image = convert_to_tensor(image, name="image")
        fraction_static = constant_value(central_fraction) \
            if _is_tensor(central_fraction) else central_fraction
        if fraction_static is not None:
            if fraction_static <= 0.0 or fraction_static > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if fraction_static == 1.0:
                return image
        else:
            assert_ops = _assert(math_ops.logical_or(central_fraction > 0.0,
                                                     central_fraction <= 1.0),
                                 ValueError, "central_fraction must be within (0, 1]")
            image = with_dependencies(assert_ops, image)
        _assert_at_least_3d_image(image)
        rank = image.get_shape().ndims
        if rank not in (3, 4):
            raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. "
                             f"Had rank = {rank}.")

        def get_dim(tensor, idx):
            static = tensor.get_shape().as_list()[idx]
            if static is not None:
                return static, False
            return _shape(tensor)[idx], True

        first = 0 if rank == 3 else 1
        img_h, dynamic_h = get_dim(image, first)
        img_w, dynamic_w = get_dim(image, first + 1)
        img_d = image.get_shape().as_list()[first + 2]
        dynamic_h = dynamic_h or fraction_static is None
        dynamic_w = dynamic_w or fraction_static is None

        def start(size, dynamic):
            if dynamic:
                size_d = math_ops.cast(size, dtypes.float64)
                return math_ops.cast(
                    (size_d - size_d * math_ops.cast(central_fraction, dtypes.float64)) / 2,
                    dtypes.int32)
            size_d = float(size)
            return int((size_d - size_d * fraction_static) / 2)

        bbox_h_start = start(img_h, dynamic_h)
        bbox_w_start = start(img_w, dynamic_w)
        bbox_h_size = img_h - bbox_h_start * 2
        bbox_w_size = img_w - bbox_w_start * 2
        if rank == 3:
            bbox_begin = array_ops.stack([bbox_h_start, bbox_w_start, 0])
            bbox_size = array_ops.stack([bbox_h_size, bbox_w_size, -1])
        else:
            bbox_begin = array_ops.stack([0, bbox_h_start, bbox_w_start, 0])
            bbox_size = array_ops.stack([-1, bbox_h_size, bbox_w_size, -1])
        image = array_ops.slice(image, bbox_begin, bbox_size)
        spatial = [None if dynamic_h else bbox_h_size, None if dynamic_w else bbox_w_size]
        if rank == 3:
            image.set_shape(spatial + [img_d])
        else:
            image.set_shape([image.get_shape().as_list()[0]] + spatial + [img_d])
        return image


# --- resizes ---

def _resize_kernel(op_type, images, size, align_corners, half_pixel_centers=False,
                   name=None):
    attrs = {"align_corners": align_corners}
    if op_type != "ResizeArea":
        attrs["half_pixel_centers"] = half_pixel_centers
    return apply_op(op_type, images=images, size=size, name=name, **attrs)


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
    """tf.image.crop_and_resize (TF 1.x's, box_ind or box_indices): each box of an image
    resampled to crop_size, as one CropAndResize node."""
    box_ind = deprecated_argument_lookup("box_indices", box_indices, "box_ind", box_ind)
    return apply_op("CropAndResize", image=image, boxes=boxes, box_ind=box_ind,
                    crop_size=crop_size, method=method,
                    extrapolation_value=extrapolation_value, name=name)


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    return _resize_kernel("ResizeBilinear", images, size, align_corners, half_pixel_centers,
                          name)


def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
    return _resize_kernel("ResizeNearestNeighbor", images, size, align_corners,
                          half_pixel_centers, name)


def resize_area(images, size, align_corners=False, name=None):
    return _resize_kernel("ResizeArea", images, size, align_corners, name=name)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    return _resize_kernel("ResizeBicubic", images, size, align_corners, half_pixel_centers,
                          name)


_RESIZE_OPS = {ResizeMethod.BILINEAR: "ResizeBilinear",
               ResizeMethod.NEAREST_NEIGHBOR: "ResizeNearestNeighbor",
               ResizeMethod.BICUBIC: "ResizeBicubic", ResizeMethod.AREA: "ResizeArea"}
# TF 2's tf.image.ResizeMethod strings, which TF 1.x's resize_images also takes.
_RESIZE_NAMES = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
                 "bicubic": "ResizeBicubic", "area": "ResizeArea"}


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
    """tf.image.resize_images (v1): ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic or
    ResizeArea under a `resize` scope; a 3-D image through a batch of one."""
    op_type = _RESIZE_OPS.get(method) or _RESIZE_NAMES.get(method)
    if op_type is None:
        raise ValueError(f"Resize method is not implemented: {method}")
    with name_scope(name, "resize", [images, size]):
        images = convert_to_tensor(images, name="images")
        if images.get_shape().ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = True
        if images.get_shape().ndims == 3:
            is_batch = False
            images = array_ops.expand_dims(images, 0)
        elif images.get_shape().ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.get_shape().as_list()
        try:
            size = convert_to_tensor(size, dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.get_shape().is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, "
                             "new_width")
        if preserve_aspect_ratio:
            _, current_height, current_width, _ = _image_dimensions(images, rank=4)
            scale_factor_height = (math_ops.cast(size[0], dtypes.float32)
                                   / math_ops.cast(current_height, dtypes.float32))
            scale_factor_width = (math_ops.cast(size[1], dtypes.float32)
                                  / math_ops.cast(current_width, dtypes.float32))
            scale_factor = math_ops.minimum(scale_factor_height, scale_factor_width)
            scaled_height = math_ops.cast(math_ops.round(
                scale_factor * math_ops.cast(current_height, dtypes.float32)), dtypes.int32)
            scaled_width = math_ops.cast(math_ops.round(
                scale_factor * math_ops.cast(current_width, dtypes.float32)), dtypes.int32)
            size = convert_to_tensor([scaled_height, scaled_width], dtypes.int32, name="size")
        size_shape = constant_value_as_shape(size)
        known = size_shape.as_list() if size_shape.ndims is not None else [None, None]
        new_height, new_width = known[0], known[1]
        if None not in (new_width, width, new_height, height) and (width, height) == (
                new_width, new_height):
            if not is_batch:
                images = array_ops.squeeze(images, axis=[0])
            return images
        images = _resize_kernel(op_type, images, size, align_corners)
        images.set_shape([None, new_height, new_width, None])
        if not is_batch:
            images = array_ops.squeeze(images, axis=[0])
        return images


def resize_image_with_pad(image, target_height, target_width,
                          method=ResizeMethod.BILINEAR, align_corners=False):
    """The image resized to fit the target keeping its aspect ratio, then padded with zeros
    to the target (image_ops_impl.py's _resize_image_with_pad_common)."""
    with name_scope(None, "resize_image_with_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image_shape = image.get_shape()
        is_batch = True
        if image_shape.ndims == 3:
            is_batch = False
            image = array_ops.expand_dims(image, 0)
        elif image_shape.ndims is None:
            is_batch = False
            image = array_ops.expand_dims(image, 0)
            image.set_shape([None] * 4)
        elif image_shape.ndims != 4:
            raise ValueError(f"'image' (shape {image_shape}) must have either 3 or 4 "
                             f"dimensions.")
        assert_ops = _check_at_least_3d_image(image, require_static=False)
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(assert_ops, image)
        _, height, width, _ = _image_dimensions(image, rank=4)
        f_height = math_ops.cast(height, dtype=dtypes.float32)
        f_width = math_ops.cast(width, dtype=dtypes.float32)
        f_target_height = math_ops.cast(target_height, dtype=dtypes.float32)
        f_target_width = math_ops.cast(target_width, dtype=dtypes.float32)
        ratio = _max(f_width / f_target_width, f_height / f_target_height)
        resized_height_float = f_height / ratio
        resized_width_float = f_width / ratio
        resized_height = math_ops.cast(math_ops.floor(resized_height_float),
                                       dtype=dtypes.int32)
        resized_width = math_ops.cast(math_ops.floor(resized_width_float), dtype=dtypes.int32)
        padding_height = (f_target_height - resized_height_float) / 2
        padding_width = (f_target_width - resized_width_float) / 2
        f_padding_height = math_ops.floor(padding_height)
        f_padding_width = math_ops.floor(padding_width)
        p_height = _max(0, math_ops.cast(f_padding_height, dtype=dtypes.int32))
        p_width = _max(0, math_ops.cast(f_padding_width, dtype=dtypes.int32))
        resized = resize_images(image, [resized_height, resized_width], method,
                                align_corners=align_corners)
        padded = pad_to_bounding_box(resized, p_height, p_width, target_height, target_width)
        if padded.get_shape().ndims is None:
            raise ValueError("padded contains no shape.")
        _image_dimensions(padded, rank=4)
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    uniform_noise=True, name=None):
    """TF 1.x's tf.image.extract_glimpse: one ExtractGlimpse node (windows of `size` at the
    offsets, (y, x) each)."""
    return apply_op("ExtractGlimpse", input=input, size=size, offsets=offsets,
                    centered=centered, normalized=normalized, uniform_noise=uniform_noise,
                    name=name)


def random_crop(value, size, seed=None, name=None):
    """tf.random_crop: a Slice at a RandomUniformInt offset modulo the room left."""
    with name_scope(name, "random_crop", [value, size]) as name:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = _shape(value)
        check = Assert(math_ops.reduce_all(shape >= size),
                       ["Need value.shape >= size, got ", shape, size], summarize=1000)
        shape = with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_ops.random_uniform(_shape(shape), dtype=size.dtype,
                                           maxval=size.dtype.max, seed=seed) % limit
        return array_ops.slice(value, offset, size, name=name)
