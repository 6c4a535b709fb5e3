"""tf.image's measures of images (TF 1.x names): total_variation (style transfer's loss),
psnr (super-resolution's score), image_gradients and sobel_edges, built as TensorFlow 2.21's
image_ops_impl.py builds them in graph mode."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.image_color_ops import convert_image_dtype
from engine.ops.logging_ops import Assert
from engine.ops.nn_conv_norm_ops import depthwise_conv2d
from engine.ops.shape_ops import shape as _shape, size as _size


def total_variation(images, name=None):
    with name_scope(name, "total_variation"):
        ndims = images.get_shape().ndims
        if ndims == 3:
            pixel_dif1 = images[1:, :, :] - images[:-1, :, :]
            pixel_dif2 = images[:, 1:, :] - images[:, :-1, :]
            sum_axis = None
        elif ndims == 4:
            pixel_dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            pixel_dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            sum_axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return (math_ops.reduce_sum(math_ops.abs(pixel_dif1), axis=sum_axis)
                + math_ops.reduce_sum(math_ops.abs(pixel_dif2), axis=sum_axis))


def _verify_compatible_image_shapes(img1, img2):
    shape1 = img1.get_shape().with_rank_at_least(3)
    shape2 = img2.get_shape().with_rank_at_least(3)
    if shape1.ndims is not None and shape2.ndims is not None:
        inner1, inner2 = shape1.as_list()[-3:], shape2.as_list()[-3:]
        for a, b in zip(inner1, inner2):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Shapes {shape1} and {shape2} are incompatible")
    shape1, shape2 = array_ops.shape_n([img1, img2])
    checks = [Assert(math_ops.greater_equal(_size(shape1), 3), [shape1, shape2], summarize=10),
              Assert(math_ops.reduce_all(math_ops.equal(shape1[-3:], shape2[-3:])),
                     [shape1, shape2], summarize=10)]
    return shape1, shape2, checks


def psnr(a, b, max_val, name=None):
    with name_scope(name, "PSNR", [a, b]):
        max_val = math_ops.cast(max_val, a.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        mse = math_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        psnr_val = math_ops.subtract(
            20 * math_ops.log(max_val) / math_ops.log(10.0),
            np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
        _, _, checks = _verify_compatible_image_shapes(a, b)
        with get_default_graph().control_dependencies(checks):
            return array_ops.identity(psnr_val)


def image_gradients(image):
    if image.get_shape().ndims != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{image.get_shape()}.")
    image_shape = _shape(image)
    batch_size, height, width, depth = array_ops.unstack(image_shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    shape = array_ops.stack([batch_size, 1, width, depth])
    dy = array_ops.concat([dy, array_ops.zeros(shape, image.dtype)], 1)
    dy = array_ops.reshape(dy, image_shape)
    shape = array_ops.stack([batch_size, height, 1, depth])
    dx = array_ops.concat([dx, array_ops.zeros(shape, image.dtype)], 2)
    dx = array_ops.reshape(dx, image_shape)
    return dy, dx


def sobel_edges(image):
    static_image_shape = image.get_shape()
    image_shape = _shape(image)
    kernels = [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]
    num_kernels = len(kernels)
    kernels = np.expand_dims(np.transpose(np.asarray(kernels), (1, 2, 0)), -2)
    kernels_tf = constant(kernels, dtype=image.dtype)
    kernels_tf = array_ops.tile(kernels_tf, [1, 1, image_shape[-1], 1], name="sobel_filters")
    padded = array_ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = depthwise_conv2d(padded, kernels_tf, [1, 1, 1, 1], "VALID")
    shape = array_ops.concat([image_shape, [num_kernels]], 0)
    output = array_ops.reshape(output, shape=shape)
    output.set_shape(static_image_shape.concatenate([num_kernels]))
    return output


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """tf.image.non_max_suppression: indices of the boxes greedy hard NMS keeps
    (NonMaxSuppressionV3), as image_ops_impl.py builds it."""
    from engine.ops.convert import convert_to_tensor
    from engine.ops.op_def_library import apply_op
    with name_scope(name, "non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        return apply_op("NonMaxSuppressionV3", boxes=boxes, scores=scores,
                        max_output_size=max_output_size, iou_threshold=iou_threshold,
                        score_threshold=score_threshold)
