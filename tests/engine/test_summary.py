"""tf.summary: event files the engine writes, read back by our parser and by TensorBoard."""

import os
import re
import socket
import struct

import numpy as np
import pytest

import engine as tf
import parsers
from engine.proto import event_pb2, summary_pb2
from engine.summary.record_writer import frame, masked_crc32c
from parsers import tfrecord

FULL_TRACE = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)


def build_and_log(logdir, steps=3):
    """A small graph with two scalar summaries, run `steps` times into a FileWriter."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, name="x")
        loss = tf.square(x, name="square")
        with tf.name_scope("train"):
            tf.summary.scalar("loss", loss)
        tf.summary.scalar("input", x)
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            writer = tf.summary.FileWriter(logdir, sess.graph)
            for step in range(steps):
                metadata = tf.RunMetadata()
                summary = sess.run(merged, {x: float(step)}, options=FULL_TRACE,
                                   run_metadata=metadata)
                writer.add_summary(summary, step)
                writer.add_run_metadata(metadata, f"step{step}", global_step=step)
            writer.close()
    return graph, writer


def events_of(path):
    return [event_pb2.Event.FromString(data) for _, _, data in tfrecord.read_records(path)]


def test_event_file_name_and_first_event(tmp_path):
    _, writer = build_and_log(tmp_path)
    (name,) = os.listdir(tmp_path)
    assert re.fullmatch(rf"events\.out\.tfevents\.\d{{10}}\.{re.escape(socket.gethostname())}",
                        name)
    assert writer.path == str(tmp_path / name)
    events = events_of(tmp_path / name)
    assert events[0].file_version == "brain.Event:2" and events[0].wall_time > 0
    kinds = [e.WhichOneof("what") for e in events]
    assert kinds == ["file_version", "graph_def", "meta_graph_def"] + ["summary",
                                                                        "tagged_run_metadata"] * 3


def test_our_parser_reads_the_graph_and_the_runs_back(tmp_path):
    graph, _ = build_and_log(tmp_path)
    loaded = parsers.load(tmp_path)
    assert loaded.kind == "events"
    first = loaded.graphs[0].graph_def
    assert {n.name for n in first.node} == {op.name for op in graph.get_operations()}
    assert [run.tag for run in loaded.run_metadata] == ["step0", "step1", "step2"]
    stats = loaded.run_metadata[0].run_metadata.step_stats
    assert "square" in {n.node_name for d in stats.dev_stats for n in d.node_stats}
    assert loaded.event_counts["summary"] == 3


def test_scalars_and_steps_in_the_events(tmp_path):
    build_and_log(tmp_path)
    (name,) = os.listdir(tmp_path)
    summaries = [(e.step, {v.tag: v.simple_value for v in e.summary.value})
                 for e in events_of(tmp_path / name) if e.HasField("summary")]
    assert summaries == [(0, {"train/loss": 0.0, "input": 0.0}),
                         (1, {"train/loss": 1.0, "input": 1.0}),
                         (2, {"train/loss": 4.0, "input": 2.0})]


def test_scalar_names_its_op_after_the_scope_and_collects_it():
    graph = tf.Graph()
    with graph.as_default():
        value = tf.constant(2.5)
        first = tf.summary.scalar("loss", value)
        second = tf.summary.scalar("loss", value)
        assert (first.op.name, first.op.type, second.op.name) == ("loss", "ScalarSummary", "loss_1")
        assert first.dtype == tf.string
        assert graph.get_collection(tf.GraphKeys.SUMMARIES) == [first, second]
        assert tf.summary.merge_all().op.type == "MergeSummary"
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag loss"):
                sess.run(tf.summary.merge([first, first]))
            serialized = sess.run(tf.summary.merge([first, second]))
    summary = summary_pb2.Summary.FromString(serialized)
    assert [(v.tag, v.simple_value) for v in summary.value] == [("loss", 2.5), ("loss_1", 2.5)]


def test_merge_all_without_summaries_is_none():
    with tf.Graph().as_default():
        assert tf.summary.merge_all() is None


def test_summary_writer_is_file_writer_and_takes_graph_defs(tmp_path):
    assert tf.train.SummaryWriter is tf.summary.FileWriter
    graph = tf.Graph()
    with graph.as_default():
        tf.constant(1.0, name="c")
    with tf.train.SummaryWriter(str(tmp_path), graph_def=graph.as_graph_def()) as writer:
        writer.add_summary(summary_pb2.Summary(value=[summary_pb2.Summary.Value(
            tag="t", simple_value=1.0)]), global_step=7)
    loaded = parsers.load(tmp_path)
    assert [n.name for n in loaded.graphs[0].graph_def.node] == ["c"]


def test_a_run_metadata_tag_is_used_once(tmp_path):
    with tf.summary.FileWriter(tmp_path) as writer:
        writer.add_run_metadata(tf.RunMetadata(), "a")
        with pytest.raises(ValueError, match="already used"):
            writer.add_run_metadata(tf.RunMetadata(), "a")


def test_framing_matches_our_reader():
    assert masked_crc32c(b"") == tfrecord.masked_crc(b"") == 0xA282EAD8
    data = b"graph inspector" * 10
    record = frame(data)
    (length,) = struct.unpack_from("<Q", record)
    assert length == len(data) and record[12:-4] == data
    assert tfrecord.looks_like_tfrecord(record)
    assert struct.unpack_from("<I", record, len(record) - 4)[0] == tfrecord.masked_crc(data)


def test_scalar_summary_kernel_checks_shapes():
    from engine.kernels.cpu.summary import scalar_summary

    out = scalar_summary(None, np.array([b"a", b"b"], dtype=object), np.array([1.0, 2.0]))
    summary = summary_pb2.Summary.FromString(out.item())
    assert [(v.tag, v.simple_value) for v in summary.value] == [("a", 1.0), ("b", 2.0)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not the same shape"):
        scalar_summary(None, np.array(b"a", dtype=object), np.array([1.0, 2.0]))


def test_tensorboards_own_loader_reads_our_files(tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing import event_accumulator

    build_and_log(tmp_path)
    accumulator = event_accumulator.EventAccumulator(str(tmp_path))
    accumulator.Reload()
    tags = accumulator.Tags()
    assert tags["graph"] and tags["meta_graph"]
    assert sorted(tags["run_metadata"]) == ["step0", "step1", "step2"]
    assert len(accumulator.Graph().node) > 0
    metadata = accumulator.RunMetadata("step1")
    assert metadata.step_stats.dev_stats
    assert [(e.step, e.value) for e in accumulator.Scalars("train/loss")] == [
        (0, 0.0), (1, 1.0), (2, 4.0)]


def test_a_logdir_under_a_file_is_tensorflows_error(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(tf.errors.FailedPreconditionError, match=f"^{tmp_path}/file is not a directory$"):
        tf.summary.FileWriter(str(tmp_path / "file" / "logs"))  # TensorFlow 2.21's words


def test_a_full_disk_is_one_error_naming_the_event_file(tmp_path, monkeypatch):
    """Events written to /dev/full: ResourceExhaustedError naming the file, raised by the write
    that meets it (TensorFlow 2.21 drops them without a word); close() still closes."""
    import engine.summary.writer as writer_module

    monkeypatch.setattr(writer_module, "open", lambda path, mode: open("/dev/full", mode),
                        raising=False)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=r"events\.out\.tfevents\.[^;]*; "
                                                               r"No space left on device$"):
        tf.summary.FileWriter(str(tmp_path / "logs"))
    monkeypatch.undo()
    writer = tf.summary.FileWriter(str(tmp_path / "logs"), max_queue=1000)
    monkeypatch.setattr(writer._records, "_stream", open("/dev/full", "wb"))
    writer.add_graph(graph_def=tf.GraphDef())
    with pytest.raises(tf.errors.ResourceExhaustedError, match="No space left on device"):
        writer.close()
    writer.close()  # closed already: nothing more to say
    assert writer._records.closed
