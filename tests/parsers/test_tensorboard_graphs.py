"""TF2 TensorBoard logdirs: trace_export's function graphs and Keras's conceptual graph open as
graphs, checked against the RunMetadata TensorFlow wrote and TensorBoard's own graph plugin."""

import json

import pytest

import parsers
from engine.proto import config_pb2, event_pb2, summary_pb2
from engine.summary.record_writer import frame
from parsers_testing import FIXTURES
from parsers import tfrecord

TF2 = FIXTURES / "tf2"


def summary_values(logdir):
    """(step, Summary.Value) of every summary in a logdir's events files, in order."""
    found = []
    for path in sorted(logdir.rglob("events.out.tfevents.*")):
        for _, _, data in tfrecord.read_records(path):
            event = event_pb2.Event.FromString(data)
            found += [(event.step, value) for value in event.summary.value]
    return found


def write_events(path, values, step=0):
    """An events file of one file_version event and one summary event per Summary.Value."""
    events = [event_pb2.Event(wall_time=1.0, file_version="brain.Event:2")]
    events += [event_pb2.Event(wall_time=2.0, step=step, summary=summary_pb2.Summary(value=[v])) for v in values]
    path.write_bytes(b"".join(frame(event.SerializeToString()) for event in events))
    return path


def blob_value(tag, plugin, data):
    value = summary_pb2.Summary.Value(tag=tag)
    if plugin:
        value.metadata.plugin_data.plugin_name = plugin
        value.metadata.plugin_data.content = b"1"
    value.tensor.dtype = 7
    value.tensor.string_val.append(data)
    return value


def trace_run_metadata():
    [(_, value)] = summary_values(TF2 / "logdir_trace")
    return config_pb2.RunMetadata.FromString(value.tensor.string_val[0])


def test_trace_export_opens_as_each_function_graph_before_and_after_grappler():
    loaded = parsers.load(TF2 / "logdir_trace")
    run = trace_run_metadata()
    expected = []
    for number, function_graphs in enumerate(run.function_graphs):
        expected += [(f"affine_relu function {number} pre-optimization", function_graphs.pre_optimization_graph),
                     (f"affine_relu function {number} post-optimization", function_graphs.post_optimization_graph)]
    assert [g.label.split(": ", 1)[1] for g in loaded.graphs] == [f"{label}, step 0" for label, _ in expected]
    assert [g.graph_def for g in loaded.graphs] == [graph for _, graph in expected]
    assert {"MatMul", "AddV2", "Relu", "Sum"} <= {n.op for n in loaded.graphs[0].graph_def.node}
    assert loaded.run_metadata == []  # a graph trace: no step stats to show


def test_the_pre_optimization_graphs_are_the_ones_tensorboard_merges():
    graph_util = pytest.importorskip("tensorboard.plugins.graph.graph_util")
    from tensorboard.compat.proto import graph_pb2 as tb_graph_pb2
    run = trace_run_metadata()
    merged = graph_util.merge_graph_defs([tb_graph_pb2.GraphDef.FromString(
        f.pre_optimization_graph.SerializeToString()) for f in run.function_graphs])
    ours = [g.graph_def for g in parsers.load(TF2 / "logdir_trace").graphs if "pre-optimization" in g.label]
    assert [node.name for node in merged.node] == [
        f"graph_{number + 1}/{node.name}" for number, graph in enumerate(ours) for node in graph.node]


@pytest.mark.parametrize("logdir", ["logdir_fit", "logdir_fit_tf_keras"])
def test_the_keras_callbacks_model_is_tensorboards_conceptual_graph(logdir):
    keras_util = pytest.importorskip("tensorboard.plugins.graph.keras_util")
    [value] = [v for _, v in summary_values(TF2 / logdir) if v.metadata.plugin_data.plugin_name == "graph_keras_model"]
    theirs = keras_util.keras_model_to_graph_def(json.loads(value.tensor.string_val[0]))
    loaded = parsers.load(TF2 / logdir)
    [keras] = [g for g in loaded.graphs if ": keras " in g.label]
    assert keras.label == "train/events.out.tfevents.1700000000.graph-inspector.v2: keras keras_cnn (Functional), step 0"
    assert [n.name for n in keras.graph_def.node] == [n.name for n in theirs.node]
    if logdir == "logdir_fit":  # tf_keras writes a Keras 2 config: TensorBoard draws no edges
        assert [list(n.input) for n in keras.graph_def.node] == [list(n.input) for n in theirs.node]
    else:
        assert not any(n.input for n in theirs.node)
    assert [list(n.input) for n in keras.graph_def.node] == [
        [], ["keras_cnn/image"], ["keras_cnn/conv"], ["keras_cnn/pool"], ["keras_cnn/flatten"]]
    assert [n.op for n in keras.graph_def.node] == ["InputLayer", "Conv2D", "MaxPooling2D", "Flatten", "Dense"]


