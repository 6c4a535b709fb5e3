"""`graph-inspector tensorboard INPUT... --logdir DIR`: anything we read, as TensorBoard runs.

Each input becomes a run directory `DIR/<input name>` holding one event file written by the
engine's FileWriter: its graph (a run's partition graphs merged into one) and each of its runs
as tagged run metadata. A RunMetadata given with the graph it ran (`tensorboard graph.pb
run_metadata.pb`, its step stats naming that graph's nodes) goes into the graph's run, as
TensorFlow's FileWriter writes a graph and its add_run_metadata: TensorBoard's graph view
then colours the graph by compute time and memory. An input with more graphs (a VLOG log's
dumps, a dump directory's passes) gets a run directory per further graph beneath its own.
Every run directory is written beside its place and renamed into it when complete, replacing
what this command wrote there before. Then: `tensorboard --logdir DIR`.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from engine.proto import graph_pb2
from inspector import inputs
from inspector.cmd_trace import step_of
from parsers.errors import InputError
from parsers.printable import printable
from views import outputs

# Labels parsers give the graphs that come out of a RunMetadata (parsers/containers.py).
_RUN_GRAPH_LABEL = re.compile(r"^(?:.*: )?(?:partition \d+|function run \d+ )")
# TensorBoard opens any path whose name holds "tfevents" as an event file (io_wrapper).
_EVENTS_MARK = re.compile("tfevents", re.IGNORECASE)
# A RunMetadata joins a graph's run when at least this share of the nodes it timed are there.
MATCH_SHARE = 0.5


def add_arguments(parser):
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="graphs, meta graphs, SavedModels, RunMetadata, events, VLOG logs;"
                             " a RunMetadata given with the graph it ran joins the graph's run")
    parser.add_argument("--logdir", required=True, metavar="DIR",
                        help="the TensorBoard log directory to write (created if missing)")


def slug(text):
    """A run directory's name: no separators, never hidden, never read as an event file.

    >>> slug("run.pb"), slug("step 1: partition 0 (CPU:0)"), slug("..")
    ('run.pb', 'step_1_partition_0_CPU_0', 'input')
    >>> slug("events.out.tfevents.1700000000.host_meta_graph")
    'events.out.tf-events.1700000000.host_meta_graph'
    """
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_.")[:80].strip("_.")
    return _EVENTS_MARK.sub("tf-events", name) or "input"


def merged_partitions(run_metadata):
    """One GraphDef holding every partition graph's nodes (names are unique across them)."""
    merged, seen = graph_pb2.GraphDef(), set()
    for graph in run_metadata.partition_graphs:
        for node in graph.node:
            if node.name not in seen:
                seen.add(node.name)
                merged.node.add().CopyFrom(node)
        if graph.HasField("versions") and not merged.HasField("versions"):
            merged.versions.CopyFrom(graph.versions)
    return merged


@dataclass
class RunDirectory:
    """What goes into one TensorBoard run: a graph, its runs (tag, RunMetadata, step), and
    further graphs in sub-runs."""

    name: str
    graph: object = None
    runs: list = field(default_factory=list)
    extra: list = field(default_factory=list)  # (label, GraphDef)
    sources: list = field(default_factory=list)


def timed_names(run_metadata):
    """The node names a run's step stats timed."""
    return {stats.node_name for dev in run_metadata.step_stats.dev_stats
            for stats in dev.node_stats if not stats.node_name.startswith("_SOURCE")}


def share_in(graph_def, run_metadata):
    """Which share of the nodes a run timed are nodes of `graph_def` (0 without step stats)."""
    names = timed_names(run_metadata)
    if not names or graph_def is None:
        return 0.0
    return len(names & {node.name for node in graph_def.node}) / len(names)


def run_name(path):
    """The run directory an input gets, from its resolved name (so `..` is named, not used)."""
    return slug(os.path.basename(os.path.realpath(path)) if path != inputs.STDIN else "stdin")


def check_targets(logdir, paths):
    """Before any input is read: no run directory may be, or hold, one of the inputs."""
    for path in paths:
        target = os.path.join(logdir, run_name(path))
        for source in paths:
            if source != inputs.STDIN and outputs.is_inside(source, target):
                raise InputError(target, f"would replace the input {source}; choose another"
                                         f" --logdir")


