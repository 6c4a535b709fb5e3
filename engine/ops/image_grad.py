"""Gradients of the image ops, as TensorFlow's image_grad.py and array_grad.py register them:
the resizes' and CropAndResize's by their Grad kernels, DepthToSpace's and SpaceToDepth's by each other."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op


@RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_neighbor_grad(op, grad):
    image = op.inputs[0]
    if image.get_shape()[1:3].is_fully_defined():
        image_shape = image.get_shape()[1:3].as_list()
    else:
        image_shape = array_ops.shape(image)[1:3]
    grads = apply_op("ResizeNearestNeighborGrad", grads=grad, size=image_shape,
                     align_corners=op.get_attr("align_corners"),
                     half_pixel_centers=op.get_attr("half_pixel_centers"))
    return [grads, None]


@RegisterGradient("CropAndResize")
def _crop_and_resize_grad(op, grad):
    """To the image (a float image only) by CropAndResizeGradImage, to the boxes by
    CropAndResizeGradBoxes (bilinear's, for nearest too, as TensorFlow approximates it)."""
    image = op.inputs[0]
    if image.get_shape().is_fully_defined():
        image_shape = image.get_shape().as_list()
    else:
        image_shape = array_ops.shape(image)
    if image.dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
        grad0 = apply_op("CropAndResizeGradImage", grads=grad, boxes=op.inputs[1],
                         box_ind=op.inputs[2], image_size=image_shape, T=op.get_attr("T"),
                         method=op.get_attr("method"))
    else:
        grad0 = None
    grad1 = apply_op("CropAndResizeGradBoxes", grads=grad, image=op.inputs[0],
                     boxes=op.inputs[1], box_ind=op.inputs[2])
    return [grad0, grad1, None, None]


@RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad(op, grad):
    grad0 = apply_op("ResizeBilinearGrad", grads=grad, original_image=op.inputs[0],
                     align_corners=op.get_attr("align_corners"),
                     half_pixel_centers=op.get_attr("half_pixel_centers"))
    return [grad0, None]


NotDifferentiable("ResizeBilinearGrad")


@RegisterGradient("ResizeBicubic")
def _resize_bicubic_grad(op, grad):
    grad0 = None
    if op.inputs[0].dtype in (dtypes.float32, dtypes.float64):
        grad0 = apply_op("ResizeBicubicGrad", grads=grad, original_image=op.inputs[0],
                         align_corners=op.get_attr("align_corners"),
                         half_pixel_centers=op.get_attr("half_pixel_centers"))
    return [grad0, None]


def _block_format(op, name):
    data_format = op.get_attr("data_format")
    data_format = data_format.decode() if isinstance(data_format, bytes) else data_format
    if data_format == "NCHW_VECT_C":
        raise ValueError(f"Cannot compute {name} gradient with NCHW_VECT_C. NCHW_VECT_C "
                         f"requires qint8 data type.")
    return op.get_attr("block_size"), data_format


@RegisterGradient("SpaceToDepth")
def _space_to_depth_grad(op, grad):
    block_size, data_format = _block_format(op, "SpaceToDepth")
    return apply_op("DepthToSpace", input=grad, block_size=block_size,
                    data_format=data_format)


@RegisterGradient("DepthToSpace")
def _depth_to_space_grad(op, grad):
    block_size, data_format = _block_format(op, "DepthToSpace")
    return apply_op("SpaceToDepth", input=grad, block_size=block_size,
                    data_format=data_format)


NotDifferentiable("HSVToRGB")
# image_ops_impl.py's: the boxes' ops and glimpses have no gradient.
for _op in ("DrawBoundingBoxes", "SampleDistortedBoundingBoxV2", "ExtractGlimpse",
            "NonMaxSuppressionWithOverlaps"):
    NotDifferentiable(_op)


def _custom_reciprocal(x):
    one = math_ops.cast(1.0, x.dtype)
    with name_scope(None, "div_no_nan", [one, x]) as name:  # math_ops.div_no_nan's scope
        return apply_op("DivNoNan", x=one, y=x, name=name)


@RegisterGradient("RGBToHSV")
def _rgb_to_hsv_grad(op, grad):
    """image_grad.py's _RGBToHSVGrad, term for term (its nodes in its order)."""
    reds, greens, blues = (op.inputs[0][..., i] for i in range(3))
    saturation = op.outputs[0][..., 1]
    value = op.outputs[0][..., 2]
    dtype = op.inputs[0].dtype
    cast = math_ops.cast
    red_biggest = cast((reds >= blues) & (reds >= greens), dtype)
    green_biggest = cast((greens > reds) & (greens >= blues), dtype)
    blue_biggest = cast((blues > reds) & (blues > greens), dtype)
    red_smallest = cast((reds < blues) & (reds < greens), dtype)
    green_smallest = cast((greens <= reds) & (greens < blues), dtype)
    blue_smallest = cast((blues <= reds) & (blues <= greens), dtype)
    dv_dr, dv_dg, dv_db = red_biggest, green_biggest, blue_biggest
    rec, square = _custom_reciprocal, math_ops.square
    ds_dr = cast(reds > 0, dtype) * math_ops.add(
        red_biggest * math_ops.add(green_smallest * greens, blue_smallest * blues)
        * rec(square(reds)),
        red_smallest * -1 * rec(green_biggest * greens + blue_biggest * blues))
    ds_dg = cast(greens > 0, dtype) * math_ops.add(
        green_biggest * math_ops.add(red_smallest * reds, blue_smallest * blues)
        * rec(square(greens)),
        green_smallest * -1 * rec(red_biggest * reds + blue_biggest * blues))
    ds_db = cast(blues > 0, dtype) * math_ops.add(
        blue_biggest * math_ops.add(green_smallest * greens, red_smallest * reds)
        * rec(square(blues)),
        blue_smallest * -1 * rec(green_biggest * greens + red_biggest * reds))
    dh_dr_1 = 60 * (cast(reds > 0, dtype) * red_biggest * -1 * (greens - blues)
                    * rec(square(saturation)) * rec(square(value)))
    dh_dr_2 = 60 * (cast(greens > 0, dtype) * green_biggest * red_smallest * (blues - greens)
                    * rec(square(reds - greens)))
    dh_dr_3 = 60 * (cast(greens > 0, dtype) * green_biggest * blue_smallest * -1
                    * rec(greens - blues))
    dh_dr_4 = 60 * (cast(blues > 0, dtype) * blue_biggest * red_smallest * (blues - greens)
                    * rec(square(blues - reds)))
    dh_dr_5 = 60 * (cast(blues > 0, dtype) * blue_biggest * green_smallest
                    * rec(blues - greens))
    dh_dr = (dh_dr_1 + dh_dr_2 + dh_dr_3 + dh_dr_4 + dh_dr_5) / 360
    dh_dg_1 = 60 * (cast(greens > 0, dtype) * green_biggest * -1 * (blues - reds)
                    * rec(square(saturation)) * rec(square(value)))
    dh_dg_2 = 60 * (cast(reds > 0, dtype) * red_biggest * green_smallest * (reds - blues)
                    * rec(square(reds - greens)))
    dh_dg_3 = 60 * (cast(reds > 0, dtype) * red_biggest * blue_smallest * rec(reds - blues))
    dh_dg_4 = 60 * (cast(blues > 0, dtype) * blue_biggest * green_smallest * (reds - blues)
                    * rec(square(blues - greens)))
    dh_dg_5 = 60 * (cast(blues > 0, dtype) * blue_biggest * red_smallest * -1
                    * rec(blues - reds))
    dh_dg = (dh_dg_1 + dh_dg_2 + dh_dg_3 + dh_dg_4 + dh_dg_5) / 360
    dh_db_1 = 60 * (cast(blues > 0, dtype) * blue_biggest * -1 * (reds - greens)
                    * rec(square(saturation)) * rec(square(value)))
    dh_db_2 = 60 * (cast(reds > 0, dtype) * red_biggest * blue_smallest * (greens - reds)
                    * rec(square(reds - blues)))
    dh_db_3 = 60 * (cast(reds > 0, dtype) * red_biggest * green_smallest * -1
                    * rec(reds - greens))
    dh_db_4 = 60 * (cast(greens > 0, dtype) * green_biggest * blue_smallest * (greens - reds)
                    * rec(square(greens - blues)))
    dh_db_5 = 60 * (cast(greens > 0, dtype) * green_biggest * red_smallest
                    * rec(greens - reds))
    dh_db = (dh_db_1 + dh_db_2 + dh_db_3 + dh_db_4 + dh_db_5) / 360
    dv_drgb = array_ops.stack([grad[..., 2] * dv_dr, grad[..., 2] * dv_dg,
                               grad[..., 2] * dv_db], axis=-1)
    ds_drgb = array_ops.stack([grad[..., 1] * ds_dr, grad[..., 1] * ds_dg,
                               grad[..., 1] * ds_db], axis=-1)
    dh_drgb = array_ops.stack([grad[..., 0] * dh_dr, grad[..., 0] * dh_dg,
                               grad[..., 0] * dh_db], axis=-1)
    return math_ops.add(math_ops.add(dv_drgb, ds_drgb), dh_drgb)


@RegisterGradient("ScaleAndTranslate")
def _scale_and_translate_grad(op, grad):
    """ScaleAndTranslateGrad spreads the resized image's gradient back over the spans (as
    TensorFlow's image_grad.py)."""
    return [apply_op("ScaleAndTranslateGrad", grads=grad, original_image=op.inputs[0],
                     scale=op.inputs[2], translation=op.inputs[3],
                     kernel_type=op.get_attr("kernel_type"), antialias=op.get_attr("antialias")),
            None, None, None]


def _projective_grad(op, grad, version):
    """The output's gradient carried back by the inverse transforms (TensorFlow's
    image_ops.py: flat_transforms_to_matrices, matrix_inverse, matrices_to_flat_transforms),
    through the same op, onto the input's height and width; none to the transforms, the
    output shape or the fill value."""
    from engine.ops import linalg_ops
    transforms = op.inputs[1]
    if transforms.get_shape().ndims == 1:
        transforms = transforms[None]
    elif transforms.get_shape().ndims not in (2, None):
        raise TypeError("Transforms should have rank 1 or 2.")
    flat = array_ops.reshape(transforms, [-1, 8])
    ones = array_ops.ones(array_ops.stack([array_ops.shape(flat)[0], 1]), dtypes.float32)
    matrices = array_ops.reshape(array_ops.concat([flat, ones], axis=1), [-1, 3, 3])
    inverse = array_ops.reshape(linalg_ops.matrix_inverse(matrices), [-1, 9])
    inverse = inverse[:, :8] / inverse[:, 8:9]
    inputs = dict(images=grad, transforms=inverse,
                  output_shape=array_ops.shape(op.inputs[0])[1:3],
                  interpolation=op.get_attr("interpolation"), fill_mode=op.get_attr("fill_mode"))
    if version == 3:
        inputs["fill_value"] = 0.0
    output = apply_op(f"ImageProjectiveTransformV{version}", **inputs)
    return [output] + [None] * (len(op.inputs) - 1)


@RegisterGradient("ImageProjectiveTransformV2")
def _image_projective_transform_v2_grad(op, grad):
    return _projective_grad(op, grad, 2)


@RegisterGradient("ImageProjectiveTransformV3")
def _image_projective_transform_v3_grad(op, grad):
    return _projective_grad(op, grad, 3)
