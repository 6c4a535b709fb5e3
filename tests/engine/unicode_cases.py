"""tf.strings' Unicode ops on dense tensors built the same way by TensorFlow and the engine:
unicode_script, unicode_transcode (UTF-8/16/32, Latin-1, ASCII; replace, ignore, strict,
control characters), unicode_encode (vectors and higher ranks, invalid code points),
unsorted_segment_join and ngrams of dense tensors; values byte for byte, static shapes, node names where the engine
builds TensorFlow's graph, and the errors for bad input. Fixtures in
tests/fixtures/unicode/unicode.json (tools/make_unicode_fixtures.py)."""

import numpy as np

MALFORMED_UTF8 = [b"a\xffb", b"a\xe2\x82b", b"\xed\xa0\x80x", b"\xf0\x9f\x98", b"\xc0\xafz",
                  b"ok\x01\x1f\t ", b"\xf4\x90\x80\x80q", b"\xef\xbf\xbe!", b"\xe2\x82\xac",
                  b"", "héllo wörld 日本語 😀".encode("utf-8")]


def _bytes(tf, values):
    return tf.constant(np.array(values, dtype=object))


CASES = {
    "script": lambda tf: {
        "mixed": tf.strings.unicode_script(
            [0x41, 0x3B1, 0x416, 0x5D0, 0x627, 0x915, 0x4E00, 0x3042, 0x30A2, 0xAC00, 0x0E01,
             0x20, 0x30, 0x300, 0x1F600, 0x10FFFF, 0x110000, -1, 0xE000, 0xD800]),
        "matrix": tf.strings.unicode_script(tf.constant([[65, 1488], [12354, 9]]),
                                            name="scripts")},
    "transcode": lambda tf: {
        "utf8_replace": tf.strings.unicode_transcode(MALFORMED_UTF8, "UTF-8", "UTF-8"),
        "utf8_star": tf.strings.unicode_transcode(MALFORMED_UTF8, "UTF-8", "UTF-8",
                                                  replacement_char=0x2A),
        "utf8_ignore": tf.strings.unicode_transcode(MALFORMED_UTF8, "UTF-8", "UTF-8",
                                                    errors="ignore"),
        "controls": tf.strings.unicode_transcode(MALFORMED_UTF8, "UTF-8", "UTF-16-BE",
                                                 replace_control_characters=True),
        "controls_ignore": tf.strings.unicode_transcode(
            MALFORMED_UTF8, "UTF-8", "UTF-32-BE", errors="ignore",
            replace_control_characters=True, name="transcoded"),
        "utf16": tf.strings.unicode_transcode(
            _bytes(tf, [b"\x00a\xd8\x00\x00b", b"\x00a\x00", b"\xd8=\xde\x00"]), "UTF-16-BE",
            "UTF-8"),
        "utf32": tf.strings.unicode_transcode(
            _bytes(tf, [b"\x00\x00\x00a\x00\x11\x00\x00\x00\x00\xd8\x00", b"\x00a"]),
            "UTF-32-BE", "UTF-16-BE"),
        "latin1": tf.strings.unicode_transcode(_bytes(tf, [[b"caf\xe9"], [b"\xff"]]),
                                               "ISO-8859-1", "UTF-32-BE"),
        "ascii": tf.strings.unicode_transcode(_bytes(tf, [b"caf\xe9"]), "US-ASCII", "UTF-8"),
        "utf16_bom": tf.strings.unicode_transcode(_bytes(tf, [b"\xff\xfea\x00"]), "UTF-16",
                                                  "UTF-8"),
        "scalar": tf.strings.unicode_transcode("plain", "UTF-8", "UTF-16-BE")},
    "encode_vector": lambda tf: {
        "vector": tf.strings.unicode_encode([0x48, 0xE9, 0x65E5, 0x1F600], "UTF-8"),
        "invalid": tf.strings.unicode_encode(
            [0x41, -1, 0xD800, 0xDFFF, 0xFFFE, 0xFDD0, 0x110000, 0x1F600], "UTF-8"),
        "ignore_utf16": tf.strings.unicode_encode([0x41, -1, 0x1F600], "UTF-16-BE",
                                                  errors="ignore"),
        "replace_char": tf.strings.unicode_encode([0x41, 0xD800], "UTF-32-BE",
                                                  replacement_char=0x3F),
        "empty_vector": tf.strings.unicode_encode(np.zeros([0], np.int32), "UTF-8")},
    "encode": lambda tf: {
        "matrix": tf.strings.unicode_encode([[72, 105], [0x263A, 33]], "UTF-8"),
        "rank3": tf.strings.unicode_encode(np.arange(72, 84).reshape(2, 3, 2).astype(np.int32),
                                           "UTF-16-BE"),
        "empty_rows": tf.strings.unicode_encode(np.zeros([3, 0], np.int32), "UTF-8")},
    "segment_join": lambda tf: {
        "vector": tf.strings.unsorted_segment_join(["a", "b", "c", "d", "e"], [1, 0, 1, 1, 3],
                                                   4, separator=", "),
        "rows": tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"], ["e", "f"]],
                                                 [0, 1, 0], 2, separator="|"),
        "matrix_ids": tf.strings.unsorted_segment_join(
            [["a", "b"], ["c", "d"]], [[0, 1], [1, 1]], tf.constant(3, tf.int64),
            name="joined"),
        "fed_count": tf.strings.unsorted_segment_join(
            ["x", "y"], [0, 0], tf.placeholder_with_default(2, []), separator="")},
    "decode": lambda tf: {
        "utf8": tf.strings.unicode_decode("h\xe9llo 日本 😀", "UTF-8"),
        "malformed": tf.strings.unicode_decode(_bytes(tf, b"a\xffb\xe2\x82c\x01"), "UTF-8",
                                               replace_control_characters=True),
        "ignored": tf.strings.unicode_decode(_bytes(tf, b"a\xffb\xe2\x82c\x01"), "UTF-8",
                                             errors="ignore", replace_control_characters=True,
                                             name="decoded"),
        "utf16": tf.strings.unicode_decode(_bytes(tf, b"\x00a\xd8=\xde\x00\xd8\x00"),
                                           "UTF-16-BE", replacement_char=0x3F),
        "offsets_chars": tf.strings.unicode_decode_with_offsets(
            _bytes(tf, b"a\xffb\xe2\x82c\xc3\xa9\xf0\x9f\x98\x80"), "UTF-8")[0],
        "offsets": tf.strings.unicode_decode_with_offsets(
            _bytes(tf, b"a\xffb\xe2\x82c\xc3\xa9\xf0\x9f\x98\x80"), "UTF-8")[1],
        "offsets_ignore": tf.strings.unicode_decode_with_offsets(
            _bytes(tf, b"a\xffb\xe2\x82c"), "UTF-8", errors="ignore")[1],
        "offsets_utf16_bom": tf.strings.unicode_decode_with_offsets(
            _bytes(tf, b"\xff\xfea\x00=\xd8\x00\xde"), "UTF-16")[1],
        "empty": tf.strings.unicode_decode("", "UTF-8")},
    "split": lambda tf: {
        "chars": tf.strings.unicode_split("h\xe9 😀", "UTF-8"),
        "malformed": tf.strings.unicode_split(_bytes(tf, b"a\xffb"), "UTF-8"),
        "utf16": tf.strings.unicode_split(_bytes(tf, b"\x00a\xd8=\xde\x00"), "UTF-16-BE"),
        "with_offsets": tf.strings.unicode_split_with_offsets("h\xe9x", "UTF-8")[0],
        "offsets": tf.strings.unicode_split_with_offsets("h\xe9x", "UTF-8")[1],
        "bytes": tf.strings.bytes_split("h\xe9"),
        "bytes_empty": tf.strings.bytes_split(""),
        "empty": tf.strings.unicode_split("", "UTF-8")},
    "ngrams": lambda tf: {
        "bigrams": tf.strings.ngrams(["a", "b", "c", "d"], 2),
        "widths_padded": tf.strings.ngrams(["a", "b", "c"], [1, 3], separator="_",
                                           pad_values=("<s>", "</s>")),
        "pad_width_1": tf.strings.ngrams(["a", "b", "c"], 3, pad_values="#", padding_width=1),
        "matrix": tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2, separator=""),
        "rank3": tf.strings.ngrams(np.array([[["a", "b"]], [["c", "d"]]], dtype=object), [1, 2]),
        "short_preserved": tf.strings.ngrams(["a", "b"], 4, preserve_short_sequences=True),
        "short_padded": tf.strings.ngrams(["a"], 5, pad_values="*", padding_width=1,
                                          preserve_short_sequences=True),
        "too_short": tf.strings.ngrams(["a", "b"], 3, name="ngrams"),
        "empty": tf.strings.ngrams(tf.zeros([0], tf.string), 2)},
}

