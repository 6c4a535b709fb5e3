"""Write tests/fixtures/image_codecs/: the image codecs from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_image_codec_fixtures.py`.
First the input files (inputs/): JPEGs and PNGs TensorFlow encodes, and what TensorFlow does
not write (a CMYK JPEG, palette, 1-bit and tRNS PNGs, GIFs) by Pillow, an Adam7-interlaced PNG
and BMPs put together here, and broken files cut or damaged from those. Then the graphs of
tests/engine/image_codec_cases.py, built with tensorflow.compat.v1: values.npz (per case
`<case>__out<i>`, encoded bytes as `<case>__out<i>_bytes` uint8; digests.json holds the
larger ones' SHA-256 instead), shapes.json (static shapes), nodes.json.gz (the graphs' nodes), errors.json (error class and kernel message).
"""

import io
import json
import struct
import zlib

import numpy as np

from fixture_common import FIXTURES, gzip_bytes, node_list, nodes_json, tf_v1

import image_codec_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "image_codecs"
# Larger outputs are kept as digests of their dtype, shape and bytes (the fixtures stay small;
# the tests compare them bit for bit all the same).
SMALL = 400


def digest(array):
    import hashlib
    array = np.ascontiguousarray(array)
    text = f"{array.dtype.str}{list(array.shape)}".encode()
    return hashlib.sha256(text + array.tobytes()).hexdigest()


def _png_chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload)))


def interlaced_png(image):
    """An Adam7 RGB PNG of `image`, every row unfiltered (Pillow writes no interlaced PNG)."""
    height, width, _ = image.shape
    raw = bytearray()
    for row0, col0, row_step, col_step in ((0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4),
                                           (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2),
                                           (1, 0, 2, 1)):
        part = image[row0::row_step, col0::col_step]
        if part.size:
            for row in part:
                raw += b"\0" + row.tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(bytes(raw))) + _png_chunk(b"IEND", b""))


def bmp(pixels, top_down=False):
    """An uncompressed BMP (BITMAPINFOHEADER) of [h, w, 1|3|4] pixels, stored as BGR(A)."""
    height, width, channels = pixels.shape
    row_size = (channels * width + 3) // 4 * 4
    rows = pixels[..., ::-1] if channels > 1 else pixels
    if channels == 4:
        rows = pixels[..., [2, 1, 0, 3]]
    rows = rows if top_down else rows[::-1]
    body = b"".join(row.tobytes().ljust(row_size, b"\0") for row in rows)
    info = struct.pack("<IiiHHIIiiII", 40, width, -height if top_down else height, 1,
                       channels * 8, 0, len(body), 2835, 2835, 0, 0)
    header = struct.pack("<2sIHHI", b"BM", 14 + len(info) + len(body), 0, 0, 14 + len(info))
    return header + info + body


