"""String ops of TF1 programs built the same way by TensorFlow and the engine: tf.string_split,
tf.strings.split, tf.substr, tf.as_string, tf.string_to_number, tf.reduce_join,
tf.regex_replace, tf.strings' length, lower, upper, strip and regex_full_match (values), and
their kernels' errors. Fixtures in tests/fixtures/mathops/strings.json (tools/make_string_fixtures.py)."""

import numpy as np

SENTENCES = ["the quick  brown fox", "", " jumps,over the,,lazy dog ", "a"]


def _split(tf):
    out = {}
    for key, sparse in {
            "default": tf.string_split(SENTENCES),
            "comma": tf.string_split(SENTENCES, ","),
            "keep_empty": tf.string_split(SENTENCES, delimiter=", ", skip_empty=False),
            "bytes": tf.string_split(["abc", "dé"], ""),
            "v2_whitespace": tf.strings.split(SENTENCES),
            "v2_maxsplit": tf.strings.split(SENTENCES, maxsplit=1),
            "v2_sep": tf.strings.split(["1<>2<><>3", "<>", "x"], sep="<>"),
            "v2_sep_maxsplit": tf.strings.split(["1<>2<><>3"], sep="<>", maxsplit=2),
            "v2_scalar": tf.strings.split("one two"),
    }.items():
        out.update({f"{key}/indices": sparse.indices, f"{key}/values": sparse.values,
                    f"{key}/shape": sparse.dense_shape})
    return out


def _substr(tf):
    words = tf.constant([["hello", "world"], ["ab", "héllo"]])
    return {"pos": tf.substr(words, 1, 3),
            "negative": tf.strings.substr(words, -2, 5),
            "vector": tf.substr(tf.constant("abcdef"), [0, 2, 5], [2, 10, 1]),
            "broadcast": tf.substr(words, [1, 0], [1, 2]),
            "utf8": tf.strings.substr(tf.constant(["héllo", "日本語"]), 1, 2, unit="UTF8_CHAR")}


def _as_string(tf):
    x = tf.constant([3.14159265, -0.5, 1e-7, 12345.678, float("inf"), float("nan")])
    return {"default": tf.as_string(x),
            "precision": tf.as_string(x, precision=3),
            "scientific": tf.as_string(x, scientific=True, precision=2),
            "shortest": tf.strings.as_string(x, shortest=True),
            "width": tf.as_string(x, width=12, precision=1),
            "fill": tf.as_string(tf.constant([7, -42, 123456]), width=6, fill="0"),
            "int64": tf.as_string(tf.constant([2 ** 40, -3], tf.int64), width=4),
            "bool": tf.as_string(tf.constant([True, False])),
            "float64": tf.as_string(tf.constant([1.0 / 3.0], tf.float64), precision=12),
            "left": tf.as_string(tf.constant([5, 17]), width=4, fill="-")}


def _to_number(tf):
    return {"float32": tf.string_to_number(["1.5", " -2e3 ", "inf", "1e40", "+.25", "nan"]),
            "float64": tf.strings.to_number(["0.1", "1e-320", "-0"], tf.float64),
            "int32": tf.string_to_number(["42", "-7", " 8 ", "+3"], out_type=tf.int32),
            "int64": tf.strings.to_number(["9007199254740993", "-1"], out_type=tf.int64)}


def _reduce_join(tf):
    cube = tf.constant([[["a", "b"], ["c", "d"]], [["e", "f"], ["g", "h"]]])
    words = tf.placeholder_with_default([["the", "cat"], ["sat", "on"], ["a", "mat"]], None)
    return {"all": tf.reduce_join(cube),
            "axis_list": tf.strings.reduce_join(cube, axis=[0, 1], separator="."),
            "axis_order": tf.strings.reduce_join(cube, axis=[1, 0], separator="."),
            "three": tf.strings.reduce_join(cube, axis=[1, 2, 0], separator="|"),
            "last": tf.strings.reduce_join(cube, axis=-1, separator=" "),
            "keep_dims": tf.reduce_join(cube, 1, keep_dims=True, separator="+"),
            "none": tf.strings.reduce_join(cube, axis=[]),
            "unknown_rank": tf.strings.reduce_join(words, axis=1, separator=" "),
            "unknown_rank_all": tf.strings.reduce_join(words, separator=","),
            "empty": tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1)}


