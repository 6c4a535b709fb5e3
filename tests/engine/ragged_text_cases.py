"""The text groups of tests/engine/ragged_cases.py: tf.io.RaggedFeature through parse_example
and parse_single_example, and the string ops that give RaggedTensors (unicode_decode,
unicode_split, bytes_split, ngrams, tf.strings.split, tf.string_split, unicode_encode)."""


def _example(tf, features):
    feature = {}
    for key, values in features.items():
        if isinstance(values[0], bytes):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        elif isinstance(values[0], float):
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        else:
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def parsing(tf):
    records = [_example(tf, {"w": [b"a", b"b"], "x": [1.0, 2.0, 3.0, 4.0], "len": [2, 1, 1],
                             "splits": [0, 3, 4], "ids": [0, 0, 1, 1]}),
               _example(tf, {"w": [b"c"], "x": [5.0, 6.0], "len": [0, 2],
                             "splits": [0, 0, 2], "ids": [1, 1]}),
               _example(tf, {"len": [0], "splits": [0, 0], "ids": [0]})]
    serialized = tf.constant(records)
    ragged = tf.io.RaggedFeature
    batch = tf.io.parse_example(serialized, {
        "w": ragged(tf.string),
        "by_lengths": ragged(tf.float32, value_key="x", partitions=[ragged.RowLengths("len")]),
        "by_splits": ragged(tf.float32, value_key="x", partitions=[ragged.RowSplits("splits")]),
        "by_ids": ragged(tf.float32, value_key="x", partitions=[ragged.ValueRowIds("ids")]),
        "pairs": ragged(tf.float32, value_key="x", partitions=[ragged.UniformRowLength(2)]),
        "fixed": tf.io.FixedLenFeature([], tf.string, default_value=b"-"),
    })
    splits64 = tf.io.parse_example(serialized, {
        "x": ragged(tf.float32, row_splits_dtype=tf.int64),
        "by_lengths": ragged(tf.float32, value_key="x", partitions=[ragged.RowLengths("len")],
                             row_splits_dtype=tf.int64)})
    single = tf.io.parse_single_example(records[0], {
        "w": ragged(tf.string),
        "by_lengths": ragged(tf.float32, value_key="x", partitions=[ragged.RowLengths("len")]),
    })
    return {**{f"batch_{k}": v for k, v in batch.items()},
            **{f"splits64_{k}": v for k, v in splits64.items()},
            **{f"single_{k}": v for k, v in single.items()}}


def strings(tf):
    words = tf.constant(["héllo wörld", "", "a b  c"])
    matrix = tf.constant([["ab", "ç"], ["", "xyz"]])
    tokens = tf.ragged.constant([["a", "b", "c"], [], ["d", "e"]])
    decoded, offsets = tf.strings.unicode_decode_with_offsets(words, "UTF-8")
    # fed through placeholder_with_default: of a constant, TensorFlow's shape inference runs
    # UnicodeDecode while building and folds the lengths into Const nodes
    chars, char_offsets = tf.strings.unicode_split_with_offsets(
        tf.placeholder_with_default(matrix, [2, 2]), "UTF-8")
    return {
        "decode_vector": tf.strings.unicode_decode(words, "UTF-8"),
        "decode_matrix": tf.strings.unicode_decode(matrix, "UTF-8"),
        "decode_ragged": tf.strings.unicode_decode(tokens, "UTF-8"),
        "decode_scalar": tf.strings.unicode_decode("añb", "UTF-8"),
        "decode_offsets": decoded, "offsets": offsets,
        "split_vector": tf.strings.unicode_split(tf.placeholder_with_default(words, [3]),
                                                 "UTF-8"),
        "split_matrix_chars": chars, "split_matrix_offsets": char_offsets,
        "encode_ragged": tf.strings.unicode_encode(
            tf.ragged.constant([[104, 105], [], [0x263A]]), "UTF-8"),
        "encode_nested": tf.strings.unicode_encode(
            tf.ragged.constant([[[97, 98], [99]], [[100]]]), "UTF-8"),
        "bytes_vector": tf.strings.bytes_split(tf.constant(["ab", "", "çd"])),
        "bytes_matrix": tf.strings.bytes_split(matrix),
        "bytes_ragged": tf.strings.bytes_split(tokens),
        "bytes_scalar": tf.strings.bytes_split("xyz"),
        "ngrams_ragged": tf.strings.ngrams(tokens, 2),
        "ngrams_ragged_padded": tf.strings.ngrams(tokens, [1, 3], pad_values=("<", ">")),
        "ngrams_vector": tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2),
        "ngrams_matrix": tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2),
        "split_ragged_result": tf.strings.split(words, result_type="RaggedTensor"),
        "split_sep": tf.strings.split(words, sep=" ", result_type="RaggedTensor"),
        "split_matrix_sparse": tf.strings.split(matrix),
        "split_matrix_ragged": tf.strings.split(tf.constant([["a b", "c"], ["", "d e f"]]),
                                                result_type="RaggedTensor"),
        "split_of_ragged": tf.strings.split(tf.ragged.constant([["a b"], [], ["c", "d e"]]),
                                            result_type="RaggedTensor"),
        "split_maxsplit": tf.strings.split(["a b c d"], maxsplit=1,
                                           result_type="RaggedTensor"),
        "string_split_ragged": tf.string_split(["a,b", "c"], ",", result_type="RaggedTensor"),
        "string_split_sparse": tf.string_split(["a,b", "c"], ","),
        "length_of_ragged": tf.strings.length(tokens),
        "upper_of_ragged": tf.strings.upper(tokens) if hasattr(tf.strings, "upper") else tokens,
    }
