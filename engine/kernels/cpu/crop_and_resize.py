"""CPU kernels of CropAndResize and its gradients CropAndResizeGradImage and
CropAndResizeGradBoxes, as TensorFlow's crop_and_resize_op.cc computes them: per box, the
source row and column of each crop pixel in float32 (`y1 * (height - 1) + y * height_scale`;
a crop one pixel high takes the box's middle, `0.5 * (y1 + y2) * (height - 1)`, the sum in
float and the rest in double as C++ promotes it),
pixels outside the image the extrapolation value (the gradients skip them), bilinear
interpolation in its order of operations or the nearest pixel (roundf: halves away from zero).
The image gradient adds each pixel's four shares in the kernel's loop order (np.add.at adds in
the order listed), the boxes' gradient sums its terms one after another (a float32 cumsum), so
the sums round as TensorFlow's loops do.
"""

import numpy as np

from engine.kernels import register
from engine.framework.errors import OutOfRangeError
from engine.kernels.common import invalid

F32 = np.float32


def _dims_text(array):
    """TensorShape::DebugString: [2,3]."""
    return "[" + ",".join(str(d) for d in np.shape(array)) + "]"


def _boxes_and_indices(ctx, boxes, box_index):
    """ParseAndCheckBoxSizes: the number of boxes."""
    boxes, box_index = np.asarray(boxes), np.asarray(box_index)
    if boxes.size == 0 and box_index.size == 0:
        return 0
    if boxes.ndim != 2:
        raise invalid(ctx, f"boxes must be 2-D{_dims_text(boxes)}")
    num_boxes = boxes.shape[0]
    if boxes.shape[1] != 4:
        raise invalid(ctx, "boxes must have 4 columns")
    if not np.isfinite(boxes).all():
        raise invalid(ctx, "Boxes contains at least one element that is not finite")
    if box_index.ndim != 1:
        raise invalid(ctx, f"box_index must be 1-D{_dims_text(box_index)}")
    if box_index.shape[0] != num_boxes:
        raise invalid(ctx, "box_index has incompatible shape")
    return num_boxes


def _check_bounds(ctx, box_index, batch_size):
    if ((box_index < 0) | (box_index >= batch_size)).any():
        raise OutOfRangeError(getattr(ctx, "node_def", None), None,
                              "box_index has values outside [0, batch_size)")


def _crop_size(ctx, crop_size):
    crop_size = np.asarray(crop_size)
    if crop_size.ndim != 1:
        raise invalid(ctx, f"crop_size must be 1-D{_dims_text(crop_size)}")
    if crop_size.shape[0] != 2:
        raise invalid(ctx, f"crop_size must have two elements{_dims_text(crop_size)}")
    crop_height, crop_width = int(crop_size[0]), int(crop_size[1])
    if crop_height <= 0 or crop_width <= 0:
        raise invalid(ctx, "crop dimensions must be positive")
    return crop_height, crop_width


def _positions(start, end, crop_size, image_size):
    """in_y (or in_x) of each crop row of one box, float32, and the scale between rows:
    crop_size > 1: start * (image_size - 1) + i * scale; else the middle, in double."""
    start, end = F32(start), F32(end)
    if crop_size > 1:
        scale = (end - start) * F32(image_size - 1) / F32(crop_size - 1)
        rows = np.arange(crop_size)
        return start * F32(image_size - 1) + rows.astype(F32) * scale
    middle = 0.5 * np.float64(start + end) * (image_size - 1)   # the sum in float
    return np.full(1, middle, F32)


def _lerp_points(in_y, in_x, image_height, image_width):
    """Which rows and columns lie in the image, their floor and ceil indices and lerps."""
    valid_y = (in_y >= 0) & (in_y <= image_height - 1)
    valid_x = (in_x >= 0) & (in_x <= image_width - 1)
    with np.errstate(invalid="ignore"):
        top = np.floor(np.where(valid_y, in_y, 0)).astype(np.int64)
        bottom = np.ceil(np.where(valid_y, in_y, 0)).astype(np.int64)
        left = np.floor(np.where(valid_x, in_x, 0)).astype(np.int64)
        right = np.ceil(np.where(valid_x, in_x, 0)).astype(np.int64)
    y_lerp = np.where(valid_y, in_y, 0).astype(F32) - top.astype(F32)
    x_lerp = np.where(valid_x, in_x, 0).astype(F32) - left.astype(F32)
    return valid_y, valid_x, top, bottom, left, right, y_lerp, x_lerp


def _roundf(values):
    """C's roundf of values >= 0: halves away from zero."""
    floor = np.floor(values)
    return (floor + (values - floor >= F32(0.5))).astype(np.int64)


def _method(ctx):
    method = ctx.attr("method", "bilinear")
    method = method.decode() if isinstance(method, bytes) else method
    if method not in ("bilinear", "nearest"):
        raise invalid(ctx, 'method must be "bilinear" or "nearest"')
    return method