def plan(paths):
    """RunDirectories for the inputs, in input order: each input its own run, except a
    RunMetadata file that ran one of the graphs given (before or after it), which joins that
    graph's run."""
    loaded = [(path, inputs.load(path)) for path in paths]
    directories, alone = {}, []
    for number, (path, found) in enumerate(loaded):
        runs = [(tagged.tag, tagged.run_metadata) for tagged in found.run_metadata]
        if found.kind == "run_metadata":
            alone.append((number, path, runs))
            continue
        # Partition graphs of runs travel inside their run metadata; the rest are graphs.
        graphs = [g for g in found.graphs if not _RUN_GRAPH_LABEL.match(g.label)]
        if not graphs and not runs:
            raise InputError(path, f"nothing TensorBoard can show in this {found.kind}")
        directories[number] = RunDirectory(
            "", graphs[0].graph_def if graphs else None, runs,
            [(g.label, g.graph_def) for g in graphs[1:]], [path])
    for number, path, runs in alone:
        host = _graph_run_of(list(directories.values()), runs[-1][1])
        if host is not None:
            tag = slug(os.path.basename(os.path.normpath(path)))
            host.runs.extend((t or tag, run_metadata) for t, run_metadata in runs)
            host.sources.append(path)
        else:  # its graphs are its partitions: one merged graph the run metadata lies over
            directories[number] = RunDirectory("", merged_partitions(runs[-1][1]), runs, [],
                                               [path])
    used = set()
    for _, directory in sorted(directories.items()):
        name = run_name(directory.sources[0])
        while name in used:
            name += "_"
        used.add(name)
        directory.name = name
    return [directory for _, directory in sorted(directories.items())]


def _graph_run_of(directories, run_metadata):
    """The run directory whose graph this run timed (most of its nodes there), or None."""
    best = max(directories, key=lambda d: share_in(d.graph, run_metadata), default=None)
    if best is not None and share_in(best.graph, run_metadata) >= MATCH_SHARE:
        return best
    return None


def is_our_run(folder):
    """Whether a run directory holds only what this command writes: event files, and
    sub-run directories of event files (so it may be replaced)."""
    for _, directories, files in os.walk(folder):
        if any("tfevents" not in name for name in files):
            return False
        if any(_EVENTS_MARK.search(name) for name in directories):
            return False
    return True


def write(directory, run_dir):
    """The event files of one RunDirectory, into `run_dir` (a fresh, empty directory)."""
    from engine.framework import errors

    try:
        return _write(directory, run_dir)
    except errors.OpError as error:  # the FileWriter's full disk, as TensorFlow words it
        # an OSError, for outputs.replacing_directory to clean up after and name the run
        raise OSError(error.message.rpartition("; ")[2]) from None


def _write(directory, run_dir):
    from engine.summary import FileWriter

    with FileWriter(run_dir, graph=directory.graph) as writer:
        tags = set()
        for index, (tag, run_metadata) in enumerate(directory.runs):
            tag = tag or f"run {index}"
            while tag in tags:
                tag += "'"
            tags.add(tag)
            writer.add_run_metadata(run_metadata, tag, global_step=step_of(tag))
    for index, (label, graph_def) in enumerate(directory.extra, start=1):
        FileWriter(os.path.join(run_dir, f"{index:02d}_{slug(label)}"), graph=graph_def).close()
    return 1 + len(directory.extra)


def run(args):
    logdir = outputs.check_output_dir(args.logdir, inputs=args.inputs)
    check_targets(logdir, args.inputs)
    directories = plan(args.inputs)
    totals = [0, 0, 0]
    for directory in directories:
        target = os.path.join(logdir, directory.name)
        with outputs.replacing_directory(target, replaceable=is_our_run) as staging:
            totals[0] += write(directory, staging)
        totals[1] += (directory.graph is not None) + len(directory.extra)
        totals[2] += len(directory.runs)
    print(printable(f"wrote {totals[0]} TensorBoard runs ({totals[1]} graphs, {totals[2]} run "
                    f"metadata) to {logdir}: tensorboard --logdir {logdir}"), file=sys.stderr)
    return 0
