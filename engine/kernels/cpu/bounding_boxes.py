"""CPU kernels of the bounding-box ops: non-max suppression (NonMaxSuppressionV3, V4, V5 and
NonMaxSuppressionWithOverlaps, TensorFlow's DoNonMaxSuppressionOp; CombinedNonMaxSuppression,
its BatchedNonMaxSuppressionOp) and DrawBoundingBoxes / DrawBoundingBoxesV2
(draw_bounding_box_op.cc), in float32 as TensorFlow computes them. SampleDistortedBoundingBoxV2
is distorted_crop.py."""

import heapq
import math

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

F32 = np.float32


def _scalar(ctx, name, value):
    if np.ndim(value) != 0:
        raise invalid(ctx, f"{name} must be 0-D, got shape {shape_str(np.shape(value))} "
                           f"(Shape must be rank 0 but is rank {np.ndim(value)})")
    return np.asarray(value).item()


def _boxes_and_scores(ctx, boxes, scores):
    boxes, scores = np.asarray(boxes), np.asarray(scores)
    if boxes.ndim != 2:
        raise invalid(ctx, f"boxes must be 2-D{shape_str(boxes.shape)} (Shape must be rank 2 "
                           f"but is rank {boxes.ndim})")
    if boxes.shape[1] != 4:
        raise invalid(ctx, f"boxes must have 4 columns (Dimension must be 4 but is "
                           f"{boxes.shape[1]})")
    if scores.ndim != 1:
        raise invalid(ctx, f"scores must be 1-D{shape_str(scores.shape)} (Shape must be rank 1 "
                           f"but is rank {scores.ndim})")
    if scores.shape[0] != boxes.shape[0]:
        raise invalid(ctx, f"scores has incompatible shape (Dimensions must be equal, but are "
                           f"{boxes.shape[0]} and {scores.shape[0]})")
    return boxes, scores


def _iou_function(boxes):
    """TensorFlow's IOU(boxes, i, j) in float."""
    boxes = boxes.astype(F32)
    ymin = np.minimum(boxes[:, 0], boxes[:, 2])
    xmin = np.minimum(boxes[:, 1], boxes[:, 3])
    ymax = np.maximum(boxes[:, 0], boxes[:, 2])
    xmax = np.maximum(boxes[:, 1], boxes[:, 3])
    areas = (ymax - ymin) * (xmax - xmin)

    def iou(i, j):
        if areas[i] <= 0 or areas[j] <= 0:
            return F32(0)
        height = max(min(ymax[i], ymax[j]) - max(ymin[i], ymin[j]), F32(0))
        width = max(min(xmax[i], xmax[j]) - max(xmin[i], xmin[j]), F32(0))
        intersection = F32(height * width)
        return F32(intersection / F32(areas[i] + areas[j] - intersection))
    return iou


def _suppress(similarity, scores, output_size, threshold, score_threshold, soft_sigma=0.0):
    """DoNonMaxSuppressionOp: candidates above score_threshold taken from a priority queue
    (the highest score, ties the lower index); a candidate is compared with the boxes kept
    since it was last looked at, newest first, hard-suppressed above `threshold` or (soft
    NMS) its score decayed by exp(-sim^2 / (2 sigma)) and put back while above
    score_threshold. (selected indices, their scores)."""
    dtype = scores.dtype.type
    soft = soft_sigma > 0
    scale = F32(-0.5 / soft_sigma) if soft else F32(0)
    threshold, score_threshold = dtype(threshold), dtype(score_threshold)

    def weight(sim):
        value = dtype(math.exp(float(F32(scale * sim * sim))))
        return value if soft or sim <= threshold else dtype(0)

    queue = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > score_threshold]
    heapq.heapify(queue)
    selected, selected_scores = [], []
    while len(selected) < output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = -negative
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = similarity(index, selected[j])
            score = dtype(score * weight(sim))
            if not soft and sim > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(selected)))
    return selected, selected_scores


