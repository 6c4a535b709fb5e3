"""Gradients of the image ops, as TensorFlow's image_grad.py and array_grad.py register them:
the resizes' by their Grad kernels, DepthToSpace's and SpaceToDepth's by each other."""

from engine.framework import dtypes
from engine.ops import array_ops
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
