"""ScaleAndTranslate (tf.image.resize with antialias=True, or its lanczos3/5, gaussian and
mitchellcubic methods) and its gradient, against TensorFlow's (tests/fixtures/tf2_models/
expected.npz `scale/<case>`, tools/make_tf2_model_fixtures.py's SCALE_CASES): every kernel,
down- and upscaling, with and without antialias, translated."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import SCALE_CASES, SCALE_IMAGE, ragged_weights  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


@pytest.mark.parametrize("case", SCALE_CASES)
def test_resized_like_tensorflow(case):
    size, scale, translation, kind, antialias, grad = SCALE_CASES[case]
    want = EXPECTED[f"scale/{case}"]
    with tf.Graph().as_default():
        image = tf.constant(SCALE_IMAGE)
        out = tf.raw_ops.ScaleAndTranslate(
            images=image, size=np.array(size, np.int32), scale=np.array(scale, np.float32),
            translation=np.array(translation, np.float32), kernel_type=kind,
            antialias=antialias)
        assert out.shape.as_list() == list(want.shape)
        fetches = {"out": out}
        if grad:
            loss = tf.reduce_sum(out * ragged_weights(want.shape, np.float32))
            fetches["grad"] = tf.gradients(loss, image)[0]
        with tf.Session() as sess:
            got = sess.run(fetches)
    assert got["out"].dtype == np.float32
    np.testing.assert_allclose(got["out"], want, rtol=1e-5, atol=1e-4)
    if grad:  # TensorFlow sums the transposed spans in its own order
        np.testing.assert_allclose(got["grad"], EXPECTED[f"scale/{case}/grad"], rtol=1e-5,
                                   atol=1e-5)