def _string_transforms(tf):
    text = tf.constant([[" Hello, World\t", "ÉCOLE été"], ["\n x  ", ""]])
    return {"length": tf.strings.length(text),
            "length_utf8": tf.strings.length(text, unit="UTF8_CHAR"),
            "lower": tf.strings.lower(text),
            "lower_utf8": tf.strings.lower(text, encoding="utf-8"),
            "upper": tf.strings.upper(text),
            "upper_utf8": tf.strings.upper(text, encoding="utf-8"),
            "strip": tf.strings.strip(text),
            "string_strip": tf.string_strip(text)}


def _regex(tf):
    text = tf.constant(["abcabc", "The  quick   fox", "2019-06-30", ""])
    pattern = tf.placeholder_with_default("(\\d+)-(\\d+)-(\\d+)", [])
    return {"static": tf.regex_replace(text, "b", "X"),
            "first": tf.strings.regex_replace(text, "b", "X", replace_global=False),
            "groups": tf.strings.regex_replace(text, "(\\d+)-(\\d+)-(\\d+)",
                                               "\\3/\\2/\\1 [\\0]"),
            "spaces": tf.strings.regex_replace(text, " +", " "),
            "backslash": tf.strings.regex_replace(text, "(b)(c)", "<\\2\\1\\\\>"),
            "dynamic": tf.strings.regex_replace(text, pattern, "\\3.\\2.\\1"),
            "dynamic_first": tf.strings.regex_replace(text, tf.constant("[a-c]"),
                                                      tf.constant("_"), replace_global=False),
            "missing_group": tf.strings.regex_replace(text, "a", "\\1"),
            "bad_escape": tf.strings.regex_replace(text, "b", "y\\xz"),
            "full_match": tf.strings.regex_full_match(text, "[a-z]+"),
            "full_match_dynamic": tf.strings.regex_full_match(text, pattern),
            "empty_match": tf.strings.regex_replace(text, "x*", "-")}


def _hash_strings():
    rng = np.random.RandomState(1)
    texts = ["", "a", "ab", "abc", "hello", "été", "the quick brown fox", "x" * 33]
    texts += ["".join(chr(c) for c in rng.randint(32, 127, size=n)) for n in
              (7, 8, 9, 15, 16, 17, 31, 32, 63, 64, 65, 127, 128, 129, 200, 1000)]
    return texts


def _hashes(tf):
    words = tf.constant(_hash_strings())
    big = 2 ** 62 + 57  # keeps 62 of the hash's 64 bits
    grid = tf.constant([["cat", "dog"], ["cat", "fish"]])
    return {"fast": tf.string_to_hash_bucket_fast(words, big),
            "fast_small": tf.strings.to_hash_bucket_fast(grid, 10),
            "strong": tf.string_to_hash_bucket_strong(words, big, [123456789, 987654321]),
            "strong_small": tf.strings.to_hash_bucket_strong(grid, 7, [1, 2]),
            "legacy": tf.string_to_hash_bucket(words, big),
            "legacy_v1_name": tf.strings.to_hash_bucket(grid, 1000)}


def _buckets(tf):
    return {
        "float": tf.raw_ops.Bucketize(input=np.array([[-1.0, 0.0], [0.5, np.nan]], np.float32),
                                      boundaries=[0.0, 0.5, 2.0]),
        "double": tf.raw_ops.Bucketize(input=np.array([0.1, 0.1000001, -np.inf], np.float64),
                                       boundaries=[0.1, 0.5]),
        "int64": tf.raw_ops.Bucketize(input=np.array([-1, 0, 3, 10, 2 ** 40 + 1], np.int64),
                                      boundaries=[0.0, 3.0, 1e12]),
        "no_boundaries": tf.raw_ops.Bucketize(input=tf.constant([1, 2]), boundaries=[])}


