"""tf.image's YIQ/YUV, SSIM and MS-SSIM, resize_image_with_pad, draw_bounding_boxes and the
non-max suppressions with scores and overlaps against TensorFlow 2.21 (tf.compat.v1):
values, gradients, static shapes, graphs node for node and kernel errors
(tests/engine/image_box_and_measure_cases.py; fixtures by
tools/make_image_box_and_measure_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import image_box_and_measure_cases as cases  # noqa: E402
import tf_fixture_set  # noqa: E402

TF = tf_fixture_set.load("image_box_and_measure")
# The colour matrices are tensordots (a MatMul of 3-term sums) and SSIM sums Gaussian windows
# with a depthwise convolution, then means: NumPy's summation order, not Eigen's. The
# tolerance is tests/engine/test_conv_norm_ops.py's for convolutions; the loss (a float64 sum
# of squares of those outputs) is held to it too.
SUMMED_CASES = {"rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb_float64", "ssim",
                "ssim_index_map", "ssim_uint8", "ssim_multiscale"}
SUM_TOLERANCE = dict(rtol=2e-5, atol=2e-6)
# Every case's loss is a float64 sum in NumPy's order: within an ulp or two of Eigen's.
LOSS_TOLERANCE = dict(rtol=1e-15, atol=0)
# Graphs that differ from TensorFlow's outside the new ops: TensorFlow's shape inference runs
# small constant subgraphs (the Cast, RealDiv, Floor of resize_image_with_pad's new size), so
# it knows the resized image's height and width where the engine does not, and its Prod
# gradient reads a transpose's shape as a Const (MS-SSIM's reduce_prod).
GRAPH_DIFFERS = {"resize_image_with_pad_3d", "resize_image_with_pad_4d", "ssim_multiscale"}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype, key
        assert value.shape == want.shape, key
        noisy = cases.NOISY_COLUMNS.get(name)
        if noisy is not None:
            if key == "out0":
                # The image's part is TensorFlow's; the rest noise within the image's range.
                kept = np.ones(value.shape[2], bool)
                kept[noisy] = False
                np.testing.assert_array_equal(value[:, :, kept], want[:, :, kept])
                x = cases.CASES[name][1]
                assert x.min() <= value[:, :, noisy].min()
                assert value[:, :, noisy].max() <= x.max()
            continue
        if name in SUMMED_CASES:
            np.testing.assert_allclose(value, want, err_msg=key, **SUM_TOLERANCE)
        elif key == "loss":
            np.testing.assert_allclose(value, want, err_msg=key, **LOSS_TOLERANCE)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", [name for name in cases.CASES if name not in GRAPH_DIFFERS])
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)