@register("CropAndResize")
def crop_and_resize(ctx, image, boxes, box_index, crop_size):
    image = np.asarray(image)
    if image.ndim != 4:
        raise invalid(ctx, f"input image must be 4-D{_dims_text(image)}")
    batch_size, image_height, image_width, depth = image.shape
    if image_height <= 0 or image_width <= 0:
        raise invalid(ctx, "image dimensions must be positive")
    boxes, box_index = np.asarray(boxes, F32), np.asarray(box_index)
    if boxes.ndim != 2:
        raise invalid(ctx, f"boxes must be 2-D{_dims_text(boxes)}")
    if box_index.ndim != 1:
        raise invalid(ctx, f"box_index must be 1-D{_dims_text(box_index)}")
    num_boxes = _boxes_and_indices(ctx, boxes, box_index)
    crop_height, crop_width = _crop_size(ctx, crop_size)
    _check_bounds(ctx, box_index, batch_size)
    method = _method(ctx)
    extrapolation = F32(ctx.attr("extrapolation_value", 0.0))
    crops = np.empty((num_boxes, crop_height, crop_width, depth), F32)
    for b in range(num_boxes):
        y1, x1, y2, x2 = boxes[b]
        pixels = image[int(box_index[b])].astype(F32)
        in_y = _positions(y1, y2, crop_height, image_height)
        in_x = _positions(x1, x2, crop_width, image_width)
        valid_y, valid_x, top, bottom, left, right, y_lerp, x_lerp = _lerp_points(
            in_y, in_x, image_height, image_width)
        if method == "bilinear":
            top_left = pixels[top[:, None], left[None, :]]
            top_right = pixels[top[:, None], right[None, :]]
            bottom_left = pixels[bottom[:, None], left[None, :]]
            bottom_right = pixels[bottom[:, None], right[None, :]]
            x_w = x_lerp[None, :, None]
            upper = top_left + (top_right - top_left) * x_w
            lower = bottom_left + (bottom_right - bottom_left) * x_w
            values = upper + (lower - upper) * y_lerp[:, None, None]
        else:
            rows = _roundf(np.where(valid_y, in_y, 0))
            columns = _roundf(np.where(valid_x, in_x, 0))
            values = pixels[rows[:, None], columns[None, :]]
        inside = (valid_y[:, None] & valid_x[None, :])[:, :, None]
        crops[b] = np.where(inside, values, extrapolation)
    return crops


def _grads(ctx, grads):
    grads = np.asarray(grads, F32)
    if grads.ndim != 4:
        raise invalid(ctx, f"grads image must be 4-D{_dims_text(grads)}")
    crop_height, crop_width = grads.shape[1], grads.shape[2]
    if crop_height <= 0 or crop_width <= 0:
        raise invalid(ctx, "grads dimensions must be positive")
    return grads


@register("CropAndResizeGradImage")
def crop_and_resize_grad_image(ctx, grads, boxes, box_index, image_size):
    grads = _grads(ctx, grads)
    num_boxes, crop_height, crop_width, depth = grads.shape
    boxes, box_index = np.asarray(boxes, F32), np.asarray(box_index)
    image_size = np.asarray(image_size)
    if image_size.ndim != 1:
        raise invalid(ctx, f"image_size must be 1-D{_dims_text(image_size)}")
    if image_size.shape[0] != 4:
        raise invalid(ctx, f"image_size must have 4 elements{_dims_text(image_size)}")
    batch_size, image_height, image_width, image_depth = (int(v) for v in image_size)
    if image_height <= 0 or image_width <= 0:
        raise invalid(ctx, "image dimensions must be positive")
    if image_depth != depth:
        raise invalid(ctx, "image_size and grads are incompatible")
    if _boxes_and_indices(ctx, boxes, box_index) != num_boxes:
        raise invalid(ctx, "boxes and grads have incompatible shape")
    _check_bounds(ctx, box_index, batch_size)
    method = _method(ctx)
    out_dtype = ctx.attr("T").as_numpy_dtype
    image_grads = np.zeros((batch_size, image_height, image_width, depth), out_dtype)
    for b in range(num_boxes):
        y1, x1, y2, x2 = boxes[b]
        b_in = int(box_index[b])
        in_y = _positions(y1, y2, crop_height, image_height)
        in_x = _positions(x1, x2, crop_width, image_width)
        valid_y, valid_x, top, bottom, left, right, y_lerp, x_lerp = _lerp_points(
            in_y, in_x, image_height, image_width)
        ys, xs = np.nonzero(valid_y[:, None] & valid_x[None, :])   # the loops' order
        grad = grads[b, ys, xs]                                      # [n, depth]
        if method == "bilinear":
            yl, xl = y_lerp[ys][:, None], x_lerp[xs][:, None]
            dtop = (F32(1) - yl) * grad
            dbottom = yl * grad
            shares = np.stack([(F32(1) - xl) * dtop, xl * dtop,
                               (F32(1) - xl) * dbottom, xl * dbottom], axis=1)
            rows = np.stack([top[ys], top[ys], bottom[ys], bottom[ys]], axis=1)
            columns = np.stack([left[xs], right[xs], left[xs], right[xs]], axis=1)
        else:
            shares = grad[:, None, :]
            rows = _roundf(in_y[ys])[:, None]
            columns = _roundf(in_x[xs])[:, None]
        np.add.at(image_grads[b_in], (rows.reshape(-1), columns.reshape(-1)),
                  shares.reshape(-1, depth).astype(out_dtype))
    return image_grads


