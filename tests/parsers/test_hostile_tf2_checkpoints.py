"""TF2 checkpoints whose object graph lies (tests/fixtures/hostile/tf2_checkpoints, written by
TensorFlow 2.21 through tools/make_hostile_tf2_fixtures.py): every value reads as TensorFlow
read it, the names fall back to keys or object paths, never a traceback; names reach the
terminal escaped; an object graph 5,000 objects deep costs memory in its length, not its
length squared (a 30,000-deep chain, 433 KB, took 2.6 GB). A SavedModel's signature and
output keys with terminal escapes run as TensorFlow ran them, printed escaped."""

import json
import tracemalloc

import numpy as np
import pytest

from engine.checkpoint.bundle import BundleWriter
from engine.proto import saved_object_graph_pb2, trackable_object_graph_pb2, types_pb2
from parsers import checkpoint_names
from parsers.checkpoint import Checkpoint
from parsers.saved_objects import SavedObjects
from parsers_testing import FIXTURES

CASES = FIXTURES / "hostile" / "tf2_checkpoints"
OUTCOMES = json.loads((CASES / "outcomes.json").read_text())
ESCAPED_KEYS = OUTCOMES.pop("escaped_keys")
KEY = "v/.ATTRIBUTES/VARIABLE_VALUE"


@pytest.mark.parametrize("case", sorted(OUTCOMES))
def test_every_value_reads_as_tensorflow_read_it(case):
    status, value = OUTCOMES[case]["read"]
    assert status == "OK"
    checkpoint = Checkpoint(CASES / case / "ckpt")
    assert [info.key for info in checkpoint.variables] == [KEY]
    np.testing.assert_array_equal(checkpoint.value(KEY), value)


@pytest.mark.parametrize("case", sorted(OUTCOMES))
def test_info_lists_the_variable_with_its_name_escaped(case, run_info):
    code, out, err = run_info(CASES / case / "ckpt")
    assert (code, err) == (0, "")
    assert "Traceback" not in out and "\x1b" not in out and "\u202e" not in out
    assert "1 variables" in out
    header, row = out.splitlines()[-2:]   # the name escaped before the columns were measured
    assert header.index("dtype") == row.index("float32")


def test_a_slot_id_outside_the_graph_is_no_slot():
    checkpoint = Checkpoint(CASES / "slot_id_negative" / "ckpt")
    assert [info.name for info in checkpoint.variables] == [""]  # the root object's value


def chain(depth):
    return trackable_object_graph_pb2.TrackableObjectGraph(nodes=[
        {"children": [{"node_id": i + 1, "local_name": "layer"}]} for i in range(depth)] + [
        {"attributes": [{"name": "VARIABLE_VALUE", "checkpoint_key": KEY}]}])


def test_an_object_graph_5000_deep_keeps_the_last_levels_of_its_paths(tmp_path):
    writer = BundleWriter(tmp_path / "ckpt")
    writer.add(checkpoint_names.OBJECT_GRAPH_KEY, np.array(chain(5000).SerializeToString(), object),
               types_pb2.DT_STRING)
    writer.add(KEY, np.array([1.0, 2.0], np.float32), types_pb2.DT_FLOAT)
    writer.finish()
    tracemalloc.start()
    try:
        checkpoint = Checkpoint(tmp_path / "ckpt")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # spelled out, the 5,001 paths hold 75 MB of names
    assert peak < 16 << 20
    levels = checkpoint_names.PATH_LEVELS
    assert [info.name for info in checkpoint.variables] == ["/".join(["…"] + ["layer"] * levels)]
    short = checkpoint_names.readable_names(chain(levels))
    assert short == {KEY: "/".join(["layer"] * levels)}


def test_a_saved_object_graph_5000_deep_keeps_the_last_levels_of_its_paths():
    graph = saved_object_graph_pb2.SavedObjectGraph(nodes=[
        {"children": [{"node_id": i + 1, "local_name": "a"}], "user_object": {}} for i in range(5000)])
    paths = SavedObjects(graph).paths
    assert len(paths) == 5000
    assert paths[4999] == ".".join(["…"] + ["a"] * checkpoint_names.PATH_LEVELS)
    assert paths[3] == "a.a.a"


def test_a_signatures_escaped_output_key_is_printed_escaped(capsys):
    from inspector import cli

    status = cli.main(["run", str(CASES / "escaped_keys"), "--signature", ESCAPED_KEYS["signature"],
                       "--feed", "x=" + json.dumps(ESCAPED_KEYS["feed"]["x"])])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    [(key, value)] = ESCAPED_KEYS["outputs"].items()
    assert out == f"out\\x1b[2J\\u202e = [{value[0]:g}. {value[1]:g}.]\n"
    assert key == "out\x1b[2J\u202e"


def test_an_object_graph_that_does_not_read_is_said_by_info(tmp_path, run_info):
    # a data file cut inside the object graph (TensorFlow's restore: "Read less bytes than
    # requested") and an object graph that is no protobuf (its DecodeError) listed the
    # variables by key without a word
    import shutil

    source = FIXTURES / "tf2" / "train_step" / "variables"
    for name in ("variables.index", "variables.data-00000-of-00001"):
        shutil.copy(source / name, tmp_path / name)
    data = tmp_path / "variables.data-00000-of-00001"
    graph_start = Checkpoint(tmp_path / "variables")._reader.entry(checkpoint_names.OBJECT_GRAPH_KEY).offset
    data.write_bytes(data.read_bytes()[:graph_start + 100])
    code, out, err = run_info(tmp_path / "variables")
    assert (code, err) == (0, "")
    assert ("  object graph not read, variables go by their keys: "
            f"{data}: _CHECKPOINTABLE_OBJECT_GRAPH: bytes ") in out
    assert "b1/.ATTRIBUTES/VARIABLE_VALUE" in out
    code, out, err = run_info(tmp_path / "variables", "--json")  # said in --json's notes too
    assert (code, err) == (0, "")
    assert any(note.startswith("object graph not read, variables go by their keys: "
                               f"{data}: _CHECKPOINTABLE_OBJECT_GRAPH: bytes ")
               for note in json.loads(out)["notes"])
    code, out, _ = run_info(CASES / "not_a_protobuf" / "ckpt")
    assert OUTCOMES["not_a_protobuf"]["restore"][0] == "DecodeError"
    assert "object graph not read, variables go by their keys: not a TrackableObjectGraph (" in out
    for case in set(OUTCOMES) - {"not_a_protobuf"}:
        assert "object graph not read" not in run_info(CASES / case / "ckpt")[1]


def test_a_state_file_that_is_no_text_is_said_so(tmp_path, run_info):
    # CheckpointManager's `checkpoint` file overwritten with binary: it said only
    # "checkpoint: invalid start byte" (the tail of Python's UnicodeDecodeError)
    (tmp_path / "checkpoint").write_bytes(b'model_checkpoint_path: "ckpt-1"\n\xff\xfe')
    code, out, err = run_info(tmp_path)
    assert (code, out) == (2, "")
    assert err == (f"error: {tmp_path / 'checkpoint'}: not a checkpoint state file: not UTF-8 "
                   "text (byte 32)\n")
