"""TensorBoard's own view of a log directory we wrote, read the way its server reads it.

The runs come from TensorBoard's EventMultiplexer; graphs and run metadata through its graphs
plugin (the code behind the Graphs dashboard); every other tag through its data provider, by
the plugin the tag belongs to. A tag of a kind this check does not know fails it, so the check
grows with what the tool writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from google.protobuf import text_format

from engine.proto import config_pb2, graph_pb2

EXPERIMENT = ""
_DOWNSAMPLE = 10**6


@dataclass
class RunSeen:
    """What TensorBoard shows of one run."""

    graph: graph_pb2.GraphDef | None = None
    run_metadata: dict = field(default_factory=dict)   # tag -> RunMetadata
    scalars: dict = field(default_factory=dict)        # tag -> [(step, value)]
    histograms: dict = field(default_factory=dict)     # tag -> [(step, array of buckets)]
    images: dict = field(default_factory=dict)         # tag -> [(step, [blob bytes])]
    texts: dict = field(default_factory=dict)          # tag -> [(step, array)]


def read_logdir(logdir) -> dict[str, RunSeen]:
    """{run name: RunSeen} as TensorBoard 2.x loads `logdir`; fails on anything it cannot load."""
    from tensorboard import context
    from tensorboard.backend.event_processing import data_provider, plugin_event_multiplexer
    from tensorboard.plugins import base_plugin
    from tensorboard.plugins.graph import graphs_plugin, metadata as graph_metadata

    logdir = os.fspath(logdir)
    _no_false_event_files(logdir)
    multiplexer = plugin_event_multiplexer.EventMultiplexer()
    multiplexer.AddRunsFromDirectory(logdir)
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, logdir)
    ctx = context.RequestContext()
    plugin = graphs_plugin.GraphsPlugin(base_plugin.TBContext(
        data_provider=provider, logdir=logdir, multiplexer=multiplexer))
    runs = {run.run_name: RunSeen() for run in provider.list_runs(ctx, experiment_id=EXPERIMENT)}

    info = plugin.info_impl(ctx, EXPERIMENT)
    for run, entry in info.items():
        seen = runs[run]
        if entry["run_graph"]:
            text, _ = plugin.graph_impl(ctx, run, None, False, EXPERIMENT)
            seen.graph = text_format.Parse(text, graph_pb2.GraphDef())
        for tag, about in entry["tags"].items():
            if about["profile"]:
                text, _ = plugin.run_metadata_impl(ctx, EXPERIMENT, run, tag)
                seen.run_metadata[tag] = text_format.Parse(text, config_pb2.RunMetadata())

    graph_plugins = {graph_metadata.PLUGIN_NAME, graph_metadata.PLUGIN_NAME_RUN_METADATA,
                     graph_metadata.PLUGIN_NAME_RUN_METADATA_WITH_GRAPH,
                     graph_metadata.PLUGIN_NAME_KERAS_MODEL,
                     graph_metadata.PLUGIN_NAME_TAGGED_RUN_METADATA}
    kinds = {name for tags in multiplexer.AllSummaryMetadata().values()
             for metadata in tags.values() for name in [metadata.plugin_data.plugin_name]}
    unknown = kinds - graph_plugins - {"scalars", "histograms", "images", "text"}
    assert not unknown, f"tags of kinds this check does not read yet: {sorted(unknown)}"
    if "scalars" in kinds:
        scalars = provider.read_scalars(ctx, experiment_id=EXPERIMENT, plugin_name="scalars",
                                        downsample=_DOWNSAMPLE)
        for run, tags in scalars.items():
            for tag, points in tags.items():
                runs[run].scalars[tag] = [(p.step, p.value) for p in points]
    for name, attribute in (("histograms", "histograms"), ("text", "texts")):
        if name in kinds:
            tensors = provider.read_tensors(ctx, experiment_id=EXPERIMENT, plugin_name=name,
                                            downsample=_DOWNSAMPLE)
            for run, tags in tensors.items():
                for tag, points in tags.items():
                    getattr(runs[run], attribute)[tag] = [(p.step, p.numpy) for p in points]
    if "images" in kinds:
        images = provider.read_blob_sequences(ctx, experiment_id=EXPERIMENT,
                                              plugin_name="images", downsample=_DOWNSAMPLE)
        for run, tags in images.items():
            for tag, points in tags.items():
                runs[run].images[tag] = [
                    (p.step, [provider.read_blob(ctx, blob_key=ref.blob_key) for ref in p.values])
                    for p in points]
    return runs


def _no_false_event_files(logdir):
    """TensorBoard opens any path whose name holds "tfevents" as an event file: only files may."""
    for folder, directories, _ in os.walk(logdir):
        for name in directories:
            assert "tfevents" not in name, f"a directory named like an event file: {folder}/{name}"
