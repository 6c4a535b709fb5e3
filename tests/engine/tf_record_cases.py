"""TFRecord files and tf.train.Example, written and read the same way by TensorFlow and the engine.

`records(tf)` builds the records (serialized tf.train.Examples and raw bytes) with either
API; tools/make_tf_record_fixtures.py has TensorFlow write them uncompressed, GZIP and ZLIB
(tests/fixtures/tf_record/*.tfrecord) and runs every DAMAGED file through TensorFlow's
tf_record_iterator and TFRecordDataset for errors.json; tests/engine/test_tf_record.py reads
the same files with the engine, writes them again and compares.
"""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tf_record"
COMPRESSIONS = {"": "plain", "GZIP": "gzip", "ZLIB": "zlib"}


def fixture_path(compression):
    return FIXTURES / f"records.{COMPRESSIONS[compression]}.tfrecord"


def examples(tf):
    """Three tf.train.Examples: every kind of feature list, empty lists, a missing feature."""
    def floats(*values):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))

    def ints(*values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))

    def strings(*values):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))

    return [
        tf.train.Example(features=tf.train.Features(feature={
            "pixels": floats(0.5, -1.25, 3.0), "label": ints(7), "name": strings(b"first"),
            "tags": strings(b"a", b"b")})),
        tf.train.Example(features=tf.train.Features(feature={
            "pixels": floats(1.0, 2.0, -0.75), "label": ints(-3), "name": strings(b"\x00\xff"),
            "tags": strings()})),
        tf.train.Example(features=tf.train.Features(feature={
            "pixels": floats(0.0, 0.0, 9.5), "name": strings(b"third"),
            "tags": strings(b"only")})),
    ]


def records(tf):
    """The records of every fixture file, in order: the examples, an empty and a long one."""
    return ([example.SerializeToString(deterministic=True) for example in examples(tf)]
            + [b"", bytes(range(256)) * 40])


# Damaged copies of the plain file: name -> (compression the reader is told, file bytes from
# the plain file's). Offsets: the first record is 12 + len(records[0]) + 4 bytes long.
def damaged(plain):
    first = 12 + int.from_bytes(plain[:8], "little") + 4

    def flip(data, at):
        data = bytearray(data)
        data[at] ^= 0x01
        return bytes(data)

    return {
        "flip_length": ("", flip(plain, 0)),
        "flip_length_crc": ("", flip(plain, 9)),
        "flip_data": ("", flip(plain, 14)),
        "flip_data_crc": ("", flip(plain, first - 2)),
        "flip_second_header": ("", flip(plain, first + 3)),
        "flip_second_data": ("", flip(plain, first + 12)),
        "truncated_in_data": ("", plain[:first + 20]),
        "truncated_in_footer": ("", plain[:first - 1]),
        "truncated_in_header": ("", plain[:first + 7]),
        "empty": ("", b""),
    }


def damaged_compressed(gzip_bytes, zlib_bytes):
    return {
        "gzip_read_plain": ("", gzip_bytes),
        "gzip_read_as_zlib": ("ZLIB", gzip_bytes),
        "zlib_read_as_gzip": ("GZIP", zlib_bytes),
    }


def read_with_iterator(tf, path, compression):
    """(records read, (error class, message) or None) of tf_record_iterator over `path`."""
    got = []
    try:
        for record in tf.python_io.tf_record_iterator(str(path), compression or None):
            got.append(record)
    except tf.errors.OpError as error:
        return got, (type(error).__name__, error.message)
    return got, None


def read_with_dataset(tf, path, compression):
    """The same through tf.data.TFRecordDataset; the error message is the kernel's line."""
    got = []
    with tf.Graph().as_default():
        dataset = tf.data.TFRecordDataset(str(path), compression_type=compression)
        next_record = tf.data.make_one_shot_iterator(dataset).get_next()
        with tf.Session() as sess:
            try:
                while True:
                    got.append(sess.run(next_record))
            except tf.errors.OutOfRangeError:
                return got, None
            except tf.errors.OpError as error:
                lines = error.message.splitlines()
                at = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
                return got, (type(error).__name__,
                             lines[at + 1] if at is not None else lines[0])


def api_errors(tf, tmp):
    """{what: (error class, message)} for misuses of the writer and options."""
    def error_of(action):
        try:
            action()
        except (tf.errors.OpError, ValueError) as error:
            return [type(error).__name__, getattr(error, "message", str(error))]
        return None

    path = str(Path(tmp) / "closed.tfrecord")
    writer = tf.python_io.TFRecordWriter(path)
    writer.write(b"a")
    writer.close()
    return {
        "write_after_close": error_of(lambda: writer.write(b"b")),
        "flush_after_close": error_of(writer.flush),
        "close_twice": error_of(writer.close),
        "bad_compression": error_of(lambda: tf.python_io.TFRecordOptions("BZ2")),
        "bad_compression_number": error_of(lambda: tf.python_io.TFRecordWriter(path, 3)),
        "missing_directory": error_of(
            lambda: tf.python_io.TFRecordWriter(str(Path(tmp) / "no" / "x.tfrecord"))),
        "missing_file": error_of(
            lambda: list(tf.python_io.tf_record_iterator(str(Path(tmp) / "none.tfrecord")))),
        "compression_strings": [
            tf.python_io.TFRecordOptions.get_compression_type_string(o)
            for o in (None, 1, 2, "GZIP", tf.python_io.TFRecordOptions("ZLIB"))],
    }


