"""The graphs TF2 writes into TensorBoard summaries, read as TensorBoard's graph plugin reads them.

- `graph_run_metadata_graph` (tf.summary.trace_export of a graph trace) and
  `graph_run_metadata` (the same with the profiler): a RunMetadata in the summary's string
  tensor; each of its function_graphs is a graph, before and after Grappler
  (TensorBoard shows the pre-optimization ones, merged). With the profiler's step stats it
  is a run too.
- `graph_keras_model` (Keras's TensorBoard callback, write_graph=True): the model's config as
  JSON, drawn as the Keras layer graph (parsers/keras_config.py).

A value names its plugin in its metadata, which a writer may send only with a tag's first
value: the plugin of a tag without one is the one its tag had before in the file.
"""

from __future__ import annotations

from engine.proto import config_pb2
from parsers.errors import InputError
from parsers.loaded import LabeledGraph, TaggedRun
from parsers.protobuf_files import parse_message

RUN_METADATA_PLUGINS = ("graph_run_metadata_graph", "graph_run_metadata")
KERAS_MODEL_PLUGIN = "graph_keras_model"
_STAGES = (("pre_optimization_graph", "pre-optimization"), ("post_optimization_graph", "post-optimization"))


def add_summary_graphs(loaded, path, display, where, event, plugins_by_tag):
    """Add the graphs (and runs) of one summary event's graph plugin values to `loaded`."""
    for value in event.summary.value:
        plugin = value.metadata.plugin_data.plugin_name
        if plugin:
            plugins_by_tag.setdefault(value.tag, plugin)
        else:
            plugin = plugins_by_tag.get(value.tag, "")
        if plugin not in RUN_METADATA_PLUGINS and plugin != KERAS_MODEL_PLUGIN:
            continue
        value_where = f"{where} summary {value.tag!r}"
        if not value.tensor.string_val:
            raise InputError(path, f"{value_where}: a {plugin} summary without its string tensor")
        data = value.tensor.string_val[0]
        source = f"{path} {value_where}"
        if plugin == KERAS_MODEL_PLUGIN:
            _add_keras_model(loaded, path, display, value_where, value.tag, event.step, data, source)
        else:
            run = parse_message(path, data, config_pb2.RunMetadata, f"{value_where} run_metadata")
            _add_function_graphs(loaded, display, value.tag, event.step, run, source)
            if run.step_stats.dev_stats:
                loaded.run_metadata.append(TaggedRun(value.tag, run, source))


def _add_function_graphs(loaded, display, tag, step, run, source):
    for number, function_graphs in enumerate(run.function_graphs):
        for field, stage in _STAGES:
            if function_graphs.HasField(field):
                label = f"{display}: {tag} function {number} {stage}, step {step}"
                loaded.graphs.append(LabeledGraph(label, getattr(function_graphs, field), source))


def _add_keras_model(loaded, path, display, where, tag, step, data, source):
    from parsers import keras_config  # only logs with a Keras model need it

    try:
        config = keras_config.parse_config(data)
        graph = keras_config.model_graph(config)
        label = f"{display}: {tag} {keras_config.model_label(config)}, step {step}"
    except keras_config.ConfigError as error:
        raise InputError(path, f"{where}: {error}") from None
    loaded.graphs.append(LabeledGraph(label, graph, source))
