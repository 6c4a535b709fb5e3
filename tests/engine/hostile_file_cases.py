"""Damaged files and graphs, run the same way through TensorFlow and the engine: TFRecord
length fields past what a file holds (2^32+1, 2^63, 2^64-1), checkpoint shards cut short,
tf.train.Examples whose features do not parse, a SavedModel under a file, a cycle through
non-loop nodes.

tools/make_hostile_fixtures.py runs every case with TensorFlow 2.21 and writes what it
raised to tests/fixtures/hostile/files.json; tests/engine/test_hostile_files.py runs them on
the engine and compares class and words. Each case gives (class name, message) or
("OK", what it returned).
"""

import struct
from pathlib import Path

import tf_record_cases

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "hostile" / "files.json"


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()


def masked_crc32c(data):
    """TFRecord's masked CRC32C, in Python: the cases' few bytes need no C library (the
    TensorFlow venv has none).

    >>> hex(masked_crc32c(b""))
    '0xa282ead8'
    """
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(data):
    """One TFRecord: length, its CRC, the data, the data's CRC."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data
            + struct.pack("<I", masked_crc32c(data)))


def header_claiming(length):
    """A sound TFRecord header (its CRC right) whose length field says `length`."""
    raw = struct.pack("<Q", length)
    return raw + struct.pack("<I", masked_crc32c(raw))


FIRST = b"first record"
# name -> a file: one good record, then a header claiming a length the file does not hold.
# (Lengths from 2^33 or so to 2^63 crash TensorFlow 2.21, which allocates them: 2^62 is a
# segmentation fault in all three readers. The engine reads them as the truncated records
# they are; test_hostile_files checks that without TensorFlow's word.)
TF_RECORD_LENGTHS = {
    "length_100": 100,
    "length_2_32_plus_1": 2**32 + 1,
    "length_2_63": 2**63,
    "length_2_64_minus_6": 2**64 - 6,  # the last length read (as a negative size)
    "length_2_64_minus_5": 2**64 - 5,  # the first refused as too large
    "length_2_64_minus_1": 2**64 - 1,
}


def tf_record_file(name):
    return record(FIRST) + header_claiming(TF_RECORD_LENGTHS[name]) + b"abcdefgh" * 4


def _error(error):
    """(class, message): an OpError's kernel line (after "Node: ..."), else its first line
    that is not the session's "Graph execution error:" heading."""
    message = getattr(error, "message", None) or str(error)
    lines = message.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
    if at is not None:
        return [type(error).__name__, lines[at + 1]]
    lines = [line for line in lines if line and line != "Graph execution error:"]
    return [type(error).__name__, lines[0] if lines else ""]


def _outcome(action):
    try:
        value = action()
    except Exception as error:  # noqa: BLE001  (which class it is, is the result)
        return _error(error)
    return ["OK", value]


def read_with_reader(tf, path):
    """(records read, error) of a TFRecordReader reading `path` until its queue ends."""
    got = []
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(1, tf.string)
        enqueue, close = queue.enqueue([str(path)]), queue.close()
        _, value = tf.TFRecordReader().read(queue)
        with tf.Session() as sess:
            sess.run(enqueue)
            sess.run(close)
            try:
                while True:
                    got.append(sess.run(value))
            except tf.errors.OutOfRangeError:
                return got, None
            except tf.errors.OpError as error:
                return got, _error(error)


def tf_record_outcomes(tf, directory):
    """{case: {"iterator" | "dataset" | "reader": [records read, error]}}."""
    results = {}
    for name in TF_RECORD_LENGTHS:
        path = Path(directory) / f"{name}.tfrecord"
        path.write_bytes(tf_record_file(name))
        got, error = tf_record_cases.read_with_iterator(tf, path, "")
        if error is not None:  # the engine's iterator adds the file: compare TensorFlow's part
            error = [error[0], error[1].removesuffix(f" (in {path})")]
        entry = {"iterator": [len(got), error]}
        got, error = tf_record_cases.read_with_dataset(tf, path, "")
        entry["dataset"] = [len(got), list(error) if error else None]
        got, error = read_with_reader(tf, path)
        entry["reader"] = [len(got), error]
        results[name] = entry
    return results


# name -> how many bytes of the data shard (a: 12 bytes at 0, b: 12 bytes at 12) are kept.
SHARD_CUTS = {"shard_empty": 0, "shard_cut_in_a": 4, "shard_ends_after_a": 12,
              "shard_cut_in_b": 16}


def cut_checkpoint(tf, directory, keep):
    """A checkpoint of variables a and b whose data shard keeps its first `keep` bytes."""
    prefix = str(Path(directory) / "model.ckpt")
    with tf.Graph().as_default():
        tf.Variable([1.0, 2.0, 3.0], name="a")
        tf.Variable([4.0, 5.0, 6.0], name="b")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, prefix)
    shard = Path(prefix + ".data-00000-of-00001")
    shard.write_bytes(shard.read_bytes()[:keep])
    return prefix


