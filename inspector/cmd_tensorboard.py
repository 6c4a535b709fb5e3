"""`graph-inspector tensorboard INPUT... --logdir DIR`: anything we read, as TensorBoard runs.

Each input becomes a run directory `DIR/<input name>` holding one event file written by the
engine's FileWriter: its graph (a run's partition graphs merged into one, so TensorBoard's
graph view lays the run metadata over it) and each of its runs as tagged run metadata. An
input with more graphs (a VLOG log's dumps, a dump directory's passes) gets a run directory
per further graph beneath its own, so TensorBoard lists each one. Then:
`tensorboard --logdir DIR`.
"""

from __future__ import annotations

import os
import re
import sys

import parsers
from engine.proto import graph_pb2
from engine.summary import FileWriter
from inspector.cmd_trace import step_of
from parsers.errors import InputError

# Labels parsers give the graphs that come out of a RunMetadata (parsers/containers.py).
_RUN_GRAPH_LABEL = re.compile(r"^(?:.*: )?(?:partition \d+|function run \d+ )")


def add_arguments(parser):
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="graphs, meta graphs, SavedModels, RunMetadata, events, VLOG logs")
    parser.add_argument("--logdir", required=True, metavar="DIR",
                        help="the TensorBoard log directory to write (created if missing)")


def slug(text):
    """A name fit for a directory.

    >>> slug("run.pb"), slug("step 1: partition 0 (CPU:0)")
    ('run.pb', 'step_1_partition_0_CPU_0')
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:80] or "input"


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


def write_input(path, logdir, used):
    """Event files for one input under `logdir`; returns (run directories, graphs, runs)."""
    loaded = parsers.load(path)
    name = slug(os.path.basename(os.path.normpath(path)))
    while name in used:
        name += "_"
    used.add(name)
    run_dir = os.path.join(logdir, name)
    if loaded.kind == "run_metadata":
        # Its graphs are its partitions: one merged graph the run metadata lies over.
        primary = merged_partitions(loaded.run_metadata[-1].run_metadata)
        extra = []
    else:
        # Partition graphs of runs travel inside their run metadata; the rest are graphs.
        graphs = [g for g in loaded.graphs if not _RUN_GRAPH_LABEL.match(g.label)]
        primary = graphs[0].graph_def if graphs else None
        extra = [(g.label, g.graph_def) for g in graphs[1:]]
    if primary is None and not loaded.run_metadata:
        raise InputError(path, f"nothing TensorBoard can show in this {loaded.kind}")
    directories = [run_dir]
    with FileWriter(run_dir, graph=primary) as writer:
        tags = set()
        for index, tagged in enumerate(loaded.run_metadata):
            tag = tagged.tag or f"run {index}"
            while tag in tags:
                tag += "'"
            tags.add(tag)
            writer.add_run_metadata(tagged.run_metadata, tag, global_step=step_of(tagged.tag))
    for index, (label, graph_def) in enumerate(extra, start=1):
        sub = os.path.join(run_dir, f"{index:02d}_{slug(label)}")
        FileWriter(sub, graph=graph_def).close()
        directories.append(sub)
    return directories, (primary is not None) + len(extra), len(loaded.run_metadata)


def run(args):
    used = set()
    totals = [0, 0, 0]
    for path in args.inputs:
        try:
            directories, graphs, runs = write_input(path, args.logdir, used)
        except OSError as error:
            raise InputError(args.logdir, error.strerror or str(error)) from None
        totals[0] += len(directories)
        totals[1] += graphs
        totals[2] += runs
    print(f"wrote {totals[0]} TensorBoard runs ({totals[1]} graphs, {totals[2]} run metadata) "
          f"to {args.logdir}: tensorboard --logdir {args.logdir}", file=sys.stderr)
    return 0
