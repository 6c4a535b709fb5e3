"""tf.image.decode_webp / tf.io.decode_webp and WebP through the other decoders
(tests/engine/webp_cases.py) against TensorFlow 2.21 (tf.compat.v1): pixels bit for bit
(lossy and lossless, alpha, an animation's frames), static shapes, graphs node for node, the
kernels' errors and the shape function's (fixtures by tools/make_webp_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import webp_cases as cases  # noqa: E402

TF = tf_fixture_set.load("webp")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_pixels_and_shapes_are_tensorflows(name):
    tf_fixture_set.assert_values_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_shape_function_errors_are_tensorflows():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want


def test_an_animation_without_alpha_gives_rgb_frames():
    """TensorFlow 2.21 crashes the process on one (free(): invalid size: it copies RGBA
    canvases into a 3-channel buffer); the engine gives each frame's RGB, as a still without
    alpha. The frames are the colours encoded (lossless)."""
    import io

    from PIL import Image
    frames = np.random.RandomState(1).randint(0, 256, (3, 4, 6, 3)).astype(np.uint8)
    out = io.BytesIO()
    images = [Image.fromarray(f) for f in frames]
    images[0].save(out, "WEBP", save_all=True, append_images=images[1:], lossless=True,
                   duration=100)
    with tf.Graph().as_default(), tf.Session() as sess:
        decoded = sess.run(tf.image.decode_webp(out.getvalue()))
    np.testing.assert_array_equal(decoded, frames)
