"""tf.image.non_max_suppression_padded: TensorFlow 2.21's image_ops_impl.py
non_max_suppression_padded and its non_max_suppression_padded_v2 (the tiled suppression of
sorted boxes: a tile suppressed by every tile before it, then by itself until nothing
changes), transcribed op for op so its values are TensorFlow's.

TensorFlow traces non_max_suppression_padded_v2 as a tf.function: its graph holds one
PartitionedCall node and a function library (with functional If and While ops); the engine
builds the same ops inline, under the same name scope, with v1 control flow.
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import zeros, zeros_like
from engine.ops.segment_ops import top_k
from engine.ops.shape_ops import shape as _shape
from engine.ops.sort_ops import argsort


def _bbox_overlap(boxes_a, boxes_b):
    with name_scope("bbox_overlap"):
        a_y_min, a_x_min, a_y_max, a_x_max = array_ops.split(boxes_a, 4, axis=2)
        b_y_min, b_x_min, b_y_max, b_x_max = array_ops.split(boxes_b, 4, axis=2)
        i_xmin = math_ops.maximum(a_x_min, array_ops.transpose(b_x_min, [0, 2, 1]))
        i_xmax = math_ops.minimum(a_x_max, array_ops.transpose(b_x_max, [0, 2, 1]))
        i_ymin = math_ops.maximum(a_y_min, array_ops.transpose(b_y_min, [0, 2, 1]))
        i_ymax = math_ops.minimum(a_y_max, array_ops.transpose(b_y_max, [0, 2, 1]))
        i_area = math_ops.maximum(i_xmax - i_xmin, 0) * math_ops.maximum(i_ymax - i_ymin, 0)
        a_area = (a_y_max - a_y_min) * (a_x_max - a_x_min)
        b_area = (b_y_max - b_y_min) * (b_x_max - b_x_min)
        u_area = a_area + array_ops.transpose(b_area, [0, 2, 1]) - i_area + 1e-8
        return i_area / u_area


def _self_suppression(iou, _, iou_sum, iou_threshold):
    batch_size = _shape(iou)[0]
    can_suppress_others = math_ops.cast(
        array_ops.reshape(math_ops.reduce_max(iou, 1) < iou_threshold, [batch_size, -1, 1]),
        iou.dtype)
    iou_after_suppression = array_ops.reshape(
        math_ops.cast(math_ops.reduce_max(can_suppress_others * iou, 1) < iou_threshold,
                      iou.dtype), [batch_size, -1, 1]) * iou
    iou_sum_new = math_ops.reduce_sum(iou_after_suppression, [1, 2])
    return [iou_after_suppression, math_ops.reduce_any(iou_sum - iou_sum_new > iou_threshold),
            iou_sum_new, iou_threshold]


def _cross_suppression(boxes, box_slice, iou_threshold, inner_idx, tile_size):
    batch_size = _shape(boxes)[0]
    new_slice = array_ops.slice(boxes, [0, inner_idx * tile_size, 0],
                                [batch_size, tile_size, 4])
    iou = _bbox_overlap(new_slice, box_slice)
    box_slice_after_suppression = array_ops.expand_dims(
        math_ops.cast(math_ops.reduce_all(iou < iou_threshold, [1]), box_slice.dtype),
        2) * box_slice
    return boxes, box_slice_after_suppression, iou_threshold, inner_idx + 1


def _suppression_loop_body(boxes, iou_threshold, output_size, idx, tile_size):
    with name_scope("suppression_loop_body"):
        num_tiles = _shape(boxes)[1] // tile_size
        batch_size = _shape(boxes)[0]

        def cross_suppression_func(boxes, box_slice, iou_threshold, inner_idx):
            return _cross_suppression(boxes, box_slice, iou_threshold, inner_idx, tile_size)

        box_slice = array_ops.slice(boxes, [0, idx * tile_size, 0],
                                    [batch_size, tile_size, 4])
        _, box_slice, _, _ = while_loop(
            lambda _boxes, _box_slice, _threshold, inner_idx: inner_idx < idx,
            cross_suppression_func,
            [boxes, box_slice, iou_threshold, convert_to_tensor(0)])
        iou = _bbox_overlap(box_slice, box_slice)
        mask = array_ops.expand_dims(
            array_ops.reshape(math_ops.range(tile_size), [1, -1])
            > array_ops.reshape(math_ops.range(tile_size), [-1, 1]), 0)
        iou *= math_ops.cast(math_ops.logical_and(mask, iou >= iou_threshold), iou.dtype)
        suppressed_iou, _, _, _ = while_loop(
            lambda _iou, loop_condition, _iou_sum, _: loop_condition, _self_suppression,
            [iou, convert_to_tensor(True), math_ops.reduce_sum(iou, [1, 2]), iou_threshold])
        suppressed_box = math_ops.reduce_sum(suppressed_iou, 1) > 0
        box_slice *= array_ops.expand_dims(
            1.0 - math_ops.cast(suppressed_box, box_slice.dtype), 2)
        mask = array_ops.reshape(
            math_ops.cast(math_ops.equal(math_ops.range(num_tiles), idx), boxes.dtype),
            [1, -1, 1, 1])
        boxes = array_ops.tile(array_ops.expand_dims(box_slice, [1]),
                               [1, num_tiles, 1, 1]) * mask + array_ops.reshape(
            boxes, [batch_size, num_tiles, tile_size, 4]) * (1 - mask)
        boxes = array_ops.reshape(boxes, [batch_size, -1, 4])
        output_size += math_ops.reduce_sum(
            math_ops.cast(math_ops.reduce_any(box_slice > 0, [2]), dtypes.int32), [1])
    return boxes, iou_threshold, output_size, idx + 1


def _padded_v2(boxes, scores, max_output_size, iou_threshold, score_threshold, sorted_input,
               canonicalized_coordinates, tile_size):
    """non_max_suppression_padded_v2's body."""
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    max_output_size = convert_to_tensor(max_output_size, dtype=dtypes.int32)
    iou_threshold = convert_to_tensor(iou_threshold, dtype=dtypes.float32)
    batch_dims = _shape(boxes)[:-2]
    num_boxes = _shape(boxes)[-2]
    boxes = array_ops.reshape(boxes, [-1, num_boxes, 4])
    scores = array_ops.reshape(scores, [-1, num_boxes])
    batch_size = _shape(boxes)[0]
    if score_threshold != float("-inf"):
        with name_scope("filter_by_score"):
            score_mask = math_ops.cast(scores > score_threshold, scores.dtype)
            scores *= score_mask
            boxes *= array_ops.expand_dims(math_ops.cast(score_mask, boxes.dtype), 2)
    if not canonicalized_coordinates:
        with name_scope("canonicalize_coordinates"):
            y_1, x_1, y_2, x_2 = array_ops.split(boxes, 4, axis=2)
            y_1_is_min = math_ops.reduce_all(math_ops.less_equal(y_1[0, 0, 0], y_2[0, 0, 0]))
            y_min, y_max = cond(y_1_is_min, lambda: (y_1, y_2), lambda: (y_2, y_1))
            x_1_is_min = math_ops.reduce_all(math_ops.less_equal(x_1[0, 0, 0], x_2[0, 0, 0]))
            x_min, x_max = cond(x_1_is_min, lambda: (x_1, x_2), lambda: (x_2, x_1))
            boxes = array_ops.concat([y_min, x_min, y_max, x_max], axis=2)
    if not sorted_input:
        with name_scope("sort_scores_and_boxes"):
            sorted_indices = argsort(scores, axis=1, direction="DESCENDING")
            scores = array_ops.gather(scores, sorted_indices, axis=1, batch_dims=1)
            boxes = array_ops.gather(boxes, sorted_indices, axis=1, batch_dims=1)
    else:
        sorted_indices = zeros_like(scores, dtype=dtypes.int32)
    pad = math_ops.cast(math_ops.ceil(
        math_ops.cast(math_ops.maximum(num_boxes, max_output_size), dtypes.float32)
        / math_ops.cast(tile_size, dtypes.float32)), dtypes.int32) * tile_size - num_boxes
    boxes = array_ops.pad(math_ops.cast(boxes, dtypes.float32), [[0, 0], [0, pad], [0, 0]])
    # TensorFlow's shape refiner evaluates the paddings' constant parts; the last dim is 4.
    boxes.set_shape([None, None, 4])
    scores = array_ops.pad(math_ops.cast(scores, dtypes.float32), [[0, 0], [0, pad]])
    num_boxes_after_padding = num_boxes + pad
    num_iterations = num_boxes_after_padding // tile_size

    def _loop_cond(unused_boxes, unused_threshold, output_size, idx):
        return math_ops.logical_and(math_ops.reduce_min(output_size) < max_output_size,
                                    idx < num_iterations)

    def suppression_loop_body(boxes, iou_threshold, output_size, idx):
        return _suppression_loop_body(boxes, iou_threshold, output_size, idx, tile_size)

    selected_boxes, _, output_size, _ = while_loop(
        _loop_cond, suppression_loop_body,
        [boxes, iou_threshold, zeros([batch_size], dtypes.int32), convert_to_tensor(0)],
        shape_invariants=[TensorShape([None, None, 4]), TensorShape([]), TensorShape([None]),
                          TensorShape([])])
    num_valid = math_ops.minimum(output_size, max_output_size)
    idx = num_boxes_after_padding - math_ops.cast(top_k(
        math_ops.cast(math_ops.reduce_any(selected_boxes > 0, [2]), dtypes.int32)
        * array_ops.expand_dims(math_ops.range(num_boxes_after_padding, 0, -1), 0),
        max_output_size)[0], dtypes.int32)
    idx = math_ops.minimum(idx, num_boxes - 1)
    if not sorted_input:
        index_offsets = math_ops.range(batch_size) * num_boxes
        gather_idx = array_ops.reshape(idx + array_ops.expand_dims(index_offsets, 1), [-1])
        idx = array_ops.reshape(array_ops.gather(array_ops.reshape(sorted_indices, [-1]),
                                                 gather_idx), [batch_size, -1])
    invalid_index = zeros([batch_size, max_output_size], dtype=dtypes.int32)
    idx_index = array_ops.expand_dims(math_ops.range(max_output_size), 0)
    num_valid_expanded = array_ops.expand_dims(num_valid, 1)
    idx = array_ops.where(idx_index < num_valid_expanded, idx, invalid_index)
    num_valid = array_ops.reshape(num_valid, batch_dims)
    return idx, num_valid


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """(selected indices, their count): indices into each batch's boxes, padded with zeros
    to max_output_size when pad_to_max_output_size (which batched boxes need)."""
    with name_scope(name, "non_max_suppression_padded"):
        if not pad_to_max_output_size:
            rank = boxes.get_shape().ndims if hasattr(boxes, "get_shape") else None
            if rank is not None and rank > 2:
                raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) "
                                 f"must be True for batched input")
        idx, num_valid = _padded_v2(boxes, scores, max_output_size, iou_threshold,
                                    score_threshold, sorted_input, canonicalized_coordinates,
                                    tile_size)
        if not pad_to_max_output_size:
            idx = idx[0, :num_valid]
        else:
            batch_dims = array_ops.concat([
                _shape(boxes)[:-2],
                array_ops.expand_dims(convert_to_tensor(max_output_size, dtypes.int32), 0)],
                0)
            idx = array_ops.reshape(idx, batch_dims)
        return idx, num_valid