@register("CropAndResizeGradBoxes")
def crop_and_resize_grad_boxes(ctx, grads, image, boxes, box_index):
    grads = _grads(ctx, grads)
    num_boxes, crop_height, crop_width, depth = grads.shape
    image = np.asarray(image)
    if image.ndim != 4:
        raise invalid(ctx, f"input image must be 4-D{_dims_text(image)}")
    batch_size, image_height, image_width, image_depth = image.shape
    if image_height <= 0 or image_width <= 0:
        raise invalid(ctx, "image dimensions must be positive")
    if image_depth != depth:
        raise invalid(ctx, "image, grads depth differ")
    boxes, box_index = np.asarray(boxes, F32), np.asarray(box_index)
    if _boxes_and_indices(ctx, boxes, box_index) != num_boxes:
        raise invalid(ctx, "boxes and grads have incompatible shape")
    _check_bounds(ctx, box_index, batch_size)
    out = np.zeros((num_boxes, 4), F32)
    height_ratio = F32(image_height - 1) / F32(crop_height - 1) if crop_height > 1 else F32(0)
    width_ratio = F32(image_width - 1) / F32(crop_width - 1) if crop_width > 1 else F32(0)
    for b in range(num_boxes):
        y1, x1, y2, x2 = boxes[b]
        pixels = image[int(box_index[b])].astype(F32)
        in_y = _positions_by_ratio(y1, y2, crop_height, image_height, height_ratio)
        in_x = _positions_by_ratio(x1, x2, crop_width, image_width, width_ratio)
        valid_y, valid_x, top, bottom, left, right, y_lerp, x_lerp = _lerp_points(
            in_y, in_x, image_height, image_width)
        ys, xs = np.nonzero(valid_y[:, None] & valid_x[None, :])
        if not ys.size:
            continue
        yl, xl = y_lerp[ys][:, None], x_lerp[xs][:, None]
        top_left = pixels[top[ys], left[xs]]
        top_right = pixels[top[ys], right[xs]]
        bottom_left = pixels[bottom[ys], left[xs]]
        bottom_right = pixels[bottom[ys], right[xs]]
        grad_y = (F32(1) - xl) * (bottom_left - top_left) + xl * (bottom_right - top_right)
        grad_x = (F32(1) - yl) * (top_right - top_left) + yl * (bottom_right - bottom_left)
        top_grad = grads[b, ys, xs]
        grad_y, grad_x = grad_y * top_grad, grad_x * top_grad          # [n, depth]
        terms = []
        for grad, index, crop, size, ratio in ((grad_y, ys, crop_height, image_height,
                                                height_ratio),
                                               (grad_x, xs, crop_width, image_width,
                                                width_ratio)):
            if crop > 1:
                step = index.astype(F32)[:, None] * ratio
                terms.append((grad * (F32(size - 1) - step), grad * step))
            else:   # image_grad * 0.5 * (size - 1): in double, added to the float sum
                half = grad.astype(np.float64) * 0.5 * (size - 1)
                terms.append((half, half))
        (dy1, dy2), (dx1, dx2) = terms
        for column, term in ((0, dy1), (2, dy2), (1, dx1), (3, dx2)):
            out[b, column] = _sequential_sum(term.reshape(-1))
    return out


def _positions_by_ratio(start, end, crop_size, image_size, ratio):
    """The boxes' gradient's in_y: the scale as (end - start) * ratio (its own rounding)."""
    start, end = F32(start), F32(end)
    if crop_size > 1:
        scale = (end - start) * ratio
        return start * F32(image_size - 1) + np.arange(crop_size).astype(F32) * scale
    middle = 0.5 * np.float64(start + end) * (image_size - 1)   # the sum in float
    return np.full(1, middle, F32)


def _sequential_sum(terms):
    """sum += term, one after another in float32 (a double term added in double, then
    rounded to float32, as C++'s `float += double` does)."""
    if terms.dtype == np.float64:
        total = F32(0)
        for term in terms:
            total = F32(np.float64(total) + term)
        return total
    return np.cumsum(terms, dtype=F32)[-1] if terms.size else F32(0)

