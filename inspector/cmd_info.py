"""`graph-inspector info PATH [--json]`: what is in any supported input, as a summary or JSON."""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter

from inspector import cmd_info_ops, info_checkpoint, info_functions, inputs
from parsers.errors import InputError
from parsers.printable import printable
from views.attr_text import dtype_name, shape_text, summarize_attr

TOP_OPS = 8
# NodeExecStats.timeline_label reads `name = Op(inputs)`; the op is what stands before "(".
_TIMELINE_OP = re.compile(r"^.*? = ([A-Za-z0-9_.>/-]+)\(")

_KIND_TITLES = {
    "graphdef": "GraphDef",
    "metagraph": "MetaGraphDef",
    "saved_model": "SavedModel",
    "events": "TensorBoard events",
    "run_metadata": "RunMetadata",
    "dump_dir": "graph dump directory (TF_DUMP_GRAPH_PREFIX)",
    "vlog": "VLOG log",
    "checkpoint": "checkpoint",
    "directory": "directory (graphs, runs, models and logs, each named)",
    "keras": "Keras model (layer graph and weights)",
}


def add_arguments(parser):
    parser.add_argument("path", metavar="PATH", nargs="?", help="a graph, meta graph, SavedModel, "
                        "checkpoint, events, run metadata, dump, VLOG log or Keras model "
                        "(.keras, .h5); - for stdin")
    parser.add_argument("--json", action="store_true",
                        help="print everything as JSON (nodes, attrs, step stats, variables)")
    parser.add_argument("--ops", action="store_true", help="every op the engine knows and what it has (OpDef, kernels, "
                        "shape function, gradient, families), instead of a file")
    parser.add_argument("--values", metavar="NAME", help="print one checkpoint variable's values")


def run(args):
    if args.ops or args.path is None:
        return cmd_info_ops.run(args)
    loaded = inputs.load(args.path)
    if args.values is not None:
        if loaded.checkpoint is None:
            raise InputError(args.path, "holds no checkpoint variables (--values needs one)")
        if args.json:
            text = json.dumps(info_checkpoint.values_json(loaded.checkpoint, args.values), indent=1) + "\n"
        else:
            text = info_checkpoint.values_text(loaded.checkpoint, args.values)
    elif args.json:
        text = json.dumps(to_json(loaded), indent=1) + "\n"
    else:
        text = "\n".join(printable(line) for line in summary_lines(loaded)) + "\n"
    sys.stdout.write(text)
    return 0


# ---- JSON: the shape tests and scripts rely on ------------------------------------------------


def timeline_op(label):
    """The op type in a step-stats timeline label, "" when it has none.

    >>> timeline_op("MatMul = MatMul(x, w/read)"), timeline_op("_SOURCE = NoOp()"), timeline_op("")
    ('MatMul', 'NoOp', '')
    """
    match = _TIMELINE_OP.match(label)
    return match.group(1) if match else ""


def node_json(node):
    return {
        "name": node.name,
        "op": node.op,
        "inputs": list(node.input),
        "device": node.device,
        "attr": {key: summarize_attr(node.attr[key]) for key in sorted(node.attr)},
    }


def graph_json(labeled):
    graph_def = labeled.graph_def
    return {
        "label": labeled.label,
        "nodes": [node_json(node) for node in graph_def.node],
        "functions": [function.signature.name for function in graph_def.library.function],
    }


def step_json(stats):
    return {
        "name": stats.node_name,
        "op": timeline_op(stats.timeline_label),
        "start_us": stats.all_start_micros,
        "op_us": stats.op_end_rel_micros - stats.op_start_rel_micros,
        "all_us": stats.all_end_rel_micros,
    }


def run_json(tagged):
    run_metadata = tagged.run_metadata
    devices = [
        {"device": dev.device, "nodes": [step_json(stats) for stats in dev.node_stats]}
        for dev in run_metadata.step_stats.dev_stats
    ]
    return {
        "tag": tagged.tag,
        "step_stats": {"devices": devices},
        "partition_graphs": len(run_metadata.partition_graphs),
    }


def to_json(loaded):
    """The `info --json` document for a Loaded: every graph, then every function of their
    libraries as a graph entry of its own (labelled `function NAME`, with "function")."""
    library = loaded.functions
    functions = [info_functions.function_json(function, library, node_json)
                 for function in library]
    saved_objects = [info_functions.saved_objects_json(meta) for meta in loaded.meta_graphs]
    return {
        "kind": loaded.kind,
        "graphs": [graph_json(labeled) for labeled in loaded.graphs] + functions,
        "run_metadata": [run_json(tagged) for tagged in loaded.run_metadata],
        "variables": info_checkpoint.variables_json(loaded.checkpoint) if loaded.checkpoint else [],
        "saved_objects": [entry for entry in saved_objects if entry is not None],
        "notes": notes(loaded),
    }