CASES = {"hashes": _hashes, "buckets": _buckets, "split": _split, "substr": _substr, "as_string": _as_string, "to_number": _to_number,
         "reduce_join": _reduce_join, "transforms": _string_transforms, "regex": _regex}


def _jsonable(value):
    value = np.asarray(value, dtype=object) if isinstance(value, bytes) else np.asarray(value)
    if value.dtype == object:
        return {"dtype": "string", "shape": list(value.shape),
                "values": [v.decode("utf-8", "backslashreplace") for v in value.reshape(-1)]}
    flat = value.reshape(-1)
    if value.dtype.kind == "f":
        return {"dtype": value.dtype.name, "shape": list(value.shape),
                "values": [v.hex() if np.isfinite(v) else str(v) for v in flat.tolist()]}
    return {"dtype": value.dtype.name, "shape": list(value.shape), "values": flat.tolist()}


def run_case(tf, name):
    """{key: value as JSON (dtype, shape, values; floats by float.hex)} of case `name`."""
    with tf.Graph().as_default():
        fetches = CASES[name](tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
    return {key: _jsonable(value) for key, value in values.items()}


ERRORS = {
    "to_number_text": lambda tf: tf.string_to_number(tf.placeholder_with_default(["1", "abc"],
                                                                                 None)),
    "to_number_int_of_float": lambda tf: tf.string_to_number(
        tf.placeholder_with_default(["1.5"], None), tf.int32),
    "to_number_overflow": lambda tf: tf.string_to_number(
        tf.placeholder_with_default(["99999999999"], None), tf.int32),
    "substr_pos": lambda tf: tf.substr(tf.placeholder_with_default(["abc", "hello"], None),
                                       4, 1),
    "substr_negative_pos": lambda tf: tf.substr(tf.placeholder_with_default(["abc"], None),
                                                -5, 1),
    "split_not_vector": lambda tf: tf.string_split(
        tf.placeholder_with_default([["a b"]], None)).values,
    "as_string_fill": lambda tf: tf.as_string(tf.placeholder_with_default([1], None), fill="x"),
    "as_string_precision_int": lambda tf: tf.as_string(tf.placeholder_with_default([1], None),
                                                       precision=2),
    "as_string_both": lambda tf: tf.as_string(tf.placeholder_with_default([1.0], None),
                                              scientific=True, shortest=True),
    "reduce_join_axis": lambda tf: tf.reduce_join(
        tf.placeholder_with_default([["a", "b"]], None), tf.placeholder_with_default([2], None)),
    "reduce_join_negative_axis": lambda tf: tf.reduce_join(
        tf.placeholder_with_default([["a", "b"]], None), tf.placeholder_with_default([-3], None)),
    "reduce_join_duplicate": lambda tf: tf.reduce_join(
        tf.placeholder_with_default([["a", "b"]], None),
        tf.placeholder_with_default([1, -1], None)),
    "regex_replace_pattern": lambda tf: tf.strings.regex_replace(
        ["a"], tf.placeholder_with_default("(", []), tf.constant("x")),
    "regex_replace_not_scalar": lambda tf: tf.strings.regex_replace(
        ["a"], tf.placeholder_with_default(["a", "b"], None), tf.constant("x")),
    "regex_full_match_not_scalar": lambda tf: tf.strings.regex_full_match(
        ["a"], tf.placeholder_with_default(["a"], None)),
    "strong_key": lambda tf: tf.strings.to_hash_bucket_strong(
        tf.placeholder_with_default(["a"], None), 5, [1, 2, 3]),
    "bucketize_unsorted": lambda tf: tf.raw_ops.Bucketize(
        input=tf.placeholder_with_default([1.0], None), boundaries=[2.0, 1.0]),
    "lower_encoding": lambda tf: tf.strings.lower(tf.placeholder_with_default(["A"], None),
                                                  encoding="latin1"),
}


def run_error(tf, name):
    """(error class name, the kernel's message line)."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError) as error:
            return ["build: " + type(error).__name__, str(error).split("\n")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1] if at else lines[0]]
    return ["no error", ""]
