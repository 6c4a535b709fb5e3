"""Bad input: one InputError saying what is wrong and where; never a traceback, never a hang."""

import os
import shutil
import struct

import pytest

import parsers
from parsers import tfrecord
from parsers_testing import FIXTURES

GRAPH_PB = FIXTURES / "parsers" / "functions.pb"
RUN_PBTXT = FIXTURES / "parsers" / "run_metadata.pbtxt"
EVENTS = sorted((FIXTURES / "parsers" / "events_dir").iterdir())[0]


def error_of(path):
    with pytest.raises(parsers.InputError) as caught:
        parsers.load(path)
    error = caught.value
    assert "\n" not in str(error)
    return error.message


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def test_missing_path(tmp_path):
    assert error_of(tmp_path / "nope.pb") == "no such file or directory"


def test_empty_file(tmp_path):
    assert error_of(write(tmp_path, "empty.pb", b"")) == "empty file (0 bytes)"


def test_empty_directory(tmp_path):
    assert "holds no graph" in error_of(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_permission_denied(tmp_path):
    path = write(tmp_path, "secret.pb", GRAPH_PB.read_bytes())
    path.chmod(0)
    assert error_of(path) == "permission denied"


def test_permission_denied_even_as_root(tmp_path, monkeypatch):
    import os

    path = write(tmp_path, "secret.pb", GRAPH_PB.read_bytes())
    real_open = os.open

    def guarded_open(file, *args, **kwargs):  # the readers open through the engine's os.open
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    assert error_of(path) == "permission denied"


def test_truncated_protobuf_says_at_which_byte(tmp_path):
    data = GRAPH_PB.read_bytes()
    message = error_of(write(tmp_path, "cut.pb", data[: len(data) // 2]))
    assert message.startswith("not a GraphDef, MetaGraphDef, SavedModel, RunMetadata or TensorBoard events file")
    assert "as a GraphDef" in message and "at byte" in message and "remain" in message


def test_random_bytes(tmp_path):
    import random

    data = random.Random(7).randbytes(300)
    assert "not a GraphDef" in error_of(write(tmp_path, "noise.bin", data))


def test_absurd_varint_length(tmp_path):
    # A node declared 2**60 bytes long in a 20-byte file.
    data = b"\x0a" + b"\x80" * 8 + b"\x10" + b"\x0a\x01x"
    message = error_of(write(tmp_path, "huge.pb", data))
    assert "declares 1152921504606846976 bytes" in message


def test_deep_binary_nesting(tmp_path):
    # NodeDef.attr -> AttrValue.func -> NameAttrList.attr -> AttrValue.func -> ... 200 deep.
    def field(number, payload):
        return bytes([number << 3 | 2]) + _varint(len(payload)) + payload

    attr_value = b""
    for _ in range(200):
        entry = field(1, b"a") + field(2, attr_value)  # map entry: key, AttrValue
        attr_value = field(10, field(1, b"f") + field(2, entry))  # AttrValue.func: NameAttrList
    node = field(1, b"n") + field(2, b"NoOp") + field(5, field(1, b"a") + field(2, attr_value))
    message = error_of(write(tmp_path, "deep.pb", field(1, node)))
    assert "nested deeper than 100 levels" in message


def test_deep_text_nesting(tmp_path):
    text = 'node { name: "n" op: "NoOp" attr { key: "a" value { ' + "func { name: \"f\" attr { key: \"a\" value { " * 150
    text += "}} }" * 150 + " } } }"
    message = error_of(write(tmp_path, "deep.pbtxt", text))
    assert message.startswith("line 1:") and "nested deeper than 100 levels" in message


def test_text_syntax_error_gives_line_and_column(tmp_path):
    lines = RUN_PBTXT.read_text().splitlines()
    lines[4] = lines[4].replace(":", "", 1)
    message = error_of(write(tmp_path, "bad.pbtxt", "\n".join(lines)))
    assert message.startswith("line 5:"), message
    assert "as a text RunMetadata" in message


def test_text_unknown_top_level_field(tmp_path):
    message = error_of(write(tmp_path, "odd.pbtxt", "# comment\nnodes { }\n"))
    assert message.startswith("line 2:1: text starts with `nodes`")


def test_json_is_not_a_graph():
    assert "no field name" in error_of(FIXTURES / "parsers" / "functions.tf.json")


def test_non_utf8_text(tmp_path):
    message = error_of(write(tmp_path, "latin.pbtxt", b'node { name: "caf\xe9" op: "NoOp" }\n'))
    assert "UTF-8" in message


# ---- events files ------------------------------------------------------------------------------


def test_events_length_larger_than_file_is_not_allocated(tmp_path):
    data = bytearray(EVENTS.read_bytes())
    absurd = struct.pack("<Q", 2**62)
    data[0:8] = absurd
    data[8:12] = struct.pack("<I", tfrecord.masked_crc(absurd))
    message = error_of(write(tmp_path, "events.out.tfevents.1", bytes(data)))
    assert message.startswith("record 0 (byte 0): declares 4611686018427387904 data bytes")


def test_events_data_crc_checked(tmp_path):
    data = bytearray(EVENTS.read_bytes())
    first_length = struct.unpack_from("<Q", data)[0]
    second = 12 + first_length + 4
    data[second + 12 + 3] ^= 0x40  # a bit inside the second record's data
    message = error_of(write(tmp_path, "events.out.tfevents.2", bytes(data)))
    assert message == f"record 1 (byte {second}): data CRC mismatch, record is corrupt"


def test_events_truncated_reads_the_whole_records(tmp_path):
    """A file still being written: TensorBoard reads its whole records, and so do we, saying
    what was cut."""
    data = EVENTS.read_bytes()
    whole = parsers.load(EVENTS)
    cut = parsers.load(write(tmp_path, "events.out.tfevents.3", data[:-5]))
    assert sum(cut.event_counts.values()) == sum(whole.event_counts.values()) - 1
    [note] = cut.notes
    assert note.startswith("events.out.tfevents.3: record ") and "remain (cut off)" in note
    assert note.endswith("whole records before it")


def test_events_cut_inside_the_first_record(tmp_path):
    message = error_of(write(tmp_path, "events.out.tfevents.5", EVENTS.read_bytes()[:20]))
    assert message.startswith("record 0 (byte 0): declares ") and message.endswith("no whole record to read")


def test_events_record_that_is_not_an_event(tmp_path):
    payload = b"\xff\xff\xff"
    header = struct.pack("<Q", len(payload))
    record = header + struct.pack("<I", tfrecord.masked_crc(header)) + payload
    record += struct.pack("<I", tfrecord.masked_crc(payload))
    message = error_of(write(tmp_path, "events.out.tfevents.4", record))
    assert message.startswith("record 0 (byte 0): not a valid Event")


@pytest.mark.parametrize("records", ["all", "first four"])
def test_a_tfrecord_of_examples_is_not_taken_for_events(tmp_path, records):
    # TensorFlow wrote these tf.train.Examples; the first four parse as Events (every field
    # unknown to Event) and were shown as "TensorBoard events: empty 4".
    data = (FIXTURES / "tf_record" / "records.plain.tfrecord").read_bytes()
    message = error_of(write(tmp_path, "records.tfrecord", data if records == "all" else data[:297]))
    assert message == ("record 0 (byte 0): a TFRecord file, but not TensorBoard events (its first "
                       "record has no wall_time, file_version or event: tf.train.Examples?)")


def test_a_gzip_file_says_so(tmp_path):
    # A GZIP TFRecord TensorFlow wrote; was "not a GraphDef, ...: invalid wire type 7 at byte 0".
    data = (FIXTURES / "tf_record" / "records.gzip.tfrecord").read_bytes()
    assert error_of(write(tmp_path, "records.tfrecord", data)) == (
        "gzip-compressed (a GZIP TFRecord or a .gz file?): graph-inspector reads uncompressed "
        "files; gunzip it first")


def test_a_saved_model_pb_that_is_a_directory_is_named(tmp_path):
    # Was "directory holds no graph, SavedModel, events or dump files".
    (tmp_path / "model" / "saved_model.pb").mkdir(parents=True)
    with pytest.raises(parsers.InputError) as caught:
        parsers.load(tmp_path / "model")
    assert str(caught.value) == f"{tmp_path}/model/saved_model.pb: a directory, not a SavedModel file"


def test_bad_file_in_events_directory_is_named(tmp_path):
    shutil.copytree(FIXTURES / "parsers" / "events_dir", tmp_path / "logs")
    good, victim = sorted((tmp_path / "logs").iterdir())[:2]
    data = bytearray(victim.read_bytes())
    data[12 + 3] ^= 0x40  # inside the first record's data
    victim.write_bytes(bytes(data))
    loaded = parsers.load(tmp_path / "logs")
    assert loaded.kind == "events" and loaded.files == [str(good)]
    assert loaded.skipped == [(str(victim), "record 0 (byte 0): data CRC mismatch, record is corrupt")]


def test_bad_file_in_dump_directory_is_named(tmp_path):
    shutil.copytree(FIXTURES / "parsers" / "dump_dir", tmp_path / "dump")
    victim = tmp_path / "dump" / "build_xla_ops.pbtxt"
    victim.write_text("node { name: ")
    loaded = parsers.load(tmp_path / "dump")
    assert loaded.kind == "dump_dir" and str(victim) not in loaded.files
    [(path, why)] = loaded.skipped
    assert path == str(victim) and why.startswith("line 1:")


def test_a_directory_of_only_bad_files_is_an_error_naming_one(tmp_path):
    (tmp_path / "a.pbtxt").write_text("node { name: ")
    (tmp_path / "b.pb").write_bytes(b"\xff\xff")
    with pytest.raises(parsers.InputError) as caught:
        parsers.load(tmp_path)
    assert caught.value.path == str(tmp_path)
    assert caught.value.message.startswith("no file could be read (2 tried); first, a.pbtxt: line 1:")


def _varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def test_a_logdir_whose_one_events_file_is_corrupt_names_that_file(tmp_path):
    # the directory was counted as a second failure: "no file could be read (2 tried)"
    shutil.copytree(FIXTURES / "parsers" / "events_dir", tmp_path / "logs")
    victim, *others = sorted((tmp_path / "logs").iterdir())
    for other in others:
        other.unlink()
    data = bytearray(victim.read_bytes())
    data[12 + 3] ^= 0x40  # inside the first record's data
    victim.write_bytes(bytes(data))
    with pytest.raises(parsers.InputError) as caught:
        parsers.load(tmp_path / "logs")
    assert str(caught.value) == f"{victim}: record 0 (byte 0): data CRC mismatch, record is corrupt"
    shutil.copy(victim, tmp_path / "logs" / (victim.name + ".2"))
    with pytest.raises(parsers.InputError) as caught:
        parsers.load(tmp_path / "logs")
    assert caught.value.message.startswith(f"no file could be read (2 tried); first, {victim.name}:")
