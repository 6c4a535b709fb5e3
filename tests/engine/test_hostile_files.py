"""Damaged files and graphs fail in the engine with TensorFlow 2.21's classes and words
(tests/engine/hostile_file_cases.py; TensorFlow's outcomes in tests/fixtures/hostile/files.json
by tools/make_hostile_fixtures.py): TFRecord length fields past the file, checkpoint shards
cut short, Examples whose features do not parse, a SavedModel under a file, a cycle of
non-loop nodes. Nothing is allocated from a length field, and no Python error leaks."""

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hostile_file_cases as cases  # noqa: E402

TF_OUTCOMES = json.loads(cases.FIXTURE.read_text())


@pytest.mark.parametrize("name", sorted(TF_OUTCOMES["tf_records"]))
def test_tf_record_lengths_past_the_file_fail_as_tensorflows(name, tmp_path):
    got = cases.json_safe(cases.tf_record_outcomes(tf, tmp_path), tmp_path)
    assert got[name] == TF_OUTCOMES["tf_records"][name]


@pytest.mark.parametrize("name", sorted(TF_OUTCOMES["checkpoints"]))
def test_checkpoint_shards_cut_short_fail_as_tensorflows(name, tmp_path):
    # An entry's bytes past the shard's end: TensorFlow 2.21 says OutOfRangeError at restore
    # and IndexError in CheckpointReader (its binding's word for OUT_OF_RANGE).
    folder = tmp_path / name
    folder.mkdir()
    prefix = cases.cut_checkpoint(tf, folder, cases.SHARD_CUTS[name])
    restore = cases._outcome(lambda: cases._restore(tf, prefix))
    if restore[0] != "OK":  # after TensorFlow's words, which file and entry are bad
        assert f" (in {prefix}.data-00000-of-00001: " in restore[1], restore
    got = {"restore": cases._without_file(restore, prefix),
           "reader a": cases._outcome(
               lambda: tf.train.NewCheckpointReader(prefix).get_tensor("a").tolist()),
           "reader b": cases._outcome(
               lambda: tf.train.NewCheckpointReader(prefix).get_tensor("b").tolist())}
    assert got == TF_OUTCOMES["checkpoints"][name]


@pytest.mark.parametrize("name", sorted(TF_OUTCOMES["parse_example"]))
def test_examples_that_do_not_parse_fail_as_tensorflows(name):
    data = cases.SERIALIZED_EXAMPLES[name]
    got = {"batch": cases.parse_outcome(tf, data, False),
           "single": cases.parse_outcome(tf, data, True)}
    assert got == TF_OUTCOMES["parse_example"][name]


def test_saved_model_builder_under_a_file_fails_as_tensorflows(tmp_path):
    assert cases.saved_model_builder_outcomes(tf, tmp_path) == TF_OUTCOMES["saved_model_builder"]


def test_cycles_of_non_loop_nodes_fail_as_tensorflows():
    assert cases.cycle_outcomes(tf) == TF_OUTCOMES["cycles"]


def test_a_cycle_is_refused_with_the_optimizer_off_too(monkeypatch):
    monkeypatch.setenv("GRAPH_INSPECTOR_REWRITE", "off")
    assert cases.cycle_outcomes(tf)["session_run"] == TF_OUTCOMES["cycles"]["session_run"]


def test_the_optimizer_refuses_a_cycle_before_any_pass():
    from google.protobuf import text_format

    from engine import optimizer

    graph_def = text_format.Parse(cases.CYCLE_TEXT, tf.GraphDef())
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        optimizer.optimize(graph_def)
    assert raised.value.message == TF_OUTCOMES["cycles"]["session_run"][1]


def test_a_while_loops_back_edge_is_no_cycle():
    with tf.Graph().as_default() as graph:
        loop = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
    from engine import optimizer

    optimizer.optimize(graph.as_graph_def())  # no error
    with tf.Session(graph=graph) as sess:
        assert sess.run(loop) == 3


# Lengths TensorFlow 2.21 itself allocates and crashes on (2^62: a segmentation fault in the
# iterator, the dataset and the reader): the engine reads what the file holds and says the
# record is truncated, as it is.
def test_a_length_tensorflow_crashes_on_is_a_truncated_record(tmp_path):
    path = tmp_path / "claims_2_62.tfrecord"
    path.write_bytes(cases.record(cases.FIRST) + cases.header_claiming(2**62) + b"x" * 8)
    truncated = ["DataLossError", "truncated record at 28' failed with Read less bytes than "
                                  "requested"]
    got, error = cases.tf_record_cases.read_with_iterator(tf, path, "")
    assert (len(got), [error[0], error[1].removesuffix(f" (in {path})")]) == (1, truncated)
    assert cases.read_with_reader(tf, path) == ([cases.FIRST], truncated)