def _inputs(ctx, boxes, scores, max_output_size, iou_threshold, score_threshold):
    """(boxes, scores, output size, iou threshold, score threshold), checked in the order
    TensorFlow's kernels check them."""
    for name, value in (("max_output_size", max_output_size),
                        ("iou_threshold", iou_threshold),
                        ("score_threshold", score_threshold)):
        _scalar(ctx, name, value)
    threshold = F32(np.asarray(iou_threshold))
    if not 0 <= threshold <= 1:
        raise invalid(ctx, "iou_threshold must be in [0, 1]")
    boxes, scores = _boxes_and_scores(ctx, boxes, scores)
    size = int(np.asarray(max_output_size))
    if size < 0:
        raise invalid(ctx, "output size must be non-negative")
    return boxes, scores, size, threshold, np.asarray(score_threshold).item()


def _padded(values, size, dtype, pad):
    out = np.array(values, dtype)
    if pad and len(out) < size:
        out = np.concatenate([out, np.zeros(size - len(out), dtype)])
    return out


@register("NonMaxSuppressionV3")
def non_max_suppression_v3(ctx, boxes, scores, max_output_size, iou_threshold,
                           score_threshold):
    boxes, scores, size, threshold, score_threshold = _inputs(
        ctx, boxes, scores, max_output_size, iou_threshold, score_threshold)
    selected, _ = _suppress(_iou_function(boxes), scores, size, threshold, score_threshold)
    return np.array(selected, np.int32)


@register("NonMaxSuppressionV4")
def non_max_suppression_v4(ctx, boxes, scores, max_output_size, iou_threshold,
                           score_threshold):
    boxes, scores, size, threshold, score_threshold = _inputs(
        ctx, boxes, scores, max_output_size, iou_threshold, score_threshold)
    selected, _ = _suppress(_iou_function(boxes), scores, size, threshold, score_threshold)
    pad = bool(ctx.attrs.get("pad_to_max_output_size", False))
    return _padded(selected, size, np.int32, pad), np.int32(len(selected))


@register("NonMaxSuppressionV5")
def non_max_suppression_v5(ctx, boxes, scores, max_output_size, iou_threshold,
                           score_threshold, soft_nms_sigma):
    sigma = F32(_scalar(ctx, "soft_nms_sigma", soft_nms_sigma))
    boxes, scores, size, threshold, score_threshold = _inputs(
        ctx, boxes, scores, max_output_size, iou_threshold, score_threshold)
    if sigma < 0:
        raise invalid(ctx, "soft_nms_sigma_val must be >= 0")
    selected, kept_scores = _suppress(_iou_function(boxes), scores, size, threshold,
                                      score_threshold, float(sigma))
    pad = bool(ctx.attrs.get("pad_to_max_output_size", False))
    return (_padded(selected, size, np.int32, pad),
            _padded(kept_scores, size, scores.dtype, pad), np.int32(len(selected)))


@register("NonMaxSuppressionWithOverlaps")
def non_max_suppression_with_overlaps(ctx, overlaps, scores, max_output_size,
                                      overlap_threshold, score_threshold):
    for name, value in (("max_output_size", max_output_size),
                        ("overlap_threshold", overlap_threshold),
                        ("score_threshold", score_threshold)):
        _scalar(ctx, name, value)
    threshold = F32(np.asarray(overlap_threshold))
    score_threshold = np.asarray(score_threshold).item()
    size = int(np.asarray(max_output_size))
    overlaps, scores = np.asarray(overlaps), np.asarray(scores)
    if overlaps.ndim != 2:
        raise invalid(ctx, f"overlaps must be 2-D{shape_str(overlaps.shape)}")
    if overlaps.shape[0] != overlaps.shape[1]:
        raise invalid(ctx, f"overlaps must be square{shape_str(overlaps.shape)}")
    if scores.ndim != 1:
        raise invalid(ctx, f"scores must be 1-D{shape_str(scores.shape)}")
    if scores.shape[0] != overlaps.shape[0]:
        raise invalid(ctx, "scores has incompatible shape")
    if size < 0:
        raise invalid(ctx, "output size must be non-negative")
    table = overlaps.astype(F32)
    selected, _ = _suppress(lambda i, j: table[i, j], scores.astype(F32), size, threshold,
                            F32(score_threshold))
    return np.array(selected, np.int32)


