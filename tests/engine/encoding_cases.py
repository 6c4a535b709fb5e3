"""tf.io's encodings built the same way by TensorFlow and the engine: encode_base64 and
decode_base64 (web-safe alphabet, with and without padding), decode_compressed (ZLIB, GZIP,
none), serialize_tensor (TensorProto bytes) and parse_tensor, decode_json_example; values,
static shapes, node names, and the errors for bad input. Fixtures in
tests/fixtures/encoding/encoding.json (tools/make_encoding_fixtures.py)."""

import gzip
import zlib

import numpy as np

PLAIN = ["", "a", "ab", "abc", "abcd", "\xff\xfe\xfd?>~", "hello world, hello again"]
BINARY = [b"", b"\x00", b"\xfb\xff\xbf", bytes(range(256))]


def _bytes_constant(tf, values):
    return tf.constant(np.array(values, dtype=object))


def _gzip(data):
    return gzip.compress(data, mtime=0)


def _compressed(level):
    data = b"tensorflow " * 50 + bytes(range(256))
    return {"zlib": zlib.compress(data, level), "gzip": gzip.compress(data, level, mtime=0),
            "plain": data}


CASES = {
    "encode": lambda tf: {
        "plain": tf.io.encode_base64(PLAIN),
        "padded": tf.io.encode_base64(PLAIN, pad=True),
        "binary": tf.encode_base64(_bytes_constant(tf, BINARY), name="enc"),
        "matrix": tf.io.encode_base64([["ab", "c"], ["", "xyz"]], pad=True)},
    "decode": lambda tf: {
        "round_trip": tf.io.decode_base64(tf.io.encode_base64(_bytes_constant(tf, BINARY))),
        "padded": tf.io.decode_base64(tf.io.encode_base64(PLAIN, pad=True)),
        "web_safe": tf.decode_base64(["-_-_", "_w", "_w==", "AAA", "YQ", "YWI="], name="dec"),
        "scalar": tf.io.decode_base64("aGVsbG8")},
    "decompress": lambda tf: {
        "zlib": tf.io.decode_compressed([_compressed(6)["zlib"], _compressed(1)["zlib"]],
                                        compression_type="ZLIB"),
        "gzip": tf.decode_compressed([[_compressed(9)["gzip"]]], compression_type="GZIP",
                                     name="gunzip"),
        "none": tf.io.decode_compressed(_compressed(6)["plain"]),
        "empty_zlib": tf.io.decode_compressed(zlib.compress(b""), "ZLIB"),
        "truncated": tf.io.decode_compressed(_compressed(6)["zlib"][:20], "ZLIB"),
        "gzip_members": tf.io.decode_compressed(
            [_gzip(b"first ") + _gzip(b"second"), _gzip(b"1") + _gzip(b"2") + _gzip(b"3"),
             _gzip(b"whole ") + _gzip(b"cut short")[:10], b"", b"x"], "GZIP"),
        "zlib_streams": tf.io.decode_compressed(
            [zlib.compress(b"one") + zlib.compress(b"two"), zlib.compress(b"one") + b"junk"],
            "ZLIB")},
    "serialize": lambda tf: {
        "float32": tf.io.serialize_tensor(tf.constant([[1.5, -2.0, 3.25], [0.0, 1e-8, 7.0]])),
        "int64_scalar": tf.serialize_tensor(tf.constant(-5, tf.int64), name="ser"),
        "int32": tf.io.serialize_tensor(tf.range(5)),
        "strings": tf.io.serialize_tensor(tf.constant([["a", ""], ["\xff", "long " * 10]])),
        "string_scalar": tf.io.serialize_tensor(tf.constant("just one")),
        "bool": tf.io.serialize_tensor(tf.constant([True, False, True])),
        "float16": tf.io.serialize_tensor(tf.constant([0.5, 1.3], tf.float16)),
        "uint8": tf.io.serialize_tensor(tf.constant([0, 255], tf.uint8)),
        "int8": tf.io.serialize_tensor(tf.constant([-1, 2], tf.int8)),
        "float64_empty": tf.io.serialize_tensor(tf.zeros([0, 3], tf.float64)),
        "complex64": tf.io.serialize_tensor(tf.constant([1 + 2j], tf.complex64)),
        "string_empty": tf.io.serialize_tensor(tf.zeros([2, 0], tf.string)),
        "fed": tf.io.serialize_tensor(tf.placeholder_with_default([[1, 2]], [None, 2]))},
    "parse": lambda tf: {
        "float32": tf.io.parse_tensor(tf.io.serialize_tensor(
            tf.constant([[1.5, -2.0], [0.0, 7.0]])), tf.float32),
        "strings": tf.parse_tensor(tf.io.serialize_tensor(tf.constant([["a", ""], ["\xff", "b"]])),
                                   tf.string, name="parsed"),
        "int64_scalar": tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(9, tf.int64)),
                                           out_type=tf.int64),
        "bool": tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([True, False])), tf.bool),
        # A TensorProto of float_val, not tensor_content: the last value repeats to the shape.
        "float_val": tf.io.parse_tensor(b"\x08\x01\x12\x04\x12\x02\x08\x03\x2a\x04"
                                        + np.float32(1.5).tobytes(), tf.float32),
        "int_val": tf.io.parse_tensor(b"\x08\x03\x12\x04\x12\x02\x08\x02\x3a\x02\x07\x09",
                                      tf.int32),
        "half_val": tf.io.parse_tensor(b"\x08\x13\x12\x04\x12\x02\x08\x02\x6a\x03\x80\x78\x01",
                                       tf.float16),
        "half_val_short": tf.io.parse_tensor(
            b"\x08\x13\x12\x04\x12\x02\x08\x02\x6a\x02\x80\x78", tf.float16)},
    "json": lambda tf: {
        "one_feature": tf.io.decode_json_example(
            ['{"features": {"feature": {"a": {"int64List": {"value": [1, "2", 3]}}}}}',
             '{"features": {"feature": {"b": {"floatList": {"value": [0.5]}}}}}',
             '{"features": {"feature": {"c": {"bytesList": {"value": ["aGk="]}}}}}',
             '{}']),
        "multi_feature": tf.io.decode_json_example(
            ['{"features": {"feature": {"b": {"int64List": {"value": [1]}}, '
             '"a": {"floatList": {"value": [1.5, -2]}}, "c": {}}}}',
             '{"features": {"feature": {"x": {"bytesList": {"value": []}}, '
             '"y": {"int64List": {}}}}}',
             '{"features": {"feature": {"n": {"int64List": {"value": ["-5", 300]}}}}}',
             '{"features": null}']),
        "scalar": tf.decode_json_example('{"features": {}}', name="json")},
}