# The node names of these cases are TensorFlow's (split's differ only where TensorFlow's
# shape inference folds a constant's decoded length into a Const, below).
SAME_NODES = {"script", "transcode", "segment_join", "decode", "encode", "encode_vector",
              "ngrams"}
# TensorFlow's shape inference runs UnicodeDecode on a constant while building the graph, so
# unicode_split of a constant has a known length there; the engine's is [?].
SHAPES_FOLDED_BY_TENSORFLOW = {"split"}


ERRORS = {
    "transcode_strict": lambda tf: tf.strings.unicode_transcode(
        tf.placeholder_with_default([b"ok", b"a\xff"], None), "UTF-8", "UTF-8",
        errors="strict"),
    "transcode_strict_control": lambda tf: tf.strings.unicode_transcode(
        tf.placeholder_with_default([b"a\x01"], None), "UTF-8", "UTF-8", errors="strict",
        replace_control_characters=True),
    "transcode_encoding": lambda tf: tf.strings.unicode_transcode(
        tf.placeholder_with_default([b"a"], None), "NOPE-8", "UTF-8"),
    "transcode_output_encoding": lambda tf: tf.strings.unicode_transcode(
        [b"a"], "UTF-8", "UTF-16-LE"),
    "transcode_errors_attr": lambda tf: tf.strings.unicode_transcode([b"a"], "UTF-8", "UTF-8",
                                                                     errors="loud"),
    "encode_strict": lambda tf: tf.strings.unicode_encode(
        tf.placeholder_with_default([0x41, 0xD800], [None]), "UTF-8", errors="strict"),
    "encode_scalar": lambda tf: tf.strings.unicode_encode(65, "UTF-8"),
    "encode_unknown_rank": lambda tf: tf.strings.unicode_encode(
        tf.placeholder_with_default([65], None), "UTF-8"),
    "encode_float": lambda tf: tf.strings.unicode_encode([65.0], "UTF-8"),
    "decode_strict": lambda tf: tf.strings.unicode_decode(
        tf.placeholder_with_default(b"a\xff", []), "UTF-8", errors="strict"),
    "decode_encoding": lambda tf: tf.strings.unicode_decode("a", "NOPE-8"),
    "decode_unknown_rank": lambda tf: tf.strings.unicode_decode(
        tf.placeholder_with_default("a", None), "UTF-8"),
    "ngrams_width": lambda tf: tf.strings.ngrams(["a"], [2, 0]),
    "ngrams_padding_width": lambda tf: tf.strings.ngrams(["a"], 2, pad_values="x",
                                                         padding_width=0),
    "ngrams_padding_without_values": lambda tf: tf.strings.ngrams(["a"], 2, padding_width=1),
    "ngrams_pad_type": lambda tf: tf.strings.ngrams(["a"], 2, pad_values=3),
    "ngrams_scalar": lambda tf: tf.strings.ngrams("a", 2),
    "segment_out_of_range": lambda tf: tf.strings.unsorted_segment_join(
        ["a", "b"], tf.placeholder_with_default([0, 2], None), 2),
    "segment_negative_id": lambda tf: tf.strings.unsorted_segment_join(
        ["a", "b"], tf.placeholder_with_default([0, -1], None), 2),
    "segment_negative_count": lambda tf: tf.strings.unsorted_segment_join(
        ["a", "b"], [0, 1], tf.placeholder_with_default(-1, [])),
    "segment_dimension": lambda tf: tf.strings.unsorted_segment_join(
        tf.placeholder_with_default(["a", "b", "c"], None),
        tf.placeholder_with_default([0, 1], None), 2),
    "segment_rank": lambda tf: tf.strings.unsorted_segment_join(
        tf.placeholder_with_default(["a", "b"], None),
        tf.placeholder_with_default([[0, 1]], None), 2),
    "segment_scalar_ids": lambda tf: tf.strings.unsorted_segment_join(
        tf.placeholder_with_default(["a"], None), tf.placeholder_with_default(0, None), 2),
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
    """({key: value as JSON}, {key: static shape}, [[node name, op]], {key: the op node's
    [name, op, attrs]}) of case `name`."""
    with tf.Graph().as_default() as graph:
        fetches = CASES[name](tf)
        shapes = {key: t.shape.as_list() if t.shape.ndims is not None else None
                  for key, t in fetches.items()}
        graph_def = graph.as_graph_def()
        nodes = [[node.name, node.op] for node in graph_def.node]
        with tf.Session() as sess:
            values = sess.run(fetches)
    kernels = sorted([node.op, sorted((key, str(value).strip()) for key, value in
                                      node.attr.items())]
                     for node in graph_def.node if node.op.startswith(("Unicode", "Unsorted", "StringNGrams", "StringSplit")))
    return ({key: _jsonable(value) for key, value in values.items()}, shapes, nodes, kernels)


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
