"""What a reader found in a path: graphs, runs, meta graphs, signatures, and which kind it was."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.proto import config_pb2, graph_pb2, meta_graph_pb2

# Every kind `parsers.load` answers with; `info --json` prints the same words.
KINDS = ("graphdef", "metagraph", "saved_model", "events", "run_metadata", "vlog", "dump_dir",
         "directory", "checkpoint", "keras")


@dataclass(frozen=True)
class LabeledGraph:
    """One GraphDef and where it came from.

    label: what to call it in a list of graphs (a file name, a pass name, "partition 0 (CPU:0)",
    a meta graph's tags, an event's step); source: the file it was read from, with the record or
    meta graph inside it where that matters.
    """

    label: str
    graph_def: graph_pb2.GraphDef
    source: str


@dataclass(frozen=True)
class TaggedRun:
    """One RunMetadata (step stats, partition graphs, cost graph) under its tag.

    tag: the TaggedRunMetadata tag from an events file, "" for a RunMetadata file.
    """

    tag: str
    run_metadata: config_pb2.RunMetadata
    source: str


@dataclass(frozen=True)
class MetaGraph:
    """One MetaGraphDef: from a .meta file, a SavedModel, or a meta_graph_def event."""

    label: str
    tags: tuple[str, ...]
    meta_graph_def: meta_graph_pb2.MetaGraphDef
    source: str


@dataclass(frozen=True)
class Signature:
    """One SignatureDef, named by its key, in the meta graph labelled `meta_graph`."""

    meta_graph: str
    key: str
    signature_def: meta_graph_pb2.SignatureDef


@dataclass
class Loaded:
    """Everything read from one path, in the order the path holds it.

    kind: one of KINDS, decided by content. graphs: every GraphDef (for a RunMetadata, its
    partition graphs; for a meta graph or SavedModel, each meta graph's graph_def; for a dump
    directory, one per pass in pass order). run_metadata: every RunMetadata. meta_graphs: every
    MetaGraphDef. event_counts: for events, how many events of each kind ("graph_def",
    "summary", ...). files: the files read, in order. checkpoint: a checkpoint's variables
    (parsers.checkpoint.Checkpoint), for a checkpoint or a SavedModel with variables; a Keras
    model's weights (parsers.keras_weights.KerasWeights, read the same way).
    notes: what was cut short (the last, partly written record of an events file). skipped:
    (file, why) for each file of a directory that could not be read as anything.
    """

    path: str
    kind: str
    graphs: list[LabeledGraph] = field(default_factory=list)
    run_metadata: list[TaggedRun] = field(default_factory=list)
    meta_graphs: list[MetaGraph] = field(default_factory=list)
    event_counts: dict[str, int] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    checkpoint: object | None = None
    notes: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    _functions: object = field(default=None, repr=False, compare=False)

    @property
    def functions(self):
        """The FunctionLibrary of every graph's library (parsers/functions.py), made once."""
        if self._functions is None:
            from parsers.functions import FunctionLibrary
            op_defs = {op.name: op for meta in self.meta_graphs
                       for op in meta.meta_graph_def.meta_info_def.stripped_op_list.op}
            self._functions = FunctionLibrary(self.graphs, op_defs)
        return self._functions

    @property
    def signatures(self) -> list[Signature]:
        """Every meta graph's signatures, in meta graph order, keys sorted."""
        return [
            Signature(meta.label, key, meta.meta_graph_def.signature_def[key])
            for meta in self.meta_graphs
            for key in sorted(meta.meta_graph_def.signature_def)
        ]
