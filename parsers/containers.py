"""One parsed message to a Loaded: labels for its graphs, runs and meta graphs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from parsers.loaded import LabeledGraph, Loaded, MetaGraph, TaggedRun


def graph_device(graph_def):
    """The device most of a graph's nodes are on ("" when none are placed).

    >>> from engine.proto import graph_pb2
    >>> graph = graph_pb2.GraphDef()
    >>> graph.node.add(name="a", op="NoOp", device="/device:CPU:0").name
    'a'
    >>> graph_device(graph)
    '/device:CPU:0'
    """
    devices = Counter(node.device for node in graph_def.node if node.device)
    return devices.most_common(1)[0][0] if devices else ""


def meta_graph_label(meta_graph_def, index):
    """A meta graph's tags, joined, or its position when it has none."""
    tags = list(meta_graph_def.meta_info_def.tags)
    return ",".join(tags) if tags else f"meta graph {index}"


def add_meta_graph(loaded, meta_graph_def, label, source):
    """Record a MetaGraphDef and, when it has one, its graph."""
    tags = tuple(meta_graph_def.meta_info_def.tags)
    loaded.meta_graphs.append(MetaGraph(label, tags, meta_graph_def, source))
    if meta_graph_def.HasField("graph_def"):
        loaded.graphs.append(LabeledGraph(label, meta_graph_def.graph_def, source))


def add_run_metadata(loaded, run_metadata, tag, source):
    """Record a RunMetadata and its partition graphs (also those of its function runs)."""
    loaded.run_metadata.append(TaggedRun(tag, run_metadata, source))
    prefix = f"{tag}: " if tag else ""
    for index, graph in enumerate(run_metadata.partition_graphs):
        device = graph_device(graph)
        label = f"{prefix}partition {index}" + (f" ({device})" if device else "")
        loaded.graphs.append(LabeledGraph(label, graph, source))
    for index, function_graphs in enumerate(run_metadata.function_graphs):
        for part, graph in enumerate(function_graphs.partition_graphs):
            label = f"{prefix}function run {index} partition {part}"
            loaded.graphs.append(LabeledGraph(label, graph, source))
        for stage in ("pre_optimization_graph", "post_optimization_graph"):
            if function_graphs.HasField(stage):
                label = f"{prefix}function run {index} {stage.replace('_', ' ')}"
                loaded.graphs.append(LabeledGraph(label, getattr(function_graphs, stage), source))


def from_message(path, kind, message):
    """A Loaded for a file holding one message of `kind` (see protobuf_files.MESSAGES)."""
    path = str(path)
    name = Path(path).name
    loaded = Loaded(path=path, kind=kind, files=[path])
    if kind == "graphdef":
        loaded.graphs.append(LabeledGraph(name, message, path))
    elif kind == "metagraph":
        add_meta_graph(loaded, message, name, path)
    elif kind == "saved_model":
        for index, meta_graph_def in enumerate(message.meta_graphs):
            label = meta_graph_label(meta_graph_def, index)
            add_meta_graph(loaded, meta_graph_def, label, f"{path} meta graph {index}")
    elif kind == "run_metadata":
        add_run_metadata(loaded, message, "", path)
    else:
        raise ValueError(f"unknown message kind: {kind!r}")
    return loaded
