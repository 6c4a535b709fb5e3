"""tf.image's colour spaces (YIQ, YUV), SSIM and MS-SSIM, resize_image_with_pad, bounding boxes
(draw_bounding_boxes, non_max_suppression_with_scores, non_max_suppression_overlaps), built
the same way by real TensorFlow (tf.compat.v1) and the engine, in image_cases.py's form
(tools/make_image_box_and_measure_fixtures.py writes TensorFlow's values, graphs and errors
to tests/fixtures/image_box_and_measure/)."""

import numpy as np

import image_cases

_image = image_cases._image

_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                   [0, 10.1, 1, 11.1], [0, 100, 1, 101], [0.2, 0.2, 0.8, 0.8],
                   [1, 1, 0, 0]], np.float32)
_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.8, 0.85], np.float32)
_DRAW_BOXES = np.array([[[0.1, 0.2, 0.6, 0.7], [-0.2, 0.5, 0.4, 1.3], [0.5, 0.5, 0.5, 0.5]],
                        [[0.0, 0.0, 1.0, 1.0], [0.7, 0.1, 0.3, 0.9], [0.3, 0.3, 0.9, 0.95]]],
                       np.float32)
_rs = np.random.RandomState(8)
# Scores in tenths: ties, which the kernel orders through libstdc++'s heap and sort.
_BATCH_SCORES = np.round(_rs.uniform(0, 1, (2, 30, 3)), 1).astype(np.float32)
_BATCH_BOXES = np.sort(_rs.uniform(-0.2, 1.2, (2, 30, 1, 4)).astype(np.float32), axis=-1)
_CLASS_BOXES = np.sort(_rs.uniform(0, 1, (1, 8, 2, 4)).astype(np.float32), axis=-1)
_OVERLAPS = np.random.RandomState(7).uniform(0, 1, (6, 6)).astype(np.float32)

CASES = {
    "rgb_to_yiq": (lambda tf, x: tf.image.rgb_to_yiq(x), _image(70, [2, 4, 5, 3]), True),
    "yiq_to_rgb": (lambda tf, x: tf.image.yiq_to_rgb(x), _image(71, [3, 4, 3]), True),
    "rgb_to_yuv": (lambda tf, x: tf.image.rgb_to_yuv(x), _image(72, [2, 4, 5, 3]), True),
    "yuv_to_rgb_float64": (lambda tf, x: tf.image.yuv_to_rgb(x),
                           _image(73, [4, 5, 3], np.float64), True),
    "ssim": (lambda tf, x: tf.image.ssim(x, x * 0.8 + 0.1, max_val=1.0),
             _image(74, [2, 16, 17, 3]), True),
    "ssim_index_map": (lambda tf, x: tf.image.ssim(x, tf.reverse(x, [0]), 1.0, filter_size=5,
                                                   return_index_map=True),
                       _image(75, [2, 9, 8, 2]), False),
    "ssim_uint8": (lambda tf, x: tf.image.ssim(tf.cast(x, tf.uint8),
                                               tf.cast(x * 0.7, tf.uint8), 255),
                   _image(76, [12, 13, 3], np.float32, 0, 255), False),
    "ssim_multiscale": (lambda tf, x: tf.image.ssim_multiscale(
                            x, x * 0.9 + 0.05, 1.0, power_factors=(0.3, 0.7), filter_size=3),
                        _image(77, [1, 13, 14, 3]), True),
    "resize_image_with_pad_3d": (lambda tf, x: tf.image.resize_image_with_pad(x, 10, 10),
                                 _image(78, [5, 8, 3]), True),
    "resize_image_with_pad_4d": (lambda tf, x: tf.image.resize_image_with_pad(
                                     x, 5, 9, method=tf.image.ResizeMethod.NEAREST_NEIGHBOR),
                                 _image(79, [2, 6, 4, 3]), True),
    "draw_bounding_boxes": (lambda tf, x: tf.image.draw_bounding_boxes(x, _DRAW_BOXES),
                            _image(80, [2, 8, 10, 3]), False),
    "draw_bounding_boxes_gray": (lambda tf, x: tf.image.draw_bounding_boxes(x, _DRAW_BOXES),
                                 _image(81, [2, 7, 9, 1]), False),
    "draw_bounding_boxes_colors": (lambda tf, x: tf.image.draw_bounding_boxes(
                                       x, _DRAW_BOXES, colors=[[0.2, 0.4, 0.6, 1.0],
                                                               [1.0, 0.0, 0.5, 1.0]]),
                                   _image(82, [2, 8, 10, 4]), False),
    "non_max_suppression_with_scores": (lambda tf, x: tf.image.non_max_suppression_with_scores(
                                            x, _SCORES, 5, 0.5), _BOXES, False),
    "soft_non_max_suppression": (lambda tf, x: tf.image.non_max_suppression_with_scores(
                                     x, _SCORES, 6, 1.0, score_threshold=0.1,
                                     soft_nms_sigma=0.5), _BOXES, False),
    "non_max_suppression_overlaps": (lambda tf, x: tf.image.non_max_suppression_overlaps(
                                         x, _SCORES[:6], 4, overlap_threshold=0.6,
                                         score_threshold=0.35), _OVERLAPS, False),
    "sample_distorted_bounding_box": (lambda tf, x: sum((
        tf.image.sample_distorted_bounding_box([40, 60, 3], x, seed=3, seed2=5),
        tf.image.sample_distorted_bounding_box(
            tf.constant([31, 17, 1], tf.int64), x, seed=11, min_object_covered=0.5,
            aspect_ratio_range=[0.5, 2.0], area_range=[0.2, 0.9], max_attempts=7),
        tf.image.sample_distorted_bounding_box([50, 50, 3], tf.zeros([1, 0, 4]), seed2=9,
                                               use_image_if_no_bounding_boxes=True)), ()),
        np.array([[[0.1, 0.2, 0.5, 0.9], [0.3, 0.3, 0.6, 0.5]]], np.float32), False),
    "extract_glimpse_inside": (lambda tf, x: (
        tf.image.extract_glimpse(x, [4, 5], [[0.1, -0.2], [-0.3, 0.25]]),
        tf.image.extract_glimpse(x, [3, 2], [[2.0, 3.0], [5.0, 9.6]], centered=False,
                                 normalized=False),
        tf.image.extract_glimpse(x, [5, 4], [[-1.5, 1.0], [2.0, -3.0]], normalized=False)),
        _image(87, [2, 10, 12, 3]), False),
    # A window past the right edge: its last column is TensorFlow's unseeded noise.
    "extract_glimpse_partial": (lambda tf, x: tf.image.extract_glimpse(
        x, [3, 4], [[2.0, 5.0]], centered=False, normalized=False),
        _image(88, [1, 8, 8, 2]), False),
    "combined_non_max_suppression": (lambda tf, x: tf.image.combined_non_max_suppression(
        x, _BATCH_SCORES, 6, 20, iou_threshold=0.4), _BATCH_BOXES, False),
    "combined_non_max_suppression_per_class": (lambda tf, x: tf.image.combined_non_max_suppression(
        x, np.round(_rs.uniform(0, 1, (1, 8, 2)), 1).astype(np.float32), 3, 10,
        score_threshold=0.2, pad_per_class=True, clip_boxes=False), _CLASS_BOXES, False),
}

