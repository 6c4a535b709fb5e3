"""tf.image's bounding boxes (TF 1.x names): non_max_suppression and its variants with
scores (soft NMS), overlaps and batches of classes (combined_non_max_suppression),
draw_bounding_boxes and sample_distorted_bounding_box, built
as TensorFlow 2.21's image_ops_impl.py builds them in graph mode."""

from engine.framework.default_graph import name_scope
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """tf.image.non_max_suppression: indices of the boxes greedy hard NMS keeps
    (NonMaxSuppressionV3), as image_ops_impl.py builds it."""
    with name_scope(name, "non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        return apply_op("NonMaxSuppressionV3", boxes=boxes, scores=scores,
                        max_output_size=max_output_size, iou_threshold=iou_threshold,
                        score_threshold=score_threshold)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(indices, scores) NonMaxSuppressionV5 keeps; soft NMS when soft_nms_sigma > 0."""
    with name_scope(name, "non_max_suppression_with_scores"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        soft_nms_sigma = convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma")
        selected_indices, selected_scores, _ = apply_op(
            "NonMaxSuppressionV5", boxes=boxes, scores=scores,
            max_output_size=max_output_size, iou_threshold=iou_threshold,
            score_threshold=score_threshold, soft_nms_sigma=soft_nms_sigma,
            pad_to_max_output_size=False)
        return selected_indices, selected_scores


def non_max_suppression_with_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                      score_threshold=float("-inf"), name=None):
    """tf.image.non_max_suppression_overlaps: greedy NMS over a given overlap matrix."""
    with name_scope(name, "non_max_suppression_overlaps"):
        overlap_threshold = convert_to_tensor(overlap_threshold, name="overlap_threshold")
        return apply_op("NonMaxSuppressionWithOverlaps", overlaps=overlaps, scores=scores,
                        max_output_size=max_output_size, overlap_threshold=overlap_threshold,
                        score_threshold=score_threshold)


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """TF 1.x's tf.image.draw_bounding_boxes: DrawBoundingBoxes (TensorFlow's ten colours)
    without colors, DrawBoundingBoxesV2 with them."""
    if colors is None:
        return apply_op("DrawBoundingBoxes", images=images, boxes=boxes, name=name)
    return apply_op("DrawBoundingBoxesV2", images=images, boxes=boxes, colors=colors,
                    name=name)


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None,
                                  min_object_covered=0.1, aspect_ratio_range=None,
                                  area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """TF 1.x's: (begin, size, bboxes) of a random crop covering enough of a box, from one
    SampleDistortedBoundingBoxV2 node seeded by seed and seed2 as given (no graph seed)."""
    with name_scope(name, "sample_distorted_bounding_box"):
        attrs = dict(seed=seed or 0, seed2=seed2 or 0)
        for key, value in (("aspect_ratio_range", aspect_ratio_range),
                           ("area_range", area_range), ("max_attempts", max_attempts),
                           ("use_image_if_no_bounding_boxes",
                            use_image_if_no_bounding_boxes)):
            if value is not None:
                attrs[key] = value
        begin, size, bboxes = apply_op(
            "SampleDistortedBoundingBoxV2", image_size=image_size,
            bounding_boxes=bounding_boxes, min_object_covered=min_object_covered, name=name,
            **attrs)
        return begin, size, bboxes


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """(nmsed boxes, scores, classes, valid detections): per-class NMS over a batch, the
    best max_total_size of each image (one CombinedNonMaxSuppression node)."""
    from engine.framework import dtypes
    with name_scope(name, "combined_non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, dtype=dtypes.float32,
                                          name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, dtype=dtypes.float32,
                                            name="score_threshold")
        max_total_size = convert_to_tensor(max_total_size)
        return tuple(apply_op(
            "CombinedNonMaxSuppression", boxes=boxes, scores=scores,
            max_output_size_per_class=max_output_size_per_class,
            max_total_size=max_total_size, iou_threshold=iou_threshold,
            score_threshold=score_threshold, pad_per_class=pad_per_class,
            clip_boxes=clip_boxes))
