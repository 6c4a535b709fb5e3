"""tf.image.crop_and_resize (CropAndResize and its gradients CropAndResizeGradImage and
CropAndResizeGradBoxes), built the same way by real TensorFlow and the engine, in
tests/engine/image_cases.py's form (`build(tf, x)`, x, differentiable): the crops, the
gradient of their sum of squares with respect to x (the image, or the boxes), static shapes,
graph nodes, and the kernels' errors. tools/make_crop_and_resize_fixtures.py writes
TensorFlow's to tests/fixtures/crop_and_resize/; tests/engine/test_crop_and_resize.py
compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(3)
IMAGE = _R.uniform(-1.0, 1.0, (2, 6, 7, 3)).astype(np.float32)
# Inside, partly outside (extrapolated), upside down, a line, a point.
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.3, 0.6, 1.3], [0.9, 0.7, 0.2, 0.1],
                  [0.5, 0.0, 0.5, 1.0], [0.25, 0.5, 0.25, 0.5]], np.float32)
BOX_IND = np.array([0, 1, 1, 0, 1], np.int32)


def _crop(**kwargs):
    def build(tf, x):
        return tf.image.crop_and_resize(x, tf.constant(BOXES), tf.constant(BOX_IND),
                                        **kwargs)
    return build


def _crop_boxes(image=IMAGE, **kwargs):
    def build(tf, x):
        return tf.image.crop_and_resize(tf.constant(image), x, tf.constant(BOX_IND), **kwargs)
    return build


CASES = {
    "bilinear": (_crop(crop_size=[4, 5]), IMAGE, True),
    "nearest_extrapolated": (_crop(crop_size=[5, 3], method="nearest", extrapolation_value=-1.0,
                                   name="crops"), IMAGE, True),
    "one_row": (_crop(crop_size=[1, 4]), IMAGE, True),
    "one_pixel_nearest": (_crop(crop_size=[1, 1], method="nearest"), IMAGE, True),
    "float64_image": (_crop(crop_size=[3, 3]), IMAGE.astype(np.float64), True),
    "unknown_image_shape": (lambda tf, x: tf.image.crop_and_resize(
                                tf.placeholder_with_default(x, None), BOXES, BOX_IND, [2, 3]),
                            IMAGE, True),
    "box_indices_keyword": (lambda tf, x: tf.image.crop_and_resize(
                                x, BOXES, crop_size=[3, 2], box_indices=BOX_IND), IMAGE, True),
    "boxes_bilinear": (_crop_boxes(crop_size=[4, 3]), BOXES, True),
    "boxes_nearest": (_crop_boxes(crop_size=[3, 4], method="nearest"), BOXES, True),
    "boxes_one_pixel": (_crop_boxes(crop_size=[1, 1]), BOXES, True),
    "boxes_of_uint8": (_crop_boxes(image=(IMAGE * 100 + 120).astype(np.uint8),
                                   crop_size=[3, 3]), BOXES, True),
}


def build_case(tf, name):
    return image_cases.build_case(tf, name, CASES, {})


def run_case(tf, name):
    return image_cases.run_case(tf, name, CASES, {})


_CROP = dict(image=IMAGE, boxes=BOXES, box_ind=BOX_IND, crop_size=np.array([2, 2], np.int32))
_GRADS = np.ones((5, 2, 2, 3), np.float32)
ERROR_CASES = {
    "index_out_of_range": ("CropAndResize", dict(_CROP, box_ind=np.array([0, 1, 2, 0, 1],
                                                                         np.int32)), {}),
    "negative_index": ("CropAndResize", dict(_CROP, box_ind=np.array([0, -1, 0, 0, 1],
                                                                     np.int32)), {}),
    "crop_size_zero": ("CropAndResize", dict(_CROP, crop_size=np.array([0, 2], np.int32)), {}),
    "crop_size_three": ("CropAndResize", dict(_CROP, crop_size=np.array([2, 2, 2], np.int32)),
                        {}),
    "boxes_three_columns": ("CropAndResize", dict(_CROP, boxes=BOXES[:, :3]), {}),
    "boxes_not_finite": ("CropAndResize", dict(_CROP, boxes=np.where(
        np.arange(20).reshape(5, 4) == 9, np.float32(np.nan), BOXES)), {}),
    "box_ind_length": ("CropAndResize", dict(_CROP, box_ind=BOX_IND[:4]), {}),
    "image_rank3": ("CropAndResize", dict(_CROP, image=IMAGE[0]), {}),
    "image_empty": ("CropAndResize", dict(_CROP, image=IMAGE[:, :0]), {}),
    "grad_image_size": ("CropAndResizeGradImage", dict(grads=_GRADS, boxes=BOXES,
                                                       box_ind=BOX_IND,
                                                       image_size=np.array([2, 6, 7],
                                                                           np.int32)),
                        dict(T=np.float32)),
    "grad_image_depth": ("CropAndResizeGradImage", dict(grads=_GRADS, boxes=BOXES,
                                                        box_ind=BOX_IND,
                                                        image_size=np.array([2, 6, 7, 4],
                                                                            np.int32)),
                         dict(T=np.float32)),
    "grad_image_index": ("CropAndResizeGradImage", dict(grads=_GRADS, boxes=BOXES,
                                                        box_ind=BOX_IND + 1,
                                                        image_size=np.array([2, 6, 7, 3],
                                                                            np.int32)),
                         dict(T=np.float32)),
    "grad_boxes_depth": ("CropAndResizeGradBoxes", dict(grads=_GRADS, image=IMAGE[..., :2],
                                                        boxes=BOXES, box_ind=BOX_IND), {}),
    "grad_boxes_count": ("CropAndResizeGradBoxes", dict(grads=_GRADS[:4], image=IMAGE,
                                                        boxes=BOXES, box_ind=BOX_IND), {}),
}


def run_error_case(tf, name):
    op, values, attrs = ERROR_CASES[name]
    attrs = {key: tf.as_dtype(value) if key == "T" else value for key, value in attrs.items()}
    return image_cases.run_error_case(tf, name, {name: (op, values, attrs)})