ERRORS = {
    "base64_character": lambda tf: tf.io.decode_base64(["YWJj", "YW*j"]),
    "base64_padding_inside": lambda tf: tf.io.decode_base64("YQ=j"),
    "base64_one_mod_four": lambda tf: tf.io.decode_base64("YWJjZ"),
    "base64_standard_alphabet": lambda tf: tf.io.decode_base64("a+/b"),
    "base64_three_pads": lambda tf: tf.io.decode_base64("Y==="),
    "compression_type": lambda tf: tf.io.decode_compressed("abc", compression_type="BZIP2"),
    "zlib_corrupt": lambda tf: tf.io.decode_compressed("not zlib data", compression_type="ZLIB"),
    "parse_garbage_padded": lambda tf: tf.io.parse_tensor(b"\xff", tf.float32),
    "gzip_as_zlib": lambda tf: tf.io.decode_compressed(_compressed(6)["gzip"],
                                                       compression_type="ZLIB"),
    "gzip_trailing_garbage": lambda tf: tf.io.decode_compressed(_gzip(b"a") + b"garbage",
                                                                "GZIP"),
    "gzip_trailing_zeros": lambda tf: tf.io.decode_compressed(_gzip(b"a") + b"\x00\x00",
                                                              "GZIP"),
    "parse_garbage": lambda tf: tf.io.parse_tensor(b"\xff\xff\xff", tf.float32),
    "parse_type": lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.range(3)),
                                                tf.float32),
    "parse_not_scalar": lambda tf: tf.io.parse_tensor(
        tf.placeholder_with_default([b""], None), tf.float32),
    "parse_size_mismatch": lambda tf: tf.io.parse_tensor(
        b"\x08\x01\x12\x04\x12\x02\x08\x03\x22\x04\x00\x00\x00\x00", tf.float32),
    "parse_empty_proto": lambda tf: tf.io.parse_tensor(b"", tf.float32),
    "json_bad": lambda tf: tf.io.decode_json_example("{not json"),
    "json_wrong_field": lambda tf: tf.io.decode_json_example('{"featurez": {}}'),
}


def _jsonable(value):
    value = np.asarray(value, dtype=object) if isinstance(value, bytes) else np.asarray(value)
    if value.dtype == object:
        flat = [v.decode("latin-1") for v in value.ravel().tolist()]
    else:
        flat = value.ravel().tolist()
    return {"dtype": str(value.dtype) if value.dtype != object else "bytes",
            "shape": list(value.shape), "values": flat}


def run_case(tf, name):
    """({key: value as JSON}, {key: static shape}, [[node name, op]]) of case `name`."""
    with tf.Graph().as_default() as graph:
        fetches = CASES[name](tf)
        shapes = {key: t.shape.as_list() if t.shape.ndims is not None else None
                  for key, t in fetches.items()}
        nodes = [[node.name, node.op] for node in graph.as_graph_def().node]
        with tf.Session() as sess:
            values = sess.run(fetches)
    return {key: _jsonable(value) for key, value in values.items()}, shapes, nodes


def run_error(tf, name):
    """(error class name, the message: a build error's up to its node, a kernel's line
    above the `[[{{node` line) of error case `name`, or ("no error", "")."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError) as error:
            kind = "ValueError" if isinstance(error, ValueError) else "TypeError"
            return ["build: " + kind, str(error).split("\n")[0].split(" for '{{node ")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                above = [line for line in lines[:at] if line.strip()] or [""]
                return [type(error).__name__, above[-1].rstrip()]
    return ["no error", ""]
