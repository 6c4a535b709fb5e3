"""Numeric-gradient cases for the image, spatial and 3-D ops, merged into
test_gradients.CASES (same format: name -> (function of the input tensors, input values[,
placeholder shapes])). The float32-only ones (MaxPool3D and its gradients) and those with
float32 outputs (ResizeBilinear, ResizeBicubic) have no float64 finite differences: their
gradients equal TensorFlow's in tests/engine/test_image_ops.py and test_volumetric_ops.py."""

import numpy as np

import engine as tf
from engine.ops.op_def_library import apply_op

_RNG = np.random.RandomState(27)


def _rand(*shape):
    return _RNG.uniform(-1.0, 1.0, size=shape)


def _unit(*shape):
    """Colours in (0.05, 0.95), no two channels of a pixel near each other (RGBToHSV's
    branches stay put under a small step)."""
    values = _RNG.permutation(int(np.prod(shape))).reshape(shape) / np.prod(shape)
    return 0.05 + 0.9 * values


_CONV = dict(strides=[1, 1, 1, 1, 1], padding="SAME")
_POOL = dict(ksize=[1, 2, 2, 2, 1], strides=[1, 1, 2, 1, 1], padding="SAME")

CASES = {
    "ResizeNearestNeighbor": (lambda x: tf.image.resize_nearest_neighbor(x, [5, 3]),
                              [_rand(1, 3, 4, 2)]),
    "DepthToSpace": (lambda x: tf.nn.depth_to_space(x, 2), [_rand(1, 2, 3, 8)]),
    "SpaceToDepth": (lambda x: tf.nn.space_to_depth(x, 2), [_rand(2, 4, 2, 3)]),
    "RGBToHSV": (lambda x: tf.image.rgb_to_hsv(x), [_unit(2, 3, 3)]),
    "Conv3D": (lambda x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"),
               [_rand(1, 3, 4, 3, 2), _rand(2, 2, 2, 2, 3)]),
    "Conv3DBackpropInputV2": (
        lambda w, dy: apply_op("Conv3DBackpropInputV2", input_sizes=[1, 3, 3, 2, 2],
                               filter=w, out_backprop=dy, **_CONV),
        [_rand(2, 2, 2, 2, 3), _rand(1, 3, 3, 2, 3)]),
    "Conv3DBackpropFilterV2": (
        lambda x, dy: apply_op("Conv3DBackpropFilterV2", input=x,
                               filter_sizes=[2, 2, 1, 2, 3], out_backprop=dy, **_CONV),
        [_rand(1, 3, 3, 2, 2), _rand(1, 3, 3, 2, 3)]),
    "AvgPool3D": (lambda x: tf.nn.avg_pool3d(x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
                  [_rand(1, 3, 4, 3, 2)]),
    "AvgPool3DGrad": (lambda dy: apply_op("AvgPool3DGrad", orig_input_shape=[1, 3, 4, 3, 2],
                                          grad=dy, **_POOL),
                      [_rand(1, 3, 2, 3, 2)]),
}

# No float64 finite differences (see above).
EXEMPT = {"ResizeBilinear", "ResizeBicubic", "MaxPool3D", "MaxPool3DGrad",
          "MaxPool3DGradGrad",
          # float32 crops and boxes whatever the image: TensorFlow's bits in
          # tests/engine/test_crop_and_resize.py
          "CropAndResize"}