def _restore(tf, prefix):
    with tf.Graph().as_default():
        a = tf.Variable([0.0, 0.0, 0.0], name="a")
        b = tf.Variable([0.0, 0.0, 0.0], name="b")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            return [values.tolist() for values in sess.run([a, b])]


def _without_file(outcome, prefix):
    """The outcome with TensorFlow's part of an error only: the engine's restore adds which
    file is bad after TensorFlow's words, as " (in PREFIX.data-...: entry: what)"."""
    if outcome[0] != "OK" and f" (in {prefix}" in outcome[1]:
        return [outcome[0], outcome[1][:outcome[1].index(f" (in {prefix}")]]
    return outcome


def checkpoint_outcomes(tf, directory):
    """{case: {"restore": outcome, "reader a": outcome, "reader b": outcome}}."""
    results = {}
    for name, keep in SHARD_CUTS.items():
        folder = Path(directory) / name
        folder.mkdir()
        prefix = cut_checkpoint(tf, folder, keep)
        reader = tf.train.NewCheckpointReader
        results[name] = {
            "restore": _without_file(_outcome(lambda: _restore(tf, prefix)), prefix),
            "reader a": _outcome(lambda: reader(prefix).get_tensor("a").tolist()),
            "reader b": _outcome(lambda: reader(prefix).get_tensor("b").tolist()),
        }
    return results


def _length_delimited(field, payload):
    return bytes([field << 3 | 2, len(payload)]) + payload


def _example_with_feature_x(feature):
    entry = _length_delimited(1, b"x") + _length_delimited(2, feature)
    return _length_delimited(1, _length_delimited(1, entry))


# name -> a serialized Example whose feature "x" (or whole self) does not parse.
SERIALIZED_EXAMPLES = {
    "int64_list_truncated_packed_varint":
        _example_with_feature_x(_length_delimited(3, _length_delimited(1, b"\x80"))),
    "int64_list_truncated_varint": _example_with_feature_x(_length_delimited(3, b"\x08\x80")),
    "float_list_for_an_int64_key":
        _example_with_feature_x(_length_delimited(2, _length_delimited(1, b"\x00\x00"))),
    "example_cut_in_its_features": b"\x0a\x05\x0a",
    "int64_list_of_good_varints": _example_with_feature_x(_length_delimited(3, b"\x08\x07")),
}


def parse_outcome(tf, serialized, single):
    """What tf.parse_example (or parse_single_example) of one record makes of feature x."""
    with tf.Graph().as_default():
        placeholder = tf.placeholder(tf.string, [] if single else [None])
        parse = tf.parse_single_example if single else tf.parse_example
        out = parse(placeholder, {"x": tf.FixedLenFeature([1], tf.int64, default_value=[0])})
        with tf.Session() as sess:
            return _outcome(lambda: sess.run(out, {
                placeholder: serialized if single else [serialized]})["x"].tolist())


def parse_outcomes(tf):
    return {name: {"batch": parse_outcome(tf, data, False),
                   "single": parse_outcome(tf, data, True)}
            for name, data in SERIALIZED_EXAMPLES.items()}


def saved_model_builder_outcomes(tf, directory):
    """SavedModelBuilder where a part of the export path is a file."""
    a_file = Path(directory) / "a_file"
    a_file.write_text("not a directory")
    builder = tf.saved_model.builder.SavedModelBuilder
    outcomes = {"under_a_file": _outcome(lambda: builder(str(a_file / "export")) and None),
                "deep_under_a_file": _outcome(lambda: builder(str(a_file / "a" / "b")) and None),
                "a_file_itself": _outcome(lambda: builder(str(a_file)) and None)}
    return json_safe(outcomes, directory)


CYCLE_TEXT = """
node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: "a" op: "AddV2" input: "c" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "b" op: "AddV2" input: "a" input: "c" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "d" op: "Neg" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
"""


def _import_cycle(tf):
    from google.protobuf import text_format

    graph_def = text_format.Parse(CYCLE_TEXT, tf.GraphDef())
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")


def _run_cycle(tf):
    """a = c + b, b = a + c (a's second input rewired to b), d = -b; fetch a."""
    with tf.Graph().as_default():
        c = tf.constant(1.0, name="c")
        a = tf.add(c, c, name="a")
        b = tf.add(a, c, name="b")
        tf.negative(b, name="d")
        a.op._update_input(1, b)
        with tf.Session() as sess:
            return float(sess.run(a))


def cycle_outcomes(tf):
    return {"import_graph_def": _outcome(lambda: _import_cycle(tf)),
            "session_run": _outcome(lambda: _run_cycle(tf))}


def json_safe(value, directory):
    """`value` with the temporary directory's path written <tmp>."""
    import json

    return json.loads(json.dumps(value).replace(str(directory), "<tmp>"))


def all_outcomes(tf, directory):
    """Every case's outcome, as files.json holds them."""
    return json_safe({"tf_records": tf_record_outcomes(tf, directory),
                      "checkpoints": checkpoint_outcomes(tf, directory),
                      "parse_example": parse_outcomes(tf),
                      "saved_model_builder": saved_model_builder_outcomes(tf, directory),
                      "cycles": cycle_outcomes(tf)}, directory)
