"""What `run` checks and sets up before the graph is imported: the session's devices and
placement (--devices, --soft-placement), feeds against the GraphDef's placeholders (a wrong
shape is reported at once, not after importing 17,000 nodes), and progress on big graphs."""

from __future__ import annotations

import re
import sys

import numpy as np

from parsers.errors import InputError

# Graphs with more nodes than this say what they are doing while they import and run.
BIG_GRAPH = 5000
_DEVICE_COUNT = re.compile(r"^([A-Za-z_]+)=(\d+)$")
# Devices of one type a session is given at most: each is an object with its own threads,
# and 2^31 of them (what ConfigProto.device_count holds) exhaust memory before a run.
MAX_DEVICES = 1024


def add_arguments(parser):
    parser.add_argument("--devices", metavar="TYPE=N[,TYPE=N]",
                        help="logical devices of the session, as ConfigProto.device_count"
                             " (e.g. CPU=2 for a graph TensorFlow placed on two CPUs)")
    parser.add_argument("--soft-placement", action="store_true",
                        help="place a node whose device is missing or has no kernel on one that"
                             " does (ConfigProto.allow_soft_placement)")


def session_config(args):
    """The ConfigProto for --devices and --soft-placement; InputError for a bad --devices."""
    import engine as tf

    counts = {}
    for item in filter(None, (args.devices or "").split(",")):
        match = _DEVICE_COUNT.match(item.strip())
        if match is None:
            raise InputError(args.graph, f"--devices {item!r}: expected TYPE=N, e.g. CPU=2")
        if int(match.group(2)) > MAX_DEVICES:
            raise InputError(args.graph, f"--devices {item!r}: at most {MAX_DEVICES} devices "
                                         f"of a type")
        counts[match.group(1).upper()] = int(match.group(2))
    return tf.ConfigProto(device_count=counts, allow_soft_placement=args.soft_placement)


def check_feeds(path, graph_def, feeds):
    """Each feed names a node of the graph, and a placeholder's fed value fits its shape,
    worded as Session.run would say it, before the graph is imported."""
    nodes = {node.name: node for node in graph_def.node}
    for name, value in feeds.items():
        op_name, _, index = name.rpartition(":")
        node = nodes.get(op_name)
        if node is None:
            raise InputError(path, f"--feed {name}: the graph has no node {op_name!r}")
        shape_attr = node.attr.get("shape") if node.op.startswith("Placeholder") else None
        if shape_attr is None or shape_attr.shape.unknown_rank or index != "0":
            continue
        wanted = [dim.size for dim in shape_attr.shape.dim]
        got = np.shape(value)
        if len(got) != len(wanted) or any(w not in (-1, g) for w, g in zip(wanted, got)):
            shown = "(" + ", ".join("None" if w < 0 else str(w) for w in wanted) + \
                ("," if len(wanted) == 1 else "") + ")"
            raise InputError(path, f"Cannot feed value of shape {got} for Tensor {name}, which"
                                   f" has shape {shown}")


def progress(graph_def, message):
    """Say `message` on stderr when the graph is big and stderr is a terminal."""
    if len(graph_def.node) > BIG_GRAPH and sys.stderr.isatty():
        print(f"{message} ({len(graph_def.node)} nodes)...", file=sys.stderr, flush=True)