# The columns of a case's output that TensorFlow fills with unseeded noise.
NOISY_COLUMNS = {"extract_glimpse_partial": slice(3, None)}

GRAPH_SEEDS = {}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, GRAPH_SEEDS)


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, GRAPH_SEEDS)


ERROR_CASES = {
    "draw_rank3": ("DrawBoundingBoxes", dict(images=_image(83, [8, 10, 3]),
                                             boxes=_DRAW_BOXES), {}),
    "draw_batch": ("DrawBoundingBoxes", dict(images=_image(84, [3, 8, 10, 3]),
                                             boxes=_DRAW_BOXES), {}),
    "draw_depth": ("DrawBoundingBoxes", dict(images=_image(85, [2, 8, 10, 2]),
                                             boxes=_DRAW_BOXES), {}),
    "draw_colors": ("DrawBoundingBoxesV2", dict(images=_image(86, [2, 8, 10, 3]),
                                                boxes=_DRAW_BOXES,
                                                colors=np.ones((2, 2), np.float32)), {}),
    "soft_sigma_negative": ("NonMaxSuppressionV5", dict(
        boxes=_BOXES, scores=_SCORES, max_output_size=np.int32(3),
        iou_threshold=np.float32(0.5), score_threshold=np.float32(0),
        soft_nms_sigma=np.float32(-1)), {}),
    "overlaps_not_square": ("NonMaxSuppressionWithOverlaps", dict(
        overlaps=_OVERLAPS[:5], scores=_SCORES[:6], max_output_size=np.int32(3),
        overlap_threshold=np.float32(0.5), score_threshold=np.float32(0)), {}),
    "nms_v4_iou": ("NonMaxSuppressionV4", dict(
        boxes=_BOXES, scores=_SCORES, max_output_size=np.int32(3),
        iou_threshold=np.float32(1.5), score_threshold=np.float32(0)), {}),
    "sample_box_outside": ("SampleDistortedBoundingBoxV2", dict(
        image_size=np.array([10, 10, 3], np.int32),
        bounding_boxes=np.array([[[0.1, 0.2, 1.5, 0.9]]], np.float32),
        min_object_covered=np.float32(0.1)), dict(seed=1)),
    "sample_box_no_boxes": ("SampleDistortedBoundingBoxV2", dict(
        image_size=np.array([10, 10, 3], np.int32),
        bounding_boxes=np.zeros([1, 0, 4], np.float32),
        min_object_covered=np.float32(0.1)), dict(seed=1)),
    "sample_box_image_size": ("SampleDistortedBoundingBoxV2", dict(
        image_size=np.array([10, 10], np.int32),
        bounding_boxes=np.zeros([1, 1, 4], np.float32),
        min_object_covered=np.float32(0.1)), dict(seed=1)),
    "glimpse_size": ("ExtractGlimpse", dict(input=_image(89, [1, 5, 5, 1]),
                                            size=np.array([2, 2, 2], np.int32),
                                            offsets=np.zeros([1, 2], np.float32)), {}),
    "glimpse_offsets_batch": ("ExtractGlimpse", dict(input=_image(90, [2, 5, 5, 1]),
                                                     size=np.array([2, 2], np.int32),
                                                     offsets=np.zeros([1, 2], np.float32)),
                              {}),
    "combined_iou": ("CombinedNonMaxSuppression", dict(
        boxes=_BATCH_BOXES, scores=_BATCH_SCORES, max_output_size_per_class=np.int32(3),
        max_total_size=np.int32(5), iou_threshold=np.float32(2),
        score_threshold=np.float32(0)), {}),
    "combined_total": ("CombinedNonMaxSuppression", dict(
        boxes=_BATCH_BOXES, scores=_BATCH_SCORES, max_output_size_per_class=np.int32(3),
        max_total_size=np.int32(0), iou_threshold=np.float32(0.5),
        score_threshold=np.float32(0)), {}),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)
