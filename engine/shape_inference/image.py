"""Shape functions of the image ops (TensorFlow's core/ops/image_ops.cc and array_ops.cc's
DepthToSpace / SpaceToDepth)."""

from engine.shape_inference.dims import ShapeError, _dims
from engine.shape_inference.partial_values import _from_value


def _rank4(info, what="Shape"):
    dims = _dims(info)
    if dims is None:
        return [None] * 4
    if len(dims) != 4:
        raise ShapeError(f"{what} must be rank 4 but is rank {len(dims)}")
    return dims


def resize(attrs, inputs):
    """[batch, size[0], size[1], channels]: the size's values as far as they are known."""
    dims = _rank4(inputs[0])
    size = _from_value(inputs[1])
    if size is not None and len(size) != 2:
        raise ShapeError(f"Dimension must be 2 but is {len(size)}")
    size = size or [None, None]
    return [dims[0], size[0], size[1], dims[3]]


def resize_grad(attrs, inputs):
    """ResizeBilinearGrad, ResizeBicubicGrad: the original image's shape."""
    _rank4(inputs[0])
    return _rank4(inputs[1])


def adjust(attrs, inputs):
    """AdjustContrastv2, AdjustSaturation, AdjustHue: the images' shape (rank 3 at least)."""
    dims = _dims(inputs[0])
    if dims is not None and len(dims) < 3:
        raise ShapeError(f"Shape must be at least rank 3 but is rank {len(dims)}")
    return dims


def depth_to_space(attrs, inputs):
    dims = _rank4(inputs[0])
    block = int(attrs["block_size"])
    batch, height, width, depth = dims
    if depth is not None and depth % (block * block):
        raise ShapeError(f"Dimension size must be evenly divisible by {block * block} but is "
                         f"{depth}")
    return [batch, None if height is None else height * block,
            None if width is None else width * block,
            None if depth is None else depth // (block * block)]


def space_to_depth(attrs, inputs):
    dims = _rank4(inputs[0])
    block = int(attrs["block_size"])
    batch, height, width, depth = dims
    for size in (height, width):
        if size is not None and size % block:
            raise ShapeError(f"Dimension size must be evenly divisible by {block} but is "
                             f"{size}")
    return [batch, None if height is None else height // block,
            None if width is None else width // block,
            None if depth is None else depth * block * block]


SHAPE_FUNCTIONS = {
    "ResizeBilinear": resize, "ResizeNearestNeighbor": resize, "ResizeBicubic": resize,
    "ResizeNearestNeighborGrad": resize, "ResizeBilinearGrad": resize_grad,
    "ResizeBicubicGrad": resize_grad, "AdjustContrastv2": adjust, "AdjustSaturation": adjust,
    "AdjustHue": adjust, "DepthToSpace": depth_to_space, "SpaceToDepth": space_to_depth,
}
