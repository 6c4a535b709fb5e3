"""Directories (issue 18) open as everything in them the tool reads, each file named, the
unreadable listed, links out of the tree not followed; node lists as TensorFlow read each file."""

import os
import shutil

import parsers
from parsers_testing import FIXTURES, tf_json

MLP_META = FIXTURES / "containers" / "mlp.meta"
SAVED_MODEL = FIXTURES / "containers" / "saved_model_mlp"
EVENTS_DIR = FIXTURES / "parsers" / "events_dir"
RUN_METADATA = FIXTURES / "parsers" / "run_metadata.pb"
GRAPH = FIXTURES / "graphs" / "mlp_forward.pbtxt"


def node_names(graph_def):
    return [node.name for node in graph_def.node]


def test_a_graph_beside_its_run_metadata(tmp_path):
    shutil.copy(GRAPH, tmp_path)
    shutil.copy(RUN_METADATA, tmp_path)
    loaded = parsers.load(tmp_path)
    assert loaded.kind == "directory" and loaded.skipped == []
    assert loaded.files == [str(tmp_path / "mlp_forward.pbtxt"), str(tmp_path / "run_metadata.pb")]
    labels = [graph.label for graph in loaded.graphs]
    assert labels[0] == "mlp_forward.pbtxt"
    assert labels[1].startswith("run_metadata.pb: partition 0")
    expected = tf_json(FIXTURES / "parsers" / "run_metadata.tf.json")["graphs"][0]["nodes"]
    assert node_names(loaded.graphs[1].graph_def) == [node["name"] for node in expected]
    assert [run.tag for run in loaded.run_metadata] == ["run_metadata.pb"]


def test_events_a_saved_model_and_a_meta_graph_together(tmp_path, run_info):
    shutil.copytree(SAVED_MODEL, tmp_path / "model")
    shutil.copy(MLP_META, tmp_path)
    for events_file in EVENTS_DIR.iterdir():
        shutil.copy(events_file, tmp_path)
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "model.ckpt-1.index").write_bytes(b"\x00" * 10)
    loaded = parsers.load(tmp_path)
    assert loaded.kind == "directory"
    sources = {os.path.relpath(name, tmp_path) for name in loaded.files}
    assert {"model/saved_model.pb", "mlp.meta"} <= sources
    assert sum(name.startswith("events.out") for name in sources) == len(list(EVENTS_DIR.iterdir()))
    meta = next(m for m in loaded.meta_graphs if m.label == "mlp.meta")
    assert node_names(meta.meta_graph_def.graph_def) == [n["name"] for n in tf_json(f"{MLP_META}.tf.json")["nodes"]]
    assert any(m.label == "model/saved_model.pb: serve" for m in loaded.meta_graphs)
    skipped = dict((os.path.relpath(name, tmp_path), why) for name, why in loaded.skipped)
    assert "model.ckpt-1.index" not in skipped  # parsers.checkpoint's to read
    assert skipped["notes.txt"].startswith("line 1:1: text starts with `hello`")

    code, out, _ = run_info(tmp_path)
    assert code == 0
    assert "  read model/saved_model.pb\n" in out and "  read mlp.meta\n" in out
    assert "  not read: notes.txt: line 1:1" in out


def test_a_saved_model_alone_keeps_its_kind():
    assert parsers.load(SAVED_MODEL).kind == "saved_model"


def test_links_out_of_the_directory_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(GRAPH, outside / "secret.pbtxt")
    dump = tmp_path / "dump"
    shutil.copytree(FIXTURES / "parsers" / "dump_dir", dump)
    os.symlink(outside / "secret.pbtxt", dump / "secret.pbtxt")
    os.symlink("/etc/passwd", dump / "passwd.pbtxt")
    inside = sorted(dump.iterdir())[0]
    os.symlink(inside, dump / "zz_link_inside.pbtxt")  # a link within the tree is fine
    loaded = parsers.load(dump)
    assert loaded.kind == "dump_dir"
    assert str(dump / "secret.pbtxt") not in loaded.files
    assert str(dump / "zz_link_inside.pbtxt") in loaded.files
    assert sorted(os.path.basename(name) for name, _ in loaded.skipped) == ["passwd.pbtxt", "secret.pbtxt"]
    assert {why for _, why in loaded.skipped} == {"a link out of the directory, not followed"}


def test_a_link_loop_is_named_as_one(tmp_path):
    # a link to itself and two links to each other were "a link out of the directory"
    dump = tmp_path / "dump"
    shutil.copytree(FIXTURES / "parsers" / "dump_dir", dump)
    os.symlink("self.pbtxt", dump / "self.pbtxt")
    os.symlink("b.pbtxt", dump / "a.pbtxt")
    os.symlink("a.pbtxt", dump / "b.pbtxt")
    loaded = parsers.load(dump)
    assert loaded.kind == "dump_dir"
    assert sorted((os.path.basename(name), why) for name, why in loaded.skipped) == [
        (name, "a link loop, not followed") for name in ("a.pbtxt", "b.pbtxt", "self.pbtxt")]