def notes(loaded):
    """What the readable summary says was cut short or not read, as its lines say it (without
    their indent): a reader of --json learns it too."""
    found = _reading_notes(loaded)
    note = info_checkpoint.object_graph_note(loaded.checkpoint) if loaded.checkpoint else None
    return found + [note] if note else found


def _reading_notes(loaded):
    """The inputs cut short and the files not read, a line each."""
    return ([f"cut short: {note}" for note in loaded.notes]
            + [f"not read: {_relative(loaded.path, name)}: {why}" for name, why in loaded.skipped])


# ---- the readable summary ---------------------------------------------------------------------


def summary_lines(loaded):
    lines = [f"{loaded.path}: {_KIND_TITLES.get(loaded.kind, loaded.kind)}"]
    if len(loaded.files) > 1:
        lines.append(f"  {len(loaded.files)} files")
    if loaded.kind == "directory":
        lines += [f"  read {_relative(loaded.path, name)}" for name in loaded.files]
    lines += [f"  {note}" for note in _reading_notes(loaded)]
    if loaded.event_counts:
        counts = ", ".join(f"{kind} {count}" for kind, count in sorted(loaded.event_counts.items()))
        lines.append(f"  events: {counts}")
    if loaded.kind == "events" and loaded.run_metadata:
        lines.append("  run tags: " + ", ".join(tagged.tag for tagged in loaded.run_metadata))
    for meta in loaded.meta_graphs:
        lines.extend(_meta_graph_lines(meta))
    library = loaded.functions if any(g.graph_def.library.function for g in loaded.graphs) else None
    for labeled in loaded.graphs:
        lines.extend(_graph_lines(labeled, library))
    for tagged in loaded.run_metadata:
        lines.extend(_run_lines(tagged))
    if loaded.checkpoint is not None:
        lines.extend(info_checkpoint.variables_lines(loaded.checkpoint))
    elif not (loaded.graphs or loaded.run_metadata or loaded.meta_graphs):
        lines.append("  no graphs, meta graphs or run metadata")
    return lines


def _relative(directory, name):
    """`name` under `directory`, as given (the whole path when it is not under it)."""
    relative = os.path.relpath(name, directory)
    return name if relative.startswith("..") else relative


def _graph_lines(labeled, library):
    graph_def = labeled.graph_def
    lines = [info_functions.graph_head(labeled, library)]
    ops = Counter(node.op for node in graph_def.node)
    if ops:
        top = ", ".join(f"{op} {count}" for op, count in ops.most_common(TOP_OPS))
        more = len(ops) - TOP_OPS
        lines.append(f"  ops: {top}" + (f", and {more} more op types" if more > 0 else ""))
    devices = Counter(node.device or "(unplaced)" for node in graph_def.node)
    if devices and set(devices) != {"(unplaced)"}:
        lines.append("  devices: " + ", ".join(f"{d} ({n})" for d, n in devices.most_common()))
    return lines + info_functions.graph_function_lines(labeled, library)


def _tensor_info(info):
    return f"{info.name or '(composite)'} {dtype_name(info.dtype)} {shape_text(info.tensor_shape)}"


def _meta_graph_lines(meta):
    meta_graph_def = meta.meta_graph_def
    lines = [f"meta graph {meta.label!r}: tags [{', '.join(meta.tags)}]"]
    version = meta_graph_def.meta_info_def.tensorflow_version
    if version:
        lines.append(f"  written by TensorFlow {version}")
    objects = info_functions.saved_objects_of(meta)
    for key in sorted(meta_graph_def.signature_def):
        signature = meta_graph_def.signature_def[key]
        lines.append(f"  signature {key!r}: {signature.method_name}")
        for direction, tensors in (("input", signature.inputs), ("output", signature.outputs)):
            for name in sorted(tensors):
                lines.append(f"    {direction} {name}: {_tensor_info(tensors[name])}")
        calls = info_functions.signature_call_line(objects, key) if objects else None
        if calls:
            lines.append(f"    {calls}")
    if objects is not None:
        lines.extend(info_functions.saved_object_lines(objects))
    return lines


def _run_lines(tagged):
    run_metadata = tagged.run_metadata
    title = f"run metadata {tagged.tag!r}" if tagged.tag else "run metadata"
    lines = [f"{title}: {len(run_metadata.partition_graphs)} partition graphs"]
    total_op = total_nodes = 0
    for dev in run_metadata.step_stats.dev_stats:
        op_us = sum(s.op_end_rel_micros - s.op_start_rel_micros for s in dev.node_stats)
        total_op += op_us
        total_nodes += len(dev.node_stats)
        lines.append(f"  {dev.device}: {len(dev.node_stats)} nodes, op time {op_us} us")
    if run_metadata.step_stats.dev_stats:
        lines.append(f"  total: {total_nodes} node executions, op time {total_op} us")
    return lines
