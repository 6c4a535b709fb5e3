"""tf.FixedLengthRecordReader, tf.WholeFileReader (and read_up_to of the others),
tf.read_file/tf.write_file and tf.decode_csv against what TensorFlow 2.21 gave for the same
cases (tests/fixtures/readers/, by tools/make_reader_fixtures.py): each read's key and
value or error, the counters, the values decoded or the kernel's error word for word."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reader_cases as cases  # noqa: E402


def _fixture(name):
    return json.loads((cases.FIXTURES / name).read_text())


TF_READS, TF_FILES, TF_CSV = _fixture("reads.json"), _fixture("files.json"), _fixture("csv.json")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    directory = tmp_path_factory.mktemp("reader_inputs")
    cases.write_inputs(directory)
    return directory


@pytest.mark.parametrize("name", list(cases.READ_CASES))
def test_reads_as_tensorflow(name, inputs):
    assert cases.run_read_case(tf, name, inputs) == TF_READS[name]


@pytest.mark.parametrize("name", list(cases.FILE_CASES))
def test_read_and_write_file_as_tensorflow(name, tmp_path):
    cases.write_inputs(tmp_path)  # each its own directory: the cases write files
    assert cases.run_file_case(tf, name, tmp_path) == TF_FILES[name]


def test_the_apis_are_where_tensorflow_has_them():
    assert cases.api_names(tf) == TF_FILES["api"]


def _without_node_text(result):
    """A shape function's error without the NodeDef TensorFlow prints after the message."""
    if "build_error" in result:
        kind, message = result["build_error"]
        result = {"build_error": [kind, message.split(" for '{{node ")[0]]}
    return result


@pytest.mark.parametrize("name", list(cases.CSV_CASES))
def test_decode_csv_as_tensorflow(name):
    assert _without_node_text(cases.run_csv_case(tf, name)) == \
        _without_node_text(TF_CSV[name])


def test_a_fixed_length_record_reader_pipeline_reads_every_record_once(tmp_path):
    # The cifar10_input shape: string_input_producer -> reader -> decode_raw -> batch, the
    # epochs ending the run; the records come back whole and in file order.
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(10)) * 4)
    with tf.Graph().as_default():
        queue = tf.train.string_input_producer([str(path)], num_epochs=1, shuffle=False)
        _, value = tf.FixedLengthRecordReader(record_bytes=5).read(queue)
        batch = tf.train.batch([tf.decode_raw(value, tf.uint8)], batch_size=4,
                               shapes=[[5]], allow_smaller_final_batch=True)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            got = []
            try:
                while True:
                    got.extend(sess.run(batch).tolist())
            except tf.errors.OutOfRangeError:
                pass
            coord.request_stop()
            coord.join(threads)
    assert got == [list(range(5)), list(range(5, 10))] * 4


def test_a_file_name_with_a_nul_is_no_file(tmp_path):
    # TensorFlow cuts the name at the NUL (its C string) and says NotFound; Python's open
    # raises ValueError, which must not reach the user as a Python error.
    with tf.Graph().as_default():
        path = str(tmp_path / "a\x00b")
        with tf.Session() as sess:
            for op in (tf.read_file(path), tf.write_file(path, "x")):
                with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
                    sess.run(op)


def test_read_up_to_a_negative_count_is_refused(tmp_path):
    # TensorFlow's kernel aborts the whole process here (std::length_error in reserve).
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(2, tf.string)
        _, values = tf.WholeFileReader().read_up_to(queue, -1)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(-1\) must be >= 0"):
                sess.run(values)
