"""TensorBoard event files: the graphs, meta graphs and tagged run metadata among their events,
and the graphs TF2 writes as summaries (parsers/tensorboard_graphs.py)."""

from __future__ import annotations

from collections import Counter

from engine.proto import config_pb2, event_pb2, graph_pb2, meta_graph_pb2
from parsers import containers, tensorboard_graphs, tfrecord
from parsers.errors import InputError
from parsers.loaded import LabeledGraph, Loaded
from parsers.protobuf_files import parse_message


def read_events_file(loaded, path, display):
    """Add one events file's contents to `loaded`; `display` names it in labels."""
    counts = Counter(loaded.event_counts)
    plugins_by_tag = {}  # a summary tag's plugin, named by its first value
    try:
        for index, offset, data in tfrecord.read_records(path):
            where = f"record {index} (byte {offset})"
            event = parse_message(path, data, event_pb2.Event, where)
            kind = event.WhichOneof("what") or "empty"
            if index == 0 and not _looks_like_an_event(event, kind):
                raise InputError(path, f"{where}: a TFRecord file, but not TensorBoard events "
                                       "(its first record has no wall_time, file_version or "
                                       "event: tf.train.Examples?)")
            counts[kind] += 1
            _add_event(loaded, path, display, where, event, kind)
            if kind == "summary":
                tensorboard_graphs.add_summary_graphs(loaded, path, display, where, event, plugins_by_tag)
    except tfrecord.TruncatedRecord as error:
        if error.index == 0:
            raise InputError(path, f"{error}: no whole record to read") from None
        # As TensorBoard does with a file still being written: keep the whole records.
        loaded.notes.append(f"{display}: {error}; read the {error.index} whole records before it")
    except tfrecord.RecordError as error:
        raise InputError(path, str(error)) from None
    except OSError as error:
        raise InputError(path, error.strerror or str(error)) from None
    loaded.event_counts = dict(counts)
    loaded.files.append(str(path))


def _looks_like_an_event(event, kind):
    """Whether a first record is an Event: a writer's first event has its wall_time and
    file_version. Other records (a tf.train.Example) often parse as an Event too, all their
    fields unknown to it, and would be counted as empty events."""
    return bool(event.wall_time or event.step or event.file_version or kind != "empty")


def _add_event(loaded, path, display, where, event, kind):
    source = f"{path} {where}"
    label = f"{display}: {kind.replace('_def', '')}, step {event.step}"
    if kind == "graph_def":
        graph = parse_message(path, event.graph_def, graph_pb2.GraphDef, f"{where} graph_def")
        loaded.graphs.append(LabeledGraph(label, graph, source))
    elif kind == "meta_graph_def":
        meta = parse_message(path, event.meta_graph_def, meta_graph_pb2.MetaGraphDef, f"{where} meta_graph_def")
        containers.add_meta_graph(loaded, meta, label, source)
    elif kind == "tagged_run_metadata":
        tagged = event.tagged_run_metadata
        run = parse_message(path, tagged.run_metadata, config_pb2.RunMetadata, f"{where} run_metadata")
        containers.add_run_metadata(loaded, run, tagged.tag, source)


def load_events(path, files):
    """A Loaded of kind "events" from (file path, display name) pairs, read in order."""
    loaded = Loaded(path=str(path), kind="events")
    for file_path, display in files:
        read_events_file(loaded, file_path, display)
    return loaded
