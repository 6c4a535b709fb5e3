"""Where the session calls the optimizer: once per plan, after pruning and placement.

As DirectSession runs Grappler in GraphExecutionState before it partitions: the subgraph a
run needs (its fetches, targets and feeds) goes through `engine.optimizer.optimize` with the
session's ConfigProto.graph_options.rewrite_options, and the plan is built from the result,
so RunMetadata.partition_graphs show the optimized graph, as TensorFlow's do. Nodes the
optimizer left as they were keep their NodeInfo (and the Operation that made them, for
errors and tracebacks); rewritten ones are planned from their new NodeDef.

`original_graph()` makes the runs of the calling thread inside it use the graph as written
(the stepping debugger steps the user's own nodes); `optimized_graph()` the opposite.
"""

import contextlib
import threading

from engine.runtime import plan as plan_lib
from engine.framework import op_registry
from engine.optimizer import enabled_passes, optimize
from engine.proto import graph_pb2

class _ThreadRewrite(threading.local):
    # A class default: Session.run reads this on every run, and a getattr that misses on a
    # thread-local raises and catches an AttributeError (0.4 us, 5% of a small graph's run).
    rewrite = None


_thread = _ThreadRewrite()


def override():
    """True/False while a thread forces the optimizer on/off; None: the config decides."""
    return _thread.rewrite


@contextlib.contextmanager
def _forced(value):
    previous = override()
    _thread.rewrite = value
    try:
        yield
    finally:
        _thread.rewrite = previous


def original_graph():
    """Session runs on this thread inside the block run the graph unoptimized."""
    return _forced(False)


def optimized_graph():
    """Session runs on this thread inside the block run the optimized graph."""
    return _forced(True)


def rewrite_options(config):
    return config.graph_options.rewrite_options


def rewrite(config, nodes, order, placement, feed_names, fetch_names, target_names, client):
    """(nodes, order, placement, OptimizeResult or None) for one plan.

    nodes: name -> plan.NodeInfo of the whole graph; placement: name -> device. The results
    are new dicts and lists; what was given is not changed.
    """
    if override() is False or not enabled_passes(rewrite_options(config)):
        return nodes, order, placement, None
    feed_set = {plan_lib.parse_tensor_name(name) for name in feed_names}
    roots = [plan_lib.parse_tensor_name(f)[0] for f in fetch_names
             if plan_lib.parse_tensor_name(f) not in feed_set] + list(target_names)
    fed_nodes = {node for node, _ in feed_set}
    needed = plan_lib.prune(nodes, feed_set, roots) | fed_nodes  # fed: never constants
    graph_def = graph_pb2.GraphDef()
    for name in order:
        if name in needed:
            node_def = graph_def.node.add()
            node_def.CopyFrom(nodes[name].node_def)
            node_def.device = placement.get(name) or client
    result = optimize(graph_def, fetches=[plan_lib.parse_tensor_name(f)[0] for f in fetch_names],
                      feeds=fed_nodes, keep=target_names, rewrite_options=rewrite_options(config),
                      check_cycles=False)  # the session checked its whole graph
    if not result.changed:
        return nodes, order, placement, result
    new_nodes, new_placement = dict(nodes), dict(placement)
    optimized = {node_def.name: node_def for node_def in result.graph_def.node}
    for name in needed - optimized.keys():
        del new_nodes[name]
    added_after = {}  # a node the optimizer made goes where the graph had its neighbour
    previous = None
    for name, node_def in optimized.items():
        original = nodes.get(name)
        if original is None:
            added_after.setdefault(previous, []).append(name)
        else:
            previous = name
            if _unchanged(node_def, original.node_def):
                continue
        new_nodes[name] = _node_info(node_def, original)
        new_placement[name] = node_def.device or client
    new_order = list(added_after.get(None, ()))
    for name in order:
        if name in new_nodes:
            new_order.append(name)
        new_order.extend(added_after.get(name, ()))
    return new_nodes, new_order, new_placement, result


def _unchanged(node_def, original):
    return (node_def.op == original.op and list(node_def.input) == list(original.input)
            and node_def.attr == original.attr)


def _node_info(node_def, original):
    """A plan.NodeInfo for a NodeDef the optimizer made or rewrote."""
    op_def = op_registry.get(node_def.op)
    op_registry.add_default_attrs(node_def, op_def)
    data = [plan_lib.parse_tensor_name(i) for i in node_def.input if not i.startswith("^")]
    control = [i[1:] for i in node_def.input if i.startswith("^")]
    return plan_lib.NodeInfo(
        node_def.name, node_def.op, node_def, data, control,
        op_registry.output_dtypes(op_def, node_def.attr),
        plan_lib.input_ref_flags(op_def, node_def),
        op=original.op if original is not None else None, device=node_def.device,
        is_stateful=op_def.is_stateful)