# --- DrawBoundingBoxes ---

_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                   [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1],
                   [1, 0, 1, 1]]


def _draw(ctx, images, boxes, colors=None):
    images, boxes = np.asarray(images), np.asarray(boxes)
    if images.ndim != 4:
        raise invalid(ctx, "The rank of the images should be 4")
    if boxes.ndim != 3:
        raise invalid(ctx, "The rank of the boxes tensor should be 3")
    if images.shape[0] != boxes.shape[0]:
        raise invalid(ctx, "The batch sizes should be the same")
    batch, height, width, depth = images.shape
    if depth not in (1, 3, 4):
        raise invalid(ctx, "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.shape[2] != 4:
        raise invalid(ctx, f"The size of the third dimension of the box must be 4. Received: "
                           f"{boxes.shape[2]}")
    table = None
    if colors is not None:
        colors = np.asarray(colors)
        if colors.ndim != 2:
            raise invalid(ctx, f"colors must be a 2-D matrix{shape_str(colors.shape)}")
        if colors.shape[1] < depth:
            raise invalid(ctx, f"colors must have equal or more channels than the image "
                               f"provided: {shape_str(colors.shape)}")
        if colors.size:
            table = colors[:, :depth].astype(F32)
    if table is None:
        table = np.array(_DEFAULT_COLORS, F32)[:, :depth].copy()
        if depth == 1:
            table[:, 0] = 1
    table = table.astype(images.dtype)
    canvas = images.copy()
    boxes = boxes.astype(F32)
    for b in range(batch):
        for k in range(boxes.shape[1]):
            color = table[k % len(table)]
            # float(box) * (size - 1) in float, truncated to an integer.
            top, left, bottom, right = (int(F32(boxes[b, k, i]) * F32(size - 1))
                                        for i, size in ((0, height), (1, width),
                                                        (2, height), (3, width)))
            if top > bottom or left > right:
                continue
            if top >= height or bottom < 0 or left >= width or right < 0:
                continue
            row0, row1 = max(top, 0), min(bottom, height - 1)
            col0, col1 = max(left, 0), min(right, width - 1)
            if top >= 0:
                canvas[b, top, col0:col1 + 1] = color
            if bottom < height:
                canvas[b, bottom, col0:col1 + 1] = color
            if left >= 0:
                canvas[b, row0:row1 + 1, left] = color
            if right < width:
                canvas[b, row0:row1 + 1, right] = color
    return canvas


@register("DrawBoundingBoxes")
def draw_bounding_boxes(ctx, images, boxes):
    return _draw(ctx, images, boxes)


@register("DrawBoundingBoxesV2")
def draw_bounding_boxes_v2(ctx, images, boxes, colors):
    return _draw(ctx, images, boxes, colors)


# --- CombinedNonMaxSuppression (BatchedNonMaxSuppressionOp) ---

def _combined_inputs(ctx, boxes, scores, max_per_class, max_total, iou_threshold,
                     score_threshold):
    if boxes.shape[0] != scores.shape[0]:
        raise invalid(ctx, "boxes and scores must have same batch size")
    for name, value in (("max_size_per_class", max_per_class),
                        ("max_total_size", max_total)):
        if np.ndim(value) != 0:
            raise invalid(ctx, f"{name} must be 0-D, got shape {shape_str(np.shape(value))}")
    per_class, total = int(max_per_class), int(max_total)
    if per_class <= 0:
        raise invalid(ctx, "max_size_per_class must be positive")
    if total <= 0:
        raise invalid(ctx, "max_total_size must be > 0")
    for name, value in (("iou_threshold", iou_threshold),
                        ("score_threshold", score_threshold)):
        if np.ndim(value) != 0:
            raise invalid(ctx, f"{name} must be 0-D, got shape {shape_str(np.shape(value))}")
    iou, score = F32(iou_threshold), F32(score_threshold)
    if not 0 <= iou <= 1:
        raise invalid(ctx, "iou_threshold must be in [0, 1]")
    if boxes.ndim != 4:
        raise invalid(ctx, f"boxes must be 4-D{shape_str(boxes.shape)}")
    num_classes = scores.shape[2] if scores.ndim == 3 else 0
    if boxes.shape[2] != 1 and boxes.shape[2] != num_classes:
        raise invalid(ctx, f"third dimension of boxes must be either 1 or {num_classes}")
    if boxes.shape[3] != 4:
        raise invalid(ctx, "fourth dimension of boxes must be 4")
    if scores.ndim != 3:
        raise invalid(ctx, f"scores must be 3-D{shape_str(scores.shape)}")
    if scores.shape[1] != boxes.shape[1]:
        raise invalid(ctx, "scores has incompatible shape")
    return per_class, total, iou, score


def _class_nms(boxes, scores, class_index, size_per_class, score_threshold, iou_threshold):
    """DoNMSPerClass: (box index, score, box) kept for one class, from libstdc++'s
    priority queue ordered by score alone."""
    from engine.kernels.cpu import stl_order
    queue = stl_order.PriorityQueue(lambda a, b: a[1] < b[1])
    for i in range(scores.shape[0]):
        if scores[i, class_index] > score_threshold:
            queue.push((i, scores[i, class_index]))
    column = class_index if boxes.shape[1] > 1 else 0
    iou = _iou_function(boxes[:, column])
    kept = []
    while len(kept) < size_per_class and len(queue):
        index, score = queue.pop()
        if all(iou(index, j) <= iou_threshold for j, _ in reversed(kept)):
            kept.append((index, score))
    return [(index, score, class_index, boxes[index, column]) for index, score in kept]


@register("CombinedNonMaxSuppression")
def combined_non_max_suppression(ctx, boxes, scores, max_output_size_per_class,
                                 max_total_size, iou_threshold, score_threshold):
    """Per image and class hard NMS, then the image's candidates sorted by score (libstdc++'s
    std::sort, ties as it leaves them), the best max_total_size kept, clipped to [0, 1]."""
    from engine.kernels.cpu import stl_order
    boxes, scores = np.asarray(boxes, F32), np.asarray(scores, F32)
    per_class, total, iou_threshold, score_threshold = _combined_inputs(
        ctx, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
        score_threshold)
    pad_per_class = bool(ctx.attrs.get("pad_per_class", False))
    clip = bool(ctx.attrs.get("clip_boxes", True))
    batch, num_boxes, num_classes = scores.shape
    size_per_class = min(per_class, num_boxes)
    max_total = min(2 ** 31 - 1, per_class * num_classes)
    per_batch = min(total, max_total) if pad_per_class else total
    out_boxes = np.zeros((batch, per_batch, 4), F32)
    out_scores = np.zeros((batch, per_batch), F32)
    out_classes = np.zeros((batch, per_batch), F32)
    valid = np.zeros(batch, np.int32)
    empty = (-1, F32(-1), -1, np.zeros(4, F32))
    for b in range(batch):
        candidates = [empty] * (size_per_class * num_classes)
        for c in range(num_classes):
            kept = _class_nms(boxes[b], scores[b], c, size_per_class, score_threshold,
                              iou_threshold)
            candidates[c * size_per_class:c * size_per_class + len(kept)] = kept
        candidates = stl_order.sort(candidates, lambda x, y: x[1] > y[1])
        found = sum(1 for candidate in candidates if candidate[0] > -1)
        count = min(found, total) if not pad_per_class else min(per_batch, found)
        valid[b] = count
        for k, (_, score, class_index, box) in enumerate(candidates[:count]):
            out_boxes[b, k] = np.clip(box, F32(0), F32(1)) if clip else box
            out_scores[b, k] = score
            out_classes[b, k] = class_index
    return out_boxes, out_scores, out_classes, valid
