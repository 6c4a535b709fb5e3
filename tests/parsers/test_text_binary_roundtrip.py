"""Text and binary fixtures are the same message; kinds are told by content, not by name."""

import shutil

import pytest
from google.protobuf import text_format

import parsers
from engine.proto import config_pb2, graph_pb2
from parsers_testing import FIXTURES

PAIRS = [
    pytest.param(pb, pb.with_suffix(".pbtxt"), id=f"{pb.parent.name}/{pb.stem}")
    for directory in ("graphs", "runs", "parsers")
    for pb in sorted((FIXTURES / directory).glob("*.pb"))
    if pb.with_suffix(".pbtxt").exists()
]


@pytest.mark.parametrize("binary,text", PAIRS)
def test_text_and_binary_are_the_same_message(binary, text):
    from_binary = parsers.load(binary)
    from_text = parsers.load(text)
    assert from_binary.kind == from_text.kind
    message_b = _the_message(from_binary)
    message_t = _the_message(from_text)
    # Parse the text, serialize it, and it is the binary file's message, byte for byte equal.
    reparsed = type(message_b).FromString(message_t.SerializeToString(deterministic=True))
    assert reparsed == message_b
    assert message_t.SerializeToString(deterministic=True) == message_b.SerializeToString(deterministic=True)
    # And our text rendering parses back to the same message.
    assert text_format.Parse(text_format.MessageToString(message_b), type(message_b)()) == message_b


def _the_message(loaded):
    if loaded.kind == "run_metadata":
        return loaded.run_metadata[0].run_metadata
    return loaded.graphs[0].graph_def


def test_binary_file_loses_nothing():
    data = (FIXTURES / "parsers" / "run_metadata.pb").read_bytes()
    message = parsers.load(FIXTURES / "parsers" / "run_metadata.pb").run_metadata[0].run_metadata
    assert isinstance(message, config_pb2.RunMetadata)
    # Same size re-serialized (map entries may come out in another order): no unknown fields.
    assert message.ByteSize() == len(data)
    assert config_pb2.RunMetadata.FromString(data) == message


SAMPLES = [
    ("parsers/functions.pb", "graphdef"),
    ("parsers/debug_info.pbtxt", "graphdef"),
    ("parsers/run_metadata.pb", "run_metadata"),
    ("parsers/run_metadata.pbtxt", "run_metadata"),
    ("parsers/saved_model_two/saved_model.pb", "saved_model"),
    ("parsers/vlog.txt", "vlog"),
    ("containers/mlp.meta", "metagraph"),
    ("containers/saved_model_mlp/saved_model.pb", "saved_model"),
    ("graphs/cond.pb", "graphdef"),
    ("graphs/cond.pbtxt", "graphdef"),
]


@pytest.mark.parametrize("name,kind", SAMPLES, ids=[s[0] for s in SAMPLES])
@pytest.mark.parametrize("new_name", ["model.pbtxt", "graph.meta", "data", "events.out.tfevents.1.x"])
def test_kind_by_content_not_extension(tmp_path, name, kind, new_name):
    source = FIXTURES / name
    if not source.exists():
        pytest.skip(f"{name} not generated yet")
    target = tmp_path / new_name
    shutil.copyfile(source, target)
    assert parsers.load(target).kind == kind


def test_events_file_by_content(tmp_path):
    source = next((FIXTURES / "parsers" / "events_dir").iterdir())
    target = tmp_path / "graph.pb"
    shutil.copyfile(source, target)
    assert parsers.load(target).kind == "events"


def test_saved_model_text(tmp_path):
    saved_model = parsers.load(FIXTURES / "parsers" / "saved_model_two")
    from engine.proto import saved_model_pb2

    message = saved_model_pb2.SavedModel(
        saved_model_schema_version=1, meta_graphs=[m.meta_graph_def for m in saved_model.meta_graphs]
    )
    (tmp_path / "saved_model.pbtxt").write_text(text_format.MessageToString(message))
    loaded = parsers.load(tmp_path)
    assert loaded.kind == "saved_model"
    assert [m.tags for m in loaded.meta_graphs] == [("serve",), ("train", "gpu")]


def test_metagraph_text(tmp_path):
    meta = parsers.load(FIXTURES / "parsers" / "saved_model_two").meta_graphs[0].meta_graph_def
    (tmp_path / "x.txt").write_text(text_format.MessageToString(meta))
    loaded = parsers.load(tmp_path / "x.txt")
    assert loaded.kind == "metagraph"
    assert loaded.meta_graphs[0].meta_graph_def == meta


def test_graph_with_only_a_function_library(tmp_path):
    graph = parsers.load(FIXTURES / "parsers" / "functions.pb").graphs[0].graph_def
    only_library = graph_pb2.GraphDef(library=graph.library)
    (tmp_path / "lib.pb").write_bytes(only_library.SerializeToString())
    loaded = parsers.load(tmp_path / "lib.pb")
    assert loaded.kind == "graphdef"
    assert loaded.graphs[0].graph_def == only_library
