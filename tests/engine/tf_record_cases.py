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
        "compression_strings": [tf.python_io.TFRecordOptions.get_compression_type_string(o)
                                for o in (None, 1, 2, "GZIP", tf.python_io.TFRecordOptions("ZLIB"))],
    }
