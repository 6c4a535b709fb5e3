"""ImageProjectiveTransformV2/V3 (a Keras model with RandomRotation or RandomZoom, exported,
failed: 'Op type not registered') against TensorFlow 2.21: every interpolation and fill mode,
one transform for a batch, a projective one, uint8, float64 and float16 images, the static
shape, the images' gradient and the kernel's errors (tests/engine/
projective_transform_cases.py; fixtures by tools/make_projective_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import projective_transform_cases as cases  # noqa: E402

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "projective_transform.npz")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_static_shapes_are_tensorflows(name):
    value, shape = cases.run_case(tf, name)
    want = FIXTURE[f"value__{name}"]
    assert value.dtype == want.dtype and value.shape == want.shape
    # float32 arithmetic in TensorFlow's order: the same values
    np.testing.assert_array_equal(value, want)
    assert [-1 if d is None else d for d in shape] == FIXTURE[f"shape__{name}"].tolist()


@pytest.mark.parametrize("name", cases.GRADIENT_CASES)
def test_the_images_gradient_is_tensorflows(name):
    grad = cases.run_gradient_case(tf, name)
    want = FIXTURE[f"grad__{name}"]
    assert grad.dtype == want.dtype and grad.shape == want.shape
    np.testing.assert_allclose(grad, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == FIXTURE[f"error__{name}"].tolist()
