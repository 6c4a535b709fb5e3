"""tf.image, tf.random_crop and tf.nn.depth_to_space / space_to_depth, built the same way by
real TensorFlow (tf.compat.v1) and the engine.

Each case is `(build(tf, x) -> output or tuple of outputs, x, differentiable)`: x is a
placeholder of the array's dtype and shape. `build_case` differentiates the sum of squares
of the float outputs with respect to x where the case says it can (TensorFlow has no gradient
for AdjustContrastv2, AdjustSaturation, AdjustHue, nor through a cast from an integer);
tools/make_image_fixtures.py writes TensorFlow's values and graphs to tests/fixtures/image/,
tests/engine/test_image_ops.py compares the engine's with them.
"""

import numpy as np


def _image(seed, shape, dtype=np.float32, low=0.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, shape).astype(dtype)


def _bytes(seed, shape):
    return np.random.RandomState(seed).randint(0, 256, shape).astype(np.uint8)


CASES = {
    # Resizes, each kernel with its corner conventions, up and down (and their gradients).
    "bilinear_up": (lambda tf, x: tf.image.resize_images(x, [7, 9]),
                    _image(0, [2, 5, 6, 3]), True),
    # the new size worked out from the static shape: TensorFlow's shape inference evaluates
    # its Cast/RealDiv/Minimum/Round subgraph, so the output's static shape is [7, 10, 3]
    "bilinear_preserve_aspect": (lambda tf, x: tf.image.resize_images(
        x, [10, 10], preserve_aspect_ratio=True), _image(2, [5, 7, 3]), True),
    "bilinear_down_align": (lambda tf, x: tf.image.resize_images(x, [3, 4],
                                                                 align_corners=True),
                            _image(1, [1, 6, 7, 2]), True),
    "bilinear_half_pixel": (lambda tf, x: tf.image.resize_bilinear(
                                x, [9, 5], half_pixel_centers=True),
                            _image(2, [2, 4, 7, 3]), True),
    "bilinear_float64": (lambda tf, x: tf.image.resize_bilinear(x, [5, 8], name="up"),
                         _image(3, [1, 3, 5, 2], np.float64), True),
    "bilinear_uint8": (lambda tf, x: tf.image.resize_images(tf.cast(x, tf.uint8), [6, 3]),
                       _image(4, [1, 4, 5, 3], np.float32, 0, 255), False),
    "bilinear_3d": (lambda tf, x: tf.image.resize_images(x, [4, 7]),
                    _image(5, [6, 5, 3]), True),
    "resize_same_size": (lambda tf, x: tf.image.resize_images(x, [5, 6]),
                         _image(6, [1, 5, 6, 3]), True),
    "nearest_up": (lambda tf, x: tf.image.resize_images(
                       x, [8, 11], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR),
                   _image(7, [2, 5, 6, 3]), True),
    "nearest_align": (lambda tf, x: tf.image.resize_nearest_neighbor(
                          x, [7, 4], align_corners=True),
                      _image(8, [1, 5, 6, 2]), True),
    "nearest_half_pixel": (lambda tf, x: tf.image.resize_nearest_neighbor(
                               x, [3, 10], half_pixel_centers=True),
                           _image(9, [2, 6, 4, 3], np.float64), True),
    "bicubic_up": (lambda tf, x: tf.image.resize_images(x, [9, 10], method=2),
                   _image(10, [2, 5, 6, 3]), True),
    "bicubic_down_align": (lambda tf, x: tf.image.resize_bicubic(x, [4, 3],
                                                                 align_corners=True),
                           _image(11, [1, 7, 6, 2]), True),
    "bicubic_half_pixel": (lambda tf, x: tf.image.resize_bicubic(
                               x, [8, 5], half_pixel_centers=True),
                           _image(12, [2, 5, 7, 3]), True),
    "bicubic_half_pixel_down_float64": (lambda tf, x: tf.image.resize_bicubic(
                                            x, [3, 4], half_pixel_centers=True),
                                        _image(13, [1, 7, 9, 2], np.float64), True),
    "area_down": (lambda tf, x: tf.image.resize_images(x, [3, 4], method=3),
                  _image(55, [2, 7, 9, 3]), False),
    "area_up_align": (lambda tf, x: tf.image.resize_area(x, [5, 7], align_corners=True),
                      _image(56, [1, 3, 4, 2]), False),
    "area_uneven_3d": (lambda tf, x: tf.image.resize_images(
                           x, [4, 3], method=tf.image.ResizeMethod.AREA),
                       _image(57, [7, 5, 4], np.float64), False),
    # Flips, transposes, rotations.
    "flip_left_right": (lambda tf, x: tf.image.flip_left_right(x),
                        _image(14, [2, 4, 5, 3]), True),
    "flip_up_down_3d": (lambda tf, x: tf.image.flip_up_down(x), _image(15, [4, 5, 3]), True),
    "transpose_image": (lambda tf, x: tf.image.transpose_image(x),
                        _image(16, [2, 4, 5, 3]), True),
    "rot90_4d": (lambda tf, x: tf.image.rot90(x), _image(17, [2, 4, 5, 3]), True),
    "rot90_3d_k3": (lambda tf, x: tf.image.rot90(x, 3), _image(18, [4, 5, 2]), True),
    "random_flip_left_right_3d": (lambda tf, x: tuple(
                                      tf.image.random_flip_left_right(x, seed=s)
                                      for s in (1, 2, 3, 4)),
                                  _image(19, [3, 4, 2]), True),
    "random_flip_up_down_4d": (lambda tf, x: tf.image.random_flip_up_down(x, seed=7),
                               _image(20, [6, 3, 4, 2]), True),
    # Crops and pads.
    "crop_to_bounding_box": (lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 3),
                             _image(21, [2, 5, 6, 3]), True),
    "pad_to_bounding_box_3d": (lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 2, 7, 9),
                               _image(22, [5, 6, 3]), True),
    "resize_image_with_crop_or_pad": (lambda tf, x: tf.image.resize_image_with_crop_or_pad(
                                          x, 3, 9), _image(23, [2, 5, 6, 3]), True),
    "central_crop_3d": (lambda tf, x: tf.image.central_crop(x, 0.5),
                        _image(24, [6, 8, 3]), True),
    "central_crop_4d": (lambda tf, x: tf.image.central_crop(x, 0.7),
                        _image(25, [2, 7, 5, 3]), True),
    "random_crop": (lambda tf, x: tuple(tf.random_crop(x, [3, 4, 3], seed=s)
                                        for s in (5, 6)), _image(26, [6, 7, 3]), True),
    # Values and colours.
    # Weighted, so that the loss's gradient is no sum of rounding errors (the sum of squares
    # of a standardized image is the same for every image).
    "per_image_standardization_3d": (lambda tf, x: tf.image.per_image_standardization(x)
                                     * _image(45, [5, 6, 3]), _image(27, [5, 6, 3]), True),
    "per_image_standardization_4d": (lambda tf, x: tf.image.per_image_standardization(
                                         x * 255.0) * _image(46, [4, 5, 3]),
                                     _image(28, [2, 4, 5, 3]), True),
    "convert_to_uint8": (lambda tf, x: tf.image.convert_image_dtype(x * 1.2 - 0.1, tf.uint8,
                                                                    saturate=True),
                         _image(29, [2, 3, 4, 3]), False),
    "convert_from_uint8": (lambda tf, x: tf.image.convert_image_dtype(
                               tf.cast(x, tf.uint8), tf.float32),
                           _image(30, [3, 4, 3], np.float32, 0, 255), False),
    "rgb_to_grayscale": (lambda tf, x: tf.image.rgb_to_grayscale(x),
                         _image(31, [2, 4, 5, 3]), True),
    "grayscale_to_rgb": (lambda tf, x: tf.image.grayscale_to_rgb(x),
                         _image(32, [2, 4, 5, 1]), True),
    # 2 * 3 * 7 pixels: packets of 8 and a tail of 2 for float32's fast reciprocal.
    "rgb_to_hsv": (lambda tf, x: tf.image.rgb_to_hsv(x), _image(58, [2, 3, 7, 3]), True),
    "rgb_to_hsv_float64": (lambda tf, x: tf.image.rgb_to_hsv(x),
                           _image(59, [5, 3, 3], np.float64), True),
    "hsv_round_trip": (lambda tf, x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)),
                       _image(60, [3, 5, 3]), False),
    "hsv_to_rgb": (lambda tf, x: tf.image.hsv_to_rgb(x), _image(61, [2, 4, 5, 3]), False),
    "adjust_gamma": (lambda tf, x: tf.image.adjust_gamma(x, 0.7, gain=1.3),
                     _image(62, [2, 3, 4, 3]), True),
    "adjust_brightness": (lambda tf, x: tf.image.adjust_brightness(x, 0.2),
                          _image(33, [2, 3, 4, 3]), True),
    "adjust_contrast": (lambda tf, x: tf.image.adjust_contrast(x, 1.7),
                        _image(34, [2, 5, 7, 3]), False),
    "adjust_contrast_odd": (lambda tf, x: tf.image.adjust_contrast(x, 0.4),
                            _image(35, [3, 11, 2]), False),
    "adjust_saturation": (lambda tf, x: tf.image.adjust_saturation(x, 1.8),
                          _image(36, [2, 6, 7, 3]), False),
    "adjust_saturation_low": (lambda tf, x: tf.image.adjust_saturation(x, 0.3),
                              _image(37, [5, 9, 3]), False),
    "adjust_hue": (lambda tf, x: tf.image.adjust_hue(x, 0.3), _image(38, [2, 6, 7, 3]),
                   False),
    "adjust_hue_negative": (lambda tf, x: tf.image.adjust_hue(x, -0.45),
                            _image(39, [5, 9, 3]), False),
    "random_brightness": (lambda tf, x: tf.image.random_brightness(x, 0.3, seed=11),
                          _image(40, [4, 5, 3]), True),
    "random_contrast": (lambda tf, x: tf.image.random_contrast(x, 0.2, 1.8, seed=12),
                        _image(41, [4, 5, 3]), False),
    "random_saturation_hue": (lambda tf, x: tf.image.random_hue(
                                  tf.image.random_saturation(x, 0.5, 1.5, seed=13), 0.2,
                                  seed=14), _image(42, [4, 5, 3]), False),
    # Measures.
    "total_variation_4d": (lambda tf, x: tf.image.total_variation(x),
                           _image(63, [2, 5, 6, 3]), True),
    "total_variation_3d": (lambda tf, x: tf.image.total_variation(x, name="tv"),
                           _image(64, [4, 5, 2], np.float64), True),
    "psnr": (lambda tf, x: tf.image.psnr(x, x * 0.9 + 0.05, max_val=1.0),
             _image(65, [2, 5, 6, 3]), True),
    "image_gradients": (lambda tf, x: tf.image.image_gradients(x), _image(66, [2, 4, 5, 3]),
                        True),
    "sobel_edges": (lambda tf, x: tf.image.sobel_edges(x), _image(67, [2, 5, 6, 3]), True),
    # Blocks of pixels into channels and back.
    "depth_to_space": (lambda tf, x: tf.nn.depth_to_space(x, 2), _image(43, [2, 3, 4, 8]),
                       True),
    "space_to_depth": (lambda tf, x: tf.space_to_depth(x, 3, name="s2d"),
                       _image(44, [2, 6, 3, 2], np.float64), True),
}