def test_tf_keras_logdir_has_both_the_conceptual_and_the_op_graph():
    loaded = parsers.load(TF2 / "logdir_fit_tf_keras")
    assert [g.label.split(": ", 1)[1] for g in loaded.graphs] == [
        "keras keras_cnn (Functional), step 0", "graph, step 0"]
    assert len(loaded.graphs[1].graph_def.node) == 163


def test_a_profiled_trace_is_a_run_too(tmp_path):
    """trace_export with the profiler writes `graph_run_metadata`: graphs and step stats."""
    run = config_pb2.RunMetadata.FromString(
        (TF2 / "reference" / "keras_cnn" / "run_metadata_serve.pb").read_bytes())
    run.function_graphs.add().pre_optimization_graph.CopyFrom(trace_run_metadata().function_graphs[0].pre_optimization_graph)
    path = write_events(tmp_path / "events.out.tfevents.1", [blob_value("step", "graph_run_metadata",
                                                                         run.SerializeToString())], step=3)
    loaded = parsers.load(path)
    assert [g.label for g in loaded.graphs] == ["events.out.tfevents.1: step function 0 pre-optimization, step 3"]
    [tagged] = loaded.run_metadata
    assert tagged.tag == "step" and tagged.run_metadata.step_stats == run.step_stats


def test_a_tags_later_values_keep_the_plugin_its_first_named(tmp_path):
    data = trace_run_metadata().SerializeToString()
    path = write_events(tmp_path / "events.out.tfevents.2", [
        blob_value("trace", "graph_run_metadata_graph", data), blob_value("trace", "", data),
        blob_value("other", "", data)])
    labels = [g.label.split(": ", 1)[1] for g in parsers.load(path).graphs]
    assert labels.count("trace function 0 pre-optimization, step 0") == 2
    assert not any(label.startswith("other") for label in labels)


@pytest.mark.parametrize("plugin,data,message", [
    ("graph_run_metadata_graph", b"\xff\xff\xff", "record 1 (byte 40) summary 'bad' run_metadata: "),
    ("graph_keras_model", b"{not json", "record 1 (byte 40) summary 'bad': not JSON: "),
    ("graph_keras_model", b'{"class_name": "Functional", "config": {"layers": [{"config": {}}]}}',
     "record 1 (byte 40) summary 'bad': the model: no name"),
    ("graph_keras_model", b"[1, 2]", "record 1 (byte 40) summary 'bad': not a Keras model config"),
])
def test_a_bad_graph_summary_is_one_error_naming_it(tmp_path, run_info, plugin, data, message):
    path = write_events(tmp_path / "events.out.tfevents.3", [blob_value("bad", plugin, data)])
    code, out, err = run_info(path)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}: {message}") and err.count("\n") == 1


def test_a_graph_summary_without_its_tensor_is_one_error(tmp_path, run_info):
    value = summary_pb2.Summary.Value(tag="empty")
    value.metadata.plugin_data.plugin_name = "graph_keras_model"
    path = write_events(tmp_path / "events.out.tfevents.4", [value])
    code, _, err = run_info(path)
    assert code == 2 and err.endswith("summary 'empty': a graph_keras_model summary without its string tensor\n")


def test_info_and_dot_show_the_trace_graphs(run_info, tmp_path):
    code, out, _ = run_info(TF2 / "logdir_trace")
    assert code == 0 and "no graphs" not in out
    assert "graph 'events.out.tfevents.1700000000.graph-inspector.v2: affine_relu function 0 " \
           "pre-optimization, step 0': 12 nodes" in out
    from inspector import cli
    target = tmp_path / "trace.dot"
    assert cli.main(["dot", str(TF2 / "logdir_trace"), "--graph", "0", "-o", str(target)]) == 0
    assert 'id=MatMul ' in target.read_text()