def test_no_allocation_from_a_length_field(tmp_path):
    # A record claiming 2^32+1 bytes in a 60-byte file, read under an address-space limit of
    # 1 GiB over what the process already holds: a read that allocated the claimed length
    # would fail with a MemoryError (the engine's ResourceExhaustedError: OOM) instead.
    path = tmp_path / "claims_4g.tfrecord"
    path.write_bytes(cases.tf_record_file("length_2_32_plus_1"))
    child = subprocess.run(
        [sys.executable, "-c", _UNDER_A_MEMORY_LIMIT.format(
            tests=str(Path(__file__).resolve().parent), path=str(path))],
        capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.strip() == str(TF_OUTCOMES["tf_records"]["length_2_32_plus_1"]["reader"][1])


_UNDER_A_MEMORY_LIMIT = """
import resource, sys
sys.path.insert(0, {tests!r})
import engine as tf
import hostile_file_cases as cases
from engine.kernels import cpu  # every kernel module loaded before the limit
with open("/proc/self/statm") as statm:
    held = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (held + (1 << 30), resource.RLIM_INFINITY))
print(cases.read_with_reader(tf, {path!r})[1])
"""


def test_record_headers_are_read_as_tensorflow_frames_them():
    # The cases' own framing agrees with the engine's writer.
    from engine.summary.record_writer import frame

    assert cases.record(b"abc") == frame(b"abc")
    assert struct.unpack("<Q", cases.header_claiming(7)[:8]) == (7,)


@pytest.mark.timeout(60)
def test_flag_files_that_are_no_regular_files_are_refused_unread(tmp_path):
    # absl reads a --flagfile whole with readlines(): a named pipe blocks, /dev/zero fills
    # memory. The engine refuses them first, with absl's own error for an unreadable file.
    import os

    from absl.flags import CantOpenFlagFileError

    from engine.platform import flags

    pipe = tmp_path / "flags.fifo"
    os.mkfifo(pipe)
    outer = tmp_path / "outer.flags"
    outer.write_text(f"--steps=4\n--flagfile={pipe}\n")
    for argv, refused in ([["prog", f"--flagfile={pipe}"], pipe],
                          [["prog", "--flagfile", "/dev/zero"], "/dev/zero"],
                          [["prog", f"-flagfile={outer}"], pipe]):
        with pytest.raises(CantOpenFlagFileError) as raised:
            flags.check_flag_files(argv)
        assert str(raised.value).startswith(
            f"ERROR:: Unable to open flagfile: {refused}; not a regular file (a ")
    good = tmp_path / "good.flags"
    good.write_text("--steps=4\n")
    flags.check_flag_files(["prog", f"--flagfile={good}"])  # a flag file as absl reads it


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_readers_refuse_what_is_not_a_regular_file_without_blocking(kind, tmp_path):
    # A named pipe nobody writes blocks TensorFlow's readers forever, /dev/zero never ends:
    # the engine's refuse both, FailedPreconditionError naming the file and what it is.
    import os

    if kind == "pipe":
        path, what = str(tmp_path / "records.pipe"), "a named pipe"
        os.mkfifo(path)
    else:
        path, what = "/dev/zero", "a character device"
    expected = ["FailedPreconditionError", f"{path}; not a regular file ({what})"]
    got, error = cases.tf_record_cases.read_with_iterator(tf, path, "")
    assert (got, list(error)) == ([], expected)
    assert cases.tf_record_cases.read_with_dataset(tf, path, "") == ([], tuple(expected))
    with tf.Graph().as_default():
        contents = tf.read_file(path)
        with tf.Session() as sess, pytest.raises(tf.errors.FailedPreconditionError) as raised:
            sess.run(contents)
    assert expected[1] in raised.value.message


def test_a_text_line_past_the_limit_is_refused_unread_further(tmp_path):
    from engine.lib_io import file_io

    path = tmp_path / "lines.txt"
    path.write_bytes(b"short\n" + b"x" * 100 + b"\nnever read\n")
    with open(path, "rb") as stream:
        lines = file_io.read_lines(stream, str(path), limit=64)
        assert next(lines) == b"short\n"
        with pytest.raises(tf.errors.ResourceExhaustedError) as raised:
            next(lines)
    assert raised.value.message == f"{path}; line 2 is longer than 64 bytes"