# Graph-level seeds for the cases whose random ops take the graph's seed too.
GRAPH_SEEDS = {"random_flip_up_down_4d": 1234, "random_crop": 99}


def build_case(tf, name, cases=None, graph_seeds=None):
    """(feed dict, outputs, loss, gradients w.r.t. x or []) in the default graph."""
    build, x_value, differentiable = (cases or CASES)[name]
    seeds = GRAPH_SEEDS if graph_seeds is None else graph_seeds
    if name in seeds:
        tf.set_random_seed(seeds[name])
    x = tf.placeholder(tf.as_dtype(x_value.dtype), x_value.shape, name="x")
    outputs = build(tf, x)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    loss = tf.add_n([tf.reduce_sum(tf.square(tf.cast(out, tf.float64))) for out in outputs])
    grads = tf.gradients(loss, [x]) if differentiable else []
    return {x: x_value}, outputs, loss, grads


def run_case(tf, name, cases=None, graph_seeds=None):
    """{"out<i>", "loss", "grad0"} and the outputs' static shapes."""
    with tf.Graph().as_default():
        feed, outputs, loss, grads = build_case(tf, name, cases, graph_seeds)
        with tf.Session() as sess:
            fetched = sess.run([outputs, loss, grads], feed)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    values = {f"out{i}": v for i, v in enumerate(fetched[0])}
    values["loss"] = fetched[1]
    values.update({f"grad{j}": v for j, v in enumerate(fetched[2])})
    return values, shapes


