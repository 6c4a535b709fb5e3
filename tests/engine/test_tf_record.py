"""tf.python_io (TFRecordWriter, tf_record_iterator, TFRecordOptions), tf.train.Example and
tf.data.TFRecordDataset against files TensorFlow 2.21 wrote (tests/fixtures/tf_record/, by
tools/make_tf_record_fixtures.py): the engine reads TensorFlow's files, writes the same bytes
(plain, GZIP, ZLIB), and fails on damaged files where and as TensorFlow's readers do.
tools/check_engine_tf_records_in_tf.py has TensorFlow read the files the engine writes."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_record_cases as cases  # noqa: E402

TF_RESULTS = json.loads((cases.FIXTURES / "errors.json").read_text())
RECORDS = cases.records(tf)


@pytest.mark.parametrize("compression", list(cases.COMPRESSIONS))
def test_reads_tensorflows_files(compression):
    path = cases.fixture_path(compression)
    assert list(tf.python_io.tf_record_iterator(str(path), compression or None)) == RECORDS
    got, error = cases.read_with_dataset(tf, path, compression)
    assert (got, error) == (RECORDS, None)
    parsed = [tf.train.Example.FromString(r) for r in RECORDS[:3]]
    assert parsed == cases.examples(tf)
    assert list(parsed[1].features.feature["name"].bytes_list.value) == [b"\x00\xff"]


@pytest.mark.parametrize("compression", list(cases.COMPRESSIONS))
def test_writes_tensorflows_bytes(compression, tmp_path):
    path = tmp_path / "out.tfrecord"
    options = tf.python_io.TFRecordOptions(compression)
    with tf.python_io.TFRecordWriter(str(path), options) as writer:
        for record in RECORDS:
            writer.write(record)
    assert path.read_bytes() == cases.fixture_path(compression).read_bytes()


def test_flush_makes_the_records_so_far_readable(tmp_path):
    for compression in ("", "GZIP"):
        path = tmp_path / f"flushed{compression}.tfrecord"
        writer = tf.python_io.TFRecordWriter(str(path), compression)
        writer.write(b"one")
        writer.write("two")  # a str is written as its UTF-8 bytes
        writer.flush()
        assert list(tf.python_io.tf_record_iterator(str(path), compression)) == [b"one", b"two"]
        writer.close()


def _damaged():
    plain = cases.fixture_path("").read_bytes()
    return {**cases.damaged(plain),
            **cases.damaged_compressed(cases.fixture_path("GZIP").read_bytes(),
                                       cases.fixture_path("ZLIB").read_bytes())}


@pytest.mark.parametrize("name", [name for name in TF_RESULTS if name != "api"])
def test_damaged_files_fail_as_tensorflows(name, tmp_path):
    compression, data = _damaged()[name]
    path = tmp_path / f"{name}.tfrecord"
    path.write_bytes(data)
    expected = TF_RESULTS[name]
    got, error = cases.read_with_iterator(tf, path, compression)
    assert got == RECORDS[:expected["iterator"][0]]
    if expected["iterator"][1] is None:
        assert error is None
    else:
        kind, message = expected["iterator"][1]
        # TensorFlow's words, and the file they are about.
        assert list(error) == [kind, f"{message} (in {path})"]
    got, error = cases.read_with_dataset(tf, path, compression)
    assert got == RECORDS[:expected["dataset"][0]]
    assert (list(error) if error else None) == expected["dataset"][1]


def test_misuse_errors_are_tensorflows(tmp_path):
    got = json.loads(json.dumps(cases.api_errors(tf, tmp_path)).replace(str(tmp_path), "<tmp>"))
    assert got == TF_RESULTS["api"]


def test_dataset_reads_an_unknown_compression_as_none():
    # TensorFlow's TFRecordDataset logs "Unsupported compression_type" and reads on.
    got, error = cases.read_with_dataset(tf, cases.fixture_path(""), "BZ2")
    assert (got, error) == (RECORDS, None)


TF_PARSED = json.loads((cases.FIXTURES / "parse_example.json").read_text())


@pytest.mark.parametrize("name", list(cases.PARSE_CASES))
def test_parse_example_equals_tensorflows(name):
    # Nodes, static shapes, and the parsed values or the kernel's error, as TensorFlow's.
    assert cases.run_parse_case(tf, name) == TF_PARSED[name]


def test_parse_example_refuses_what_tensorflow_refuses():
    with tf.Graph().as_default():
        serialized = tf.placeholder(tf.string, [None])
        with pytest.raises(ValueError, match="First dimension of shape for feature x unknown"):
            tf.parse_example(serialized, {"x": tf.FixedLenFeature([None], tf.float32)})
        with pytest.raises(ValueError, match="cannot be None or falsy"):
            tf.parse_example(serialized, {})
        with pytest.raises(ValueError, match="Input serialized must be a scalar"):
            tf.parse_single_example(serialized, {"x": tf.VarLenFeature(tf.int64)})


def test_a_directory_given_as_a_file_fails_as_tensorflows(tmp_path):
    # TensorFlow 2.21 (checked by hand): writer, iterator and TFRecordDataset all raise
    # FailedPreconditionError "PATH; Is a directory", not an OSError of Python's.
    directory = tmp_path / "records.tfrecord"
    directory.mkdir()
    expected = ("FailedPreconditionError", f"{directory}; Is a directory")
    assert cases.read_with_iterator(tf, directory, "") == ([], expected)
    assert cases.read_with_dataset(tf, directory, "") == ([], expected)
    with pytest.raises(tf.errors.FailedPreconditionError, match="; Is a directory$"):
        tf.python_io.TFRecordWriter(str(directory))