def write_inputs(tf):
    from PIL import Image

    folder = OUT / "inputs"
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    with tf.Graph().as_default(), tf.Session() as sess:
        def jpeg(image, **options):
            return sess.run(tf.image.encode_jpeg(image, **options))

        def png(image):
            return sess.run(tf.image.encode_png(image))

        rgb = cases.smooth_image(37, 53, 3, 10)
        files["rgb420.jpg"] = jpeg(rgb, quality=90)
        files["rgb444.jpg"] = jpeg(rgb, quality=90, chroma_downsampling=False)
        files["rgb420_progressive.jpg"] = jpeg(cases.smooth_image(64, 48, 3, 11), quality=85,
                                               progressive=True, optimize_size=True)
        files["odd420.jpg"] = jpeg(cases.smooth_image(9, 17, 3, 12))
        files["tiny420.jpg"] = jpeg(cases.smooth_image(2, 3, 3, 13))
        files["gray.jpg"] = jpeg(cases.smooth_image(29, 31, 1, 14), quality=80)
        files["rgb8.png"] = png(cases.smooth_image(23, 31, 3, 15))
        files["rgba16.png"] = png(cases.smooth_image(13, 17, 4, 16, np.uint16))
        files["gray8.png"] = png(cases.smooth_image(11, 13, 1, 17))
        files["gray_alpha8.png"] = png(cases.smooth_image(11, 13, 2, 18))
        files["gray16.png"] = png(cases.smooth_image(9, 14, 1, 19, np.uint16))
    cmyk = Image.fromarray(cases.smooth_image(16, 24, 4, 20), "CMYK")
    files["cmyk.jpg"] = _save(cmyk, "JPEG", quality=90)
    files["rgb422.jpg"] = _save(Image.fromarray(cases.smooth_image(21, 30, 3, 34)), "JPEG",
                                quality=85, subsampling="4:2:2")
    palette_image = Image.fromarray(cases.smooth_image(12, 15, 3, 21)).quantize(12)
    files["palette.png"] = _save(palette_image, "PNG")
    files["palette_trns.png"] = _save(palette_image, "PNG", transparency=bytes(range(0, 240, 20)))
    files["gray1.png"] = _save(Image.fromarray(cases.smooth_image(9, 21, 1, 22)[..., 0])
                               .convert("1"), "PNG")
    gray = cases.smooth_image(10, 12, 1, 23)[..., 0]
    files["gray_trns.png"] = _save(Image.fromarray(gray), "PNG", transparency=int(gray[3, 4]))
    rgb_small = cases.smooth_image(10, 12, 3, 24)
    files["rgb_trns.png"] = _save(Image.fromarray(rgb_small), "PNG",
                                  transparency=tuple(int(v) for v in rgb_small[2, 5]))
    files["interlaced.png"] = interlaced_png(cases.smooth_image(11, 13, 3, 25))
    frames = [Image.fromarray(cases.smooth_image(10, 12, 3, 26 + k)).quantize(16)
              for k in range(3)]
    base = np.asarray(frames[0].convert("RGB")).copy()
    moved = base.copy()
    moved[2:6, 3:9] = 255 - moved[2:6, 3:9]
    frames[1] = Image.fromarray(moved).quantize(16)  # differs from frame 0 in a box only
    files["animated.gif"] = _save(frames[0], "GIF", save_all=True, append_images=frames[1:],
                                  transparency=0, duration=100, loop=0)
    files["interlaced.gif"] = _save(Image.fromarray(cases.smooth_image(20, 9, 3, 30))
                                    .quantize(8), "GIF", interlace=True)
    files["single.gif"] = _save(frames[2], "GIF")
    small_frame = bytearray(_save(Image.fromarray(cases.smooth_image(6, 5, 3, 35)).quantize(8),
                                  "GIF"))
    small_frame[6:10] = struct.pack("<HH", 9, 11)  # a logical screen larger than the frame
    files["small_frame.gif"] = bytes(small_frame)
    files["rgb24.bmp"] = bmp(cases.smooth_image(5, 7, 3, 31))
    files["rgba32.bmp"] = bmp(cases.smooth_image(4, 3, 4, 32), top_down=True)
    files["gray8.bmp"] = bmp(cases.smooth_image(3, 6, 1, 33))
    files["truncated.jpg"] = files["rgb420.jpg"][:len(files["rgb420.jpg"]) * 3 // 5]
    sof = files["rgb444.jpg"].find(b"\xff\xc0")
    files["corrupt.jpg"] = files["rgb444.jpg"][:sof] + b"\xff\xc0\x00\x03\x08" + bytes(40)
    bad_crc = bytearray(files["gray8.png"])
    bad_crc[29] ^= 0xFF  # the IHDR's CRC
    files["bad_crc.png"] = bytes(bad_crc)
    files["truncated.png"] = files["rgb8.png"][:len(files["rgb8.png"]) // 2]
    files["truncated.gif"] = files["animated.gif"][:len(files["animated.gif"]) * 2 // 3]
    files["truncated.bmp"] = files["rgb24.bmp"][:-5]
    for name, data in files.items():
        (folder / name).write_bytes(data)
    print(f"wrote {len(files)} inputs ({sum(map(len, files.values()))} bytes) to {folder}")


def _save(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def main():
    tf = tf_v1()
    write_inputs(tf)
    values, shapes, nodes = {}, {}, {}
    for name in cases.CASES:
        case_values, shapes[name] = cases.run_case(tf, name)
        values.update({f"{name}__{key}": v for key, v in case_values.items()})
        with tf.Graph().as_default() as graph:
            cases.build_case(tf, name)
        nodes[name] = node_list(graph)
    small = {key: v for key, v in values.items() if v.size <= SMALL}
    np.savez_compressed(OUT / "values.npz", **small)
    digests = {key: digest(v) for key, v in values.items() if v.size > SMALL}
    (OUT / "digests.json").write_text(json.dumps(digests, indent=0) + "\n")
    lines = [f"{json.dumps(name)}: {json.dumps(value)}" for name, value in shapes.items()]
    (OUT / "shapes.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    errors = {name: list(cases.run_error_case(tf, name)) for name in cases.ERROR_CASES}
    (OUT / "errors.json").write_text(json.dumps(errors, indent=0) + "\n")
    print(f"wrote {len(cases.CASES)} cases and {len(errors)} errors to {OUT}")


if __name__ == "__main__":
    main()