# Kernels that fail at run time: (raw op, inputs, attrs); the message is TensorFlow's.
_X4 = _image(50, [1, 4, 4, 3])
_SIZE = np.array([3, 3], np.int32)
ERROR_CASES = {
    "resize_align_and_half_pixel": ("ResizeBilinear", dict(images=_X4, size=_SIZE),
                                    dict(align_corners=True, half_pixel_centers=True)),
    "resize_size_zero": ("ResizeBilinear", dict(images=_X4, size=np.array([0, 3], np.int32)),
                         {}),
    "resize_rank3": ("ResizeNearestNeighbor", dict(images=_X4[0], size=_SIZE), {}),
    "resize_three_sizes": ("ResizeBicubic", dict(images=_X4,
                                                 size=np.array([3, 3, 3], np.int32)), {}),
    "depth_to_space_depth": ("DepthToSpace", dict(input=_X4), dict(block_size=2)),
    "space_to_depth_size": ("SpaceToDepth", dict(input=_image(51, [1, 5, 4, 3])),
                            dict(block_size=2)),
    "hue_four_channels": ("AdjustHue", dict(images=_image(52, [1, 4, 4, 4]),
                                            delta=np.float32(0.1)), {}),
    "saturation_four_channels": ("AdjustSaturation", dict(images=_image(53, [1, 4, 4, 4]),
                                                          scale=np.float32(0.1)), {}),
    "contrast_rank2": ("AdjustContrastv2", dict(images=_image(54, [4, 4]),
                                                contrast_factor=np.float32(0.1)), {}),
}


def kernel_message(message):
    """The kernel's own words in a session's error message: the line after "Node: ..."."""
    lines = message.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1]


def run_error_case(tf, name, cases=None):
    """The error (class name, kernel message) running the raw op of ERROR_CASES[name] gives;
    its inputs fed through placeholders of unknown shape so that only the kernel can fail."""
    op, values, attrs = (cases or ERROR_CASES)[name]
    with tf.Graph().as_default():
        feeds = {key: tf.placeholder(tf.as_dtype(value.dtype), None)
                 for key, value in values.items()}
        out = getattr(tf.raw_ops, op)(**feeds, **attrs)
        with tf.Session() as sess:
            try:
                sess.run(out, {feeds[key]: value for key, value in values.items()})
            except tf.errors.OpError as error:
                return type(error).__name__, kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
