"""tf.image.decode_webp / tf.io.decode_webp and WebP through the other decoders
(decode_image, decode_png, ...), built the same way by real TensorFlow and the engine:
values, static shapes, graph nodes, the kernels' errors and the shape function's.
tools/make_webp_fixtures.py writes the WebP files (Pillow's encoder) and TensorFlow's
results to tests/fixtures/webp/; tests/engine/test_webp.py compares the engine's."""

from pathlib import Path

import numpy as np

FILES = Path(__file__).resolve().parents[1] / "fixtures" / "webp"


def encode_files():
    """{name: WebP bytes}: lossy and lossless, with and without alpha, an animation with
    alpha (TensorFlow 2.21 crashes on one without)."""
    import io

    from PIL import Image
    r = np.random.RandomState(0)

    def still(shape, **kwargs):
        out = io.BytesIO()
        Image.fromarray(r.randint(0, 256, shape).astype(np.uint8)).save(out, "WEBP", **kwargs)
        return out.getvalue()

    files = {"lossy": still((7, 9, 3), quality=80), "lossless": still((7, 9, 3), lossless=True),
             "lossy_alpha": still((6, 5, 4), quality=70),
             "lossless_alpha": still((6, 5, 4), lossless=True),
             "gradient_lossy": still((16, 12, 3), quality=30)}
    frames = [Image.fromarray(r.randint(0, 256, (4, 6, 4)).astype(np.uint8)) for _ in range(3)]
    out = io.BytesIO()
    frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], quality=60,
                   duration=50)
    files["animated_alpha"] = out.getvalue()
    return files


def _file(name):
    return (FILES / f"{name}.webp").read_bytes()


def _webp(file, **kwargs):
    return lambda tf: tf.image.decode_webp(_file(file), **kwargs)


def _via(fn, file, **kwargs):
    return lambda tf: getattr(tf.image, fn)(_file(file), **kwargs)


CASES = {
    "lossy": _webp("lossy"),
    "lossy_3": _webp("lossy", channels=3, name="webp"),
    "lossless": _webp("lossless"),
    "lossy_alpha": _webp("lossy_alpha"),
    "lossy_alpha_4": _webp("lossy_alpha", channels=4),
    "lossless_alpha": _webp("lossless_alpha"),
    "gradient_lossy": _webp("gradient_lossy"),
    "animated_alpha": _webp("animated_alpha"),
    "io_namespace": lambda tf: tf.io.decode_webp(_file("lossless"), name="w"),
    "decode_image": _via("decode_image", "lossy_alpha"),
    "decode_image_first_frame": _via("decode_image", "animated_alpha",
                                     expand_animations=False),
    "decode_image_still_unexpanded": _via("decode_image", "lossless", expand_animations=False),
    "decode_image_animated": _via("decode_image", "animated_alpha", channels=4),
    "decode_png_of_webp": _via("decode_png", "lossy"),
    "decode_jpeg_of_webp": _via("decode_jpeg", "lossless_alpha"),
    "decode_gif_of_webp": _via("decode_gif", "lossless"),
    "decode_bmp_of_webp": _via("decode_bmp", "lossy"),
    "decode_and_crop_jpeg_of_webp": lambda tf: tf.image.decode_and_crop_jpeg(
        _file("lossy"), [0, 0, 2, 2]),
}


def build_case(tf, name):
    return [CASES[name](tf)]


def run_case(tf, name):
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run(outputs)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    return {f"out{i}": np.asarray(v) for i, v in enumerate(fetched)}, shapes


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ERROR_CASES = {
    "channels_1": _webp("lossy", channels=1),
    "channels_2": _webp("lossy", channels=2),
    "channels_4_of_rgb": _webp("lossless", channels=4),
    "channels_3_of_rgba": _webp("lossy_alpha", channels=3),
    "empty": lambda tf: tf.image.decode_webp(b""),
    "bad_header": lambda tf: tf.image.decode_webp(b"RIFF\x10\x00\x00\x00WEBPVP8 xxxxxxxx"),
    "truncated": lambda tf: tf.image.decode_webp(_file("lossy")[:60]),
    "riff_without_vp8": lambda tf: tf.image.decode_webp(b"RIFF\x00\x00\x00\x00WEBP"),
    "text": lambda tf: tf.image.decode_webp(b"hello world, not an image"),
    "bad_png": lambda tf: tf.image.decode_webp(_PNG_SIGNATURE + b"xxxx"),
    "gif_through_webp": lambda tf: tf.image.decode_webp(b"GIF89a" + b"\x00" * 20),
    "decode_image_float32": lambda tf: tf.image.decode_image(_file("lossy"), dtype=tf.float32),
    "decode_image_channels_1": _via("decode_image", "lossy", channels=1),
    "decode_gif_of_animated_alpha": _via("decode_gif", "animated_alpha"),
}


def _kernel_message(message):
    lines = message.splitlines()
    index = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
    return lines[index + 1] if index is not None else lines[0]


def run_error_case(tf, name):
    with tf.Graph().as_default():
        out = ERROR_CASES[name](tf)
        with tf.Session() as sess:
            try:
                sess.run(out)
            except tf.errors.OpError as error:
                return type(error).__name__, _kernel_message(error.message)
    raise AssertionError(f"{name}: no error")


PYTHON_ERRORS = {
    "negative_channels": _webp("lossy", channels=-1),
    "vector_contents": lambda tf: tf.image.decode_webp([_file("lossy")] * 2),
    "float32_dtype": lambda tf: tf.image.decode_webp(_file("lossy"), dtype=tf.float32),
}


def python_errors(tf):
    found = {}
    for name, build in PYTHON_ERRORS.items():
        with tf.Graph().as_default():
            try:
                build(tf)
            except (ValueError, TypeError) as error:
                kind = "TypeError" if isinstance(error, TypeError) else "ValueError"
                found[name] = [kind, str(error).split(" for '{{node")[0]]
            else:
                found[name] = None
    return found
