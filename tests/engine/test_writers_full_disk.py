"""The TF1 API's file writers on a full disk and where nothing can be written: TensorFlow's
error class and words naming the file (TensorFlow 2.21: ResourceExhaustedError "PATH; No space
left on device", PermissionDeniedError "PATH; Read-only file system", FailedPreconditionError
"PATH is not a directory"), never a bare OSError; a graph written over a good one leaves it
whole when the write fails. /dev/full is a real full disk: every write to it is ENOSPC."""

import builtins
import errno
from pathlib import Path

import pytest

import engine as tf

FULL = "/dev/full"
pytestmark = pytest.mark.skipif(not Path(FULL).exists(), reason="no /dev/full")


def test_gfile_on_a_full_disk():
    with pytest.raises(tf.errors.ResourceExhaustedError, match=f"^{FULL}; No space left on device$"):
        with tf.gfile.GFile(FULL, "wb") as file:
            file.write(b"x" * 100_000)


def test_a_gfile_whose_last_flush_fails_is_closed():
    file = tf.gfile.GFile(FULL, "w")
    file.write("x")
    with pytest.raises(tf.errors.ResourceExhaustedError):
        file.close()
    file.close()  # closed already


@pytest.mark.parametrize("options", [None, "ZLIB"])
def test_tf_record_writer_on_a_full_disk(options):
    writer = tf.io.TFRecordWriter(FULL, options)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=f"^{FULL}; No space left on device$"):
        try:
            for _ in range(100):
                writer.write(b"x" * 1000)
        finally:
            writer.close()  # what a full buffer or the last flush meets
    writer.close()  # closed already


def test_a_directory_under_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(tf.errors.FailedPreconditionError, match=f"^{tmp_path}/file is not a directory$"):
        tf.train.write_graph(tf.GraphDef(), str(tmp_path / "file" / "logs"), "g.pb")


@pytest.mark.parametrize("as_text", [True, False])
def test_write_graph_on_a_full_disk_keeps_the_previous_graph(tmp_path, monkeypatch, as_text):
    previous = tmp_path / "graph.pb"
    previous.write_bytes(b"a good graph")
    real_open = builtins.open

    def full_disk(path, mode="r", *args, **kwargs):
        if "w" in mode and Path(path).parent == tmp_path:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, mode, *args, **kwargs)
    graph = tf.Graph()
    with graph.as_default():
        tf.constant(1.0, name="c")
    monkeypatch.setattr(builtins, "open", full_disk)
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=f"^{previous}; No space left on device$"):
        tf.train.write_graph(graph, str(tmp_path), "graph.pb", as_text=as_text)
    monkeypatch.undo()
    assert previous.read_bytes() == b"a good graph"
    assert [p.name for p in tmp_path.iterdir()] == ["graph.pb"]  # no temporary left behind


def test_gfile_copy_on_a_full_disk_keeps_the_file_it_would_overwrite(tmp_path, monkeypatch):
    import shutil
    source, target = tmp_path / "new.bin", tmp_path / "kept.bin"
    source.write_bytes(b"new" * 1000)
    target.write_bytes(b"a good file")

    def copy_to_a_full_disk(old, new):
        Path(new).write_bytes(b"cut")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(shutil, "copyfile", copy_to_a_full_disk)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=f"^{target}; No space left on device$"):
        tf.gfile.Copy(str(source), str(target), overwrite=True)
    assert target.read_bytes() == b"a good file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.bin", "new.bin"]


def test_gfile_rename_across_devices_is_tensorflows_unimplemented(tmp_path, monkeypatch):
    import os
    source = tmp_path / "a"
    source.write_text("x")

    def cross_device(old, new):
        raise OSError(errno.EXDEV, "Invalid cross-device link")
    monkeypatch.setattr(os, "replace", cross_device)
    # TensorFlow 2.21, renaming into another mount: UnimplementedError naming the source.
    with pytest.raises(tf.errors.UnimplementedError, match=f"^{source}; Invalid cross-device link$"):
        tf.gfile.Rename(str(source), str(tmp_path / "b"))
