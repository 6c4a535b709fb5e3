"""What the TUI shows: every graph, run and log read from the paths, indexed lazily.

A Workspace holds GraphViews (a file's graph, a run's partition graphs as one view, a graph a
VLOG dumped) and RunViews (step stats per device), plus what the detail tabs draw on: OpDefs a
meta graph carried, creation stacks (GraphDebugInfo or the live engine) and tensor values.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from views.graph_index import GraphIndex

# Labels parsers.containers gives the graphs that come out of a RunMetadata.
_RUN_GRAPH_LABEL = re.compile(r"^(?:.*: )?(?:partition \d+|function run \d+ )")


@dataclass
class GraphView:
    """One browsable graph. kind: "graph", "partitions" (a run's partition graphs), "vlog",
    "diff" (two graphs merged, `diff` saying which nodes differ: views/tui/diffs.py), or
    "function" (a function's body: views/tui/function_views.py)."""

    label: str
    graph_defs: list
    source: str
    kind: str = "graph"
    run: "RunView | None" = None
    traces: dict = field(default_factory=dict)     # node name -> StackTrace (debug_info, engine)
    values: dict = field(default_factory=dict)     # tensor name "op:0" -> ndarray (a live run)
    signatures: dict = field(default_factory=dict)  # key -> SignatureDef (a SavedModel's)
    diff: object = None                              # a views.graph_diff.GraphDiff ("diff")
    steps: tuple | None = None                       # (stages.Stages, pass number) of a pass
    # The functions of the file it came from (function_views.FileFunctions) and its label
    # among them ("serve", "function while_body_13"); None for a graph without a library.
    functions: object = None
    graph_label: str = ""
    marks: dict = field(default_factory=dict, repr=False)  # diffs.py's per-view cache
    _index: GraphIndex | None = field(default=None, repr=False)

    @property
    def index(self) -> GraphIndex:
        if self._index is None:
            if self.kind == "partitions":
                self._index = GraphIndex.of_partitions(self.graph_defs)
            else:
                self._index = GraphIndex.of_graph(self.graph_defs[0])
        return self._index

    @property
    def title(self):
        return f"{self.label} ({self.kind})" if self.kind != "graph" else self.label


@dataclass
class RunView:
    """One RunMetadata: its step stats and, where it has them, its partition graphs."""

    label: str
    run_metadata: object
    source: str
    partitions: GraphView | None = None
    table: object = field(default=None, repr=False)   # step_table.StepTable, made once, lazily
    # held while `table` is read (workers of the runs screen), so that a run is read once
    reading: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def executions(self):
        return sum(len(d.node_stats) for d in self.run_metadata.step_stats.dev_stats)


@dataclass
class StepExecution:
    """One step of a VLOG trace: node names in the order the executor ran them."""

    label: str
    nodes: list[str]
    graph: GraphView | None = None


@dataclass
class Workspace:
    graphs: list[GraphView] = field(default_factory=list)
    runs: list[RunView] = field(default_factory=list)
    executions: list[StepExecution] = field(default_factory=list)
    op_defs: dict = field(default_factory=dict)          # op type -> OpDef from stripped_op_list
    sources: list[str] = field(default_factory=list)     # the paths opened, as given
    checkpoints: list = field(default_factory=list)      # (label, parsers.checkpoint.Checkpoint)
    functions: list = field(default_factory=list)        # function_views.FileFunctions per file

    def add_loaded(self, loaded, name):
        """Add everything a parsers.Loaded holds; `name` is how to call the path (no directory)."""
        self.sources.append(name)
        run_graph_ids = set()
        for tagged in loaded.run_metadata:
            label = f"{name}: {tagged.tag}" if tagged.tag else name
            run = RunView(label, tagged.run_metadata, tagged.source)
            partitions = list(tagged.run_metadata.partition_graphs)
            if partitions:
                run.partitions = GraphView(f"{label} partitions", partitions, tagged.source,
                                           "partitions", run)
            self.runs.append(run)
        functions = None
        if any(labeled.graph_def.library.function for labeled in loaded.graphs):
            from views.tui.function_views import FileFunctions
            functions = FileFunctions(name, loaded, GraphView, loaded.path)
            self.functions.append(functions)
        for number, labeled in enumerate(loaded.graphs):
            if loaded.run_metadata and _RUN_GRAPH_LABEL.match(labeled.label):
                run_graph_ids.add(labeled.label)
                continue
            kind = "vlog" if loaded.kind == "vlog" else "graph"
            label = name if labeled.label == name else f"{name}: {labeled.label}"
            view = GraphView(label, [labeled.graph_def], labeled.source, kind)
            if functions is not None:
                view.functions = functions
                view.graph_label = functions.library.graph_labels[number]
                functions.graph_views[view.graph_label] = view
            self.graphs.append(view)
        labels = {view.label: view for view in self.graphs}
        for meta in loaded.meta_graphs:
            label = name if meta.label == name else f"{name}: {meta.label}"
            if label in labels:
                labels[label].signatures = dict(meta.meta_graph_def.signature_def)
            for op_def in meta.meta_graph_def.meta_info_def.stripped_op_list.op:
                self.op_defs.setdefault(op_def.name, op_def)
        if loaded.checkpoint is not None:  # beside a .meta: called by its own prefix
            label = name if loaded.kind in ("checkpoint", "saved_model") else \
                loaded.checkpoint.prefix.rsplit("/", 1)[-1]
            self.checkpoints.append((label, loaded.checkpoint))

    def all_views(self):
        """Every browsable view: graphs first, then each run's partitions."""
        return self.graphs + [run.partitions for run in self.runs if run.partitions]

    def trace_of(self, view, name):
        """The creation stack of node `name`: the view's own, else any graph's (a partition's
        nodes keep the names of the graph they were cut from)."""
        for candidate in [view] + self.graphs:
            trace = candidate.traces.get(name)
            if trace:
                return trace
        return None

    def value_of(self, view, tensor):
        for candidate in [view] + self.graphs:
            if tensor in candidate.values:
                return candidate.values[tensor]
        return None

    def checkpoint_holding(self, node_name):
        """(label, Checkpoint) of the first checkpoint opened that holds variable `node_name`."""
        for label, checkpoint in self.checkpoints:
            if node_name in checkpoint:
                return label, checkpoint
        return None, None

    def layer_weights(self, node_name):
        """(label, Checkpoint, [VariableInfo]) of the first checkpoint opened holding variables
        under `node_name/` (a Keras layer's weights: `model/conv/kernel`), else (None, None, [])."""
        prefix = node_name + "/"
        for label, checkpoint in self.checkpoints:
            found = [info for info in checkpoint.variables if info.name.startswith(prefix)]
            if found:
                return label, checkpoint, found
        return None, None, []

    def view_with_node(self, name, prefer=None):
        """The view (and key) holding node `name`: `prefer` first, then graphs, then partitions."""
        views = ([prefer] if prefer else []) + self.all_views()
        for view in views:
            for number in range(len(view.index.parts)):
                key = view.index.key_of(name, number)
                if key is not None:
                    return view, key
        return None, None
