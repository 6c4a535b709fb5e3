"""ImageProjectiveTransformV2/V3 (what Keras's RandomRotation, RandomZoom, RandomTranslation
and RandomShear run), built the same way by real TensorFlow (tf.raw_ops in TF1 graph mode)
and the engine: CASES (values), GRADIENT_CASES (the images' gradient of the sum of the
output times a fixed weight) and ERROR_CASES (the kernel's checks, through placeholders of
unknown shape). tools/make_projective_fixtures.py writes TensorFlow's results to
tests/fixtures/ops/projective_transform.npz; tests/engine/test_projective_transform.py
compares."""

import numpy as np

_ROTATE = [0.8, -0.6, 3.1, 0.6, 0.8, -1.2, 0.0, 0.0]     # about 37 degrees, shifted
_ZOOM_OUT = [1.7, 0.0, -2.5, 0.0, 1.4, -1.0, 0.0, 0.0]   # reads well past the edges
_PROJECTIVE = [0.9, 0.2, 0.5, -0.1, 1.1, 0.3, 0.02, -0.03]


def images(shape, dtype=np.float32, seed=0):
    values = np.random.RandomState(seed).uniform(0, 10, shape)
    return values.astype(dtype)


# name: (version, images, transforms, output shape, interpolation, fill_mode, fill value)
CASES = {
    f"{interpolation.lower()}_{mode.lower()}": (
        3, images([2, 5, 6, 2]), np.array([_ROTATE, _ZOOM_OUT], np.float32), [5, 6],
        interpolation, mode, 1.5)
    for interpolation in ("NEAREST", "BILINEAR")
    for mode in ("REFLECT", "WRAP", "CONSTANT", "NEAREST")
}
CASES.update({
    "projective_one_transform_bigger": (3, images([2, 4, 5, 1], seed=1),
                                        np.array([_PROJECTIVE], np.float32), [7, 3],
                                        "BILINEAR", "REFLECT", 0.0),
    "v2_constant_uint8": (2, images([1, 5, 5, 3], np.uint8, 2),
                          np.array([_ROTATE], np.float32), [5, 5], "BILINEAR", "CONSTANT", None),
    "v2_nearest_float64": (2, images([1, 4, 4, 1], np.float64, 3),
                           np.array([_ZOOM_OUT], np.float32), [4, 4], "NEAREST", "WRAP", None),
    "half_rows_of_one": (3, images([1, 1, 4, 1], np.float16, 4),
                         np.array([_ZOOM_OUT], np.float32), [2, 4], "BILINEAR", "REFLECT", 2.0),
})

GRADIENT_CASES = ("bilinear_reflect", "nearest_constant", "v2_nearest_float64")

ERROR_CASES = {
    "rank_3": (images([5, 6, 2]), np.zeros([1, 8], np.float32), np.array([5, 6], np.int32)),
    "transform_of_7": (images([1, 5, 6, 2]), np.zeros([1, 7], np.float32),
                       np.array([5, 6], np.int32)),
    "transforms_for_3_images": (images([2, 5, 6, 2]), np.zeros([3, 8], np.float32),
                                np.array([5, 6], np.int32)),
    "shape_of_3": (images([1, 5, 6, 2]), np.zeros([1, 8], np.float32),
                   np.array([5, 6, 1], np.int32)),
    "zero_height": (images([1, 5, 6, 2]), np.zeros([1, 8], np.float32),
                    np.array([0, 6], np.int32)),
}


def build(tf, name, feed_shapes=True):
    """(output, feed dict, images placeholder) of CASES[name]."""
    version, image_values, transforms, shape, interpolation, mode, fill = CASES[name]
    x = tf.placeholder(tf.as_dtype(image_values.dtype),
                       image_values.shape if feed_shapes else None)
    args = dict(images=x, transforms=transforms, output_shape=np.array(shape, np.int32),
                interpolation=interpolation, fill_mode=mode)
    if version == 3:
        out = tf.raw_ops.ImageProjectiveTransformV3(fill_value=np.float32(fill), **args)
    else:
        out = tf.raw_ops.ImageProjectiveTransformV2(**args)
    return out, {x: image_values}, x


def run_case(tf, name):
    with tf.Graph().as_default():
        out, feed, _ = build(tf, name)
        with tf.Session() as sess:
            return sess.run(out, feed), out.shape.as_list()


def run_gradient_case(tf, name):
    with tf.Graph().as_default():
        out, feed, x = build(tf, name)
        weight = np.random.RandomState(9).uniform(-1, 1, out.shape.as_list())
        loss = tf.reduce_sum(tf.cast(out, tf.float64) * weight)
        [grad] = tf.gradients(loss, [x])
        with tf.Session() as sess:
            return sess.run(grad, feed)


def kernel_message(message):
    lines = message.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1]


def run_error_case(tf, name):
    values = ERROR_CASES[name]
    with tf.Graph().as_default():
        feeds = [tf.placeholder(tf.as_dtype(v.dtype), None) for v in values]
        out = tf.raw_ops.ImageProjectiveTransformV3(
            images=feeds[0], transforms=feeds[1], output_shape=feeds[2],
            fill_value=np.float32(0), interpolation="BILINEAR", fill_mode="REFLECT")
        with tf.Session() as sess:
            try:
                sess.run(out, dict(zip(feeds, values)))
            except tf.errors.OpError as error:
                return type(error).__name__, kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
