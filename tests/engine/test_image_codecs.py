"""The image codecs against TensorFlow 2.21 (tf.compat.v1): decoded pixels and encoded bytes
bit for bit, static shapes, graphs node for node and the kernels' errors
(tests/engine/image_codec_cases.py; fixtures and input files by
tools/make_image_codec_fixtures.py). Outputs larger than the fixture keeps whole are compared
through a SHA-256 of their dtype, shape and bytes."""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import image_codec_cases as cases  # noqa: E402
import tf_fixture_set  # noqa: E402

TF = tf_fixture_set.load("image_codecs")
DIGESTS = json.loads((TF.folder / "digests.json").read_text())


def _digest(array):
    array = np.ascontiguousarray(array)
    text = f"{array.dtype.str}{list(array.shape)}".encode()
    return hashlib.sha256(text + array.tobytes()).hexdigest()


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_are_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    prefix = name + "__"
    expected = {key[len(prefix):] for key in list(TF.values.files) + list(DIGESTS)
                if key.startswith(prefix)}
    assert set(values) == expected
    for key, value in values.items():
        full = prefix + key
        if full in DIGESTS:
            assert _digest(value) == DIGESTS[full], f"{key}: {value.dtype} {value.shape}"
        else:
            want = TF.values[full]
            assert value.dtype == want.dtype and value.shape == want.shape, key
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_are_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF.nodes[name]


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_engine_import_leaves_pillow_unloaded():
    import subprocess
    code = "import sys, engine; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_missing_pillow_is_an_engine_error_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with tf.Graph().as_default():
        contents = tf.placeholder(tf.string, [])
        decoded = tf.image.decode_jpeg(contents)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.UnimplementedError, match=r"Pillow .*pillow>=10"):
                sess.run(decoded, {contents: cases.read_input("rgb420.jpg")})


def test_recovering_a_truncated_jpeg_says_it_is_not_supported():
    # TensorFlow decodes the cut file with the missing rows filled by its libjpeg-turbo's
    # recovery; the engine's decoder fills them otherwise, so it says so instead.
    with tf.Graph().as_default():
        contents = tf.placeholder(tf.string, [])
        decoded = tf.image.decode_jpeg(contents, try_recover_truncated=True)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.UnimplementedError, match="try_recover_truncated"):
                sess.run(decoded, {contents: cases.read_input("truncated.jpg")})


def test_an_idct_and_upsampling_pillow_cannot_pair_says_it_is_not_supported():
    # The accurate IDCT without fancy upsampling of 4:2:2 chroma at full size: Pillow's
    # decoder pairs them otherwise and the planes cannot be had apart (jpeg_codec.py).
    with tf.Graph().as_default():
        contents = tf.placeholder(tf.string, [])
        decoded = tf.image.decode_jpeg(contents, dct_method="INTEGER_ACCURATE",
                                       fancy_upscaling=False)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.UnimplementedError, match=r"2x1, 1x1, 1x1"):
                sess.run(decoded, {contents: cases.read_input("rgb422.jpg")})