# tf.parse_example / parse_single_example over the examples above: name -> (features(tf),
# which records: "all" (a batch) or an index (one example), example names or None).
def _mixed(tf):
    return {"pixels": tf.FixedLenFeature([3], tf.float32),
            "label": tf.FixedLenFeature([], tf.int64, default_value=0),
            "name": tf.FixedLenFeature([], tf.string),
            "tags": tf.VarLenFeature(tf.string)}


PARSE_CASES = {
    "batch_dense": (lambda tf: {"pixels": tf.FixedLenFeature([3], tf.float32),
                                "label": tf.FixedLenFeature([], tf.int64, default_value=-1),
                                "name": tf.FixedLenFeature((), tf.string)}, "all", None),
    "batch_varlen": (lambda tf: {"tags": tf.VarLenFeature(tf.string),
                                 "pixels": tf.VarLenFeature(tf.float32),
                                 "label": tf.VarLenFeature(tf.int64)}, "all", None),
    "batch_mixed": (_mixed, "all", None),
    "single_0": (_mixed, 0, None),
    "single_1": (_mixed, 1, None),
    "single_2": (_mixed, 2, None),
    "shapes_and_defaults": (lambda tf: {
        "pixels": tf.FixedLenFeature([1, 3], tf.float32),
        "missing": tf.FixedLenFeature([2], tf.float32, default_value=[1.5, 2.5]),
        "missing_matrix": tf.FixedLenFeature([2, 1], tf.int64, default_value=[[4], [5]])},
        "all", None),
    "error_missing": (lambda tf: {"label": tf.FixedLenFeature([], tf.int64)}, "all", None),
    "error_missing_named": (lambda tf: {"label": tf.FixedLenFeature([], tf.int64)}, "all",
                            ["ex0", "ex1", "ex2"]),
    "error_missing_single": (lambda tf: {"label": tf.FixedLenFeature([], tf.int64)}, 2, None),
    "error_count": (lambda tf: {"pixels": tf.FixedLenFeature([2], tf.float32)}, "all", None),
    "error_count_single": (lambda tf: {"tags": tf.FixedLenFeature([2], tf.string)}, 1, None),
    "error_count_single_float": (lambda tf: {"pixels": tf.FixedLenFeature([4], tf.float32)},
                                 0, None),
    "error_count_single_int": (lambda tf: {"label": tf.FixedLenFeature([2], tf.int64)}, 0,
                               None),
    "error_count_bytes": (lambda tf: {"tags": tf.FixedLenFeature([2], tf.string)}, "all",
                          None),
    "error_type": (lambda tf: {"pixels": tf.FixedLenFeature([3], tf.int64)}, "all", None),
    "error_type_single": (lambda tf: {"name": tf.FixedLenFeature([], tf.float32)}, 1, None),
    "error_type_varlen": (lambda tf: {"label": tf.VarLenFeature(tf.string)}, "all", None),
}


def _jsonable(value):
    """A fetched value as JSON: dtype, shape and values (bytes as latin-1 text)."""
    if hasattr(value, "indices"):  # a SparseTensorValue
        return {part: _jsonable(getattr(value, part))
                for part in ("indices", "values", "dense_shape")}
    import numpy as np
    array = np.asarray(value)
    values = array.ravel().tolist()
    if array.dtype.kind in "SO":  # strings: TensorFlow gives a scalar as bytes
        return {"dtype": "string", "shape": list(array.shape),
                "values": [v.decode("latin-1") for v in values]}
    return {"dtype": str(array.dtype), "shape": list(array.shape), "values": values}


def run_parse_case(tf, name):
    """{"nodes": [[name, op, inputs]...], "shapes": {key: static shape}, and "values" {key:
    ...} or "error" [class, kernel message]} for PARSE_CASES[name]."""
    build, which, example_names = PARSE_CASES[name]
    serialized = records(tf)[:3]
    with tf.Graph().as_default() as graph:
        single = which != "all"
        feed_value = serialized[which] if single else serialized
        placeholder = tf.placeholder(tf.string, [] if single else [None], name="serialized")
        parse = tf.parse_single_example if single else tf.parse_example
        out = parse(placeholder, build(tf), example_names=example_names)
        result = {"nodes": [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node],
                  "shapes": {key: value.shape.as_list() if value.shape.ndims is not None
                             else None for key, value in out.items()}}
        with tf.Session() as sess:
            try:
                values = sess.run(out, {placeholder: feed_value})
            except tf.errors.OpError as error:
                lines = error.message.splitlines()
                at = next(i for i, line in enumerate(lines) if line.startswith("Node: "))
                result["error"] = [type(error).__name__, lines[at + 1]]
            else:
                result["values"] = {key: _jsonable(v) for key, v in sorted(values.items())}
    return result
