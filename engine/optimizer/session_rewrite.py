"""Where the session calls the optimizer: once per plan, after pruning and placement.

As DirectSession runs Grappler in GraphExecutionState before it partitions: the subgraph a
run needs (its fetches, targets and feeds) goes through `engine.optimizer.optimize` with the
session's ConfigProto.graph_options.rewrite_options, and the plan is built from the result,
so RunMetadata.partition_graphs show the optimized graph, as TensorFlow's do. Nodes the
optimizer left as they were keep their NodeInfo (and the Operation that made them, for
errors and tracebacks); rewritten ones are planned from their new NodeDef.

Function calls are inlined and functional control flow lowered here too (the
function_optimization pass), as TensorFlow does before any run: the graph's FunctionDefLibrary
goes with the subgraph, and the body nodes the pass adds are planned like any other (placed
where the pass put them, on the CPU where their device has no kernel for them).

`original_graph()` makes the runs of the calling thread inside it use the graph as written
(the stepping debugger steps the user's own nodes): only the inlining and lowering run, so a
function's body and a loop's iterations are still nodes to step through; `optimized_graph()`
the opposite.
"""

import contextlib
import threading

from engine.runtime import plan as plan_lib
from engine.framework import devices, op_families, op_registry
from engine.framework.function_graph import called_functions, reachable_functions
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


INLINING = ("function_optimization",)  # what runs of the graph as written still do


def rewrite(config, nodes, order, placement, feed_names, fetch_names, target_names, client,
            functions=None, kernel_check=None):
    """(nodes, order, placement, OptimizeResult or None) for one plan.

    nodes: name -> plan.NodeInfo of the whole graph; placement: name -> device; functions:
    the graph's library (name -> FunctionDef); kernel_check(op, device type): whether a
    kernel exists (a node the passes add goes to `client` where its device has none). The
    results are new dicts and lists; what was given is not changed.
    """
    options = rewrite_options(config)
    passes = INLINING if override() is False else None
    if not enabled_passes(options, passes):
        return nodes, order, placement, None
    feed_set = {plan_lib.parse_tensor_name(name) for name in feed_names}
    roots = [plan_lib.parse_tensor_name(f)[0] for f in fetch_names
             if plan_lib.parse_tensor_name(f) not in feed_set] + list(target_names)
    fed_nodes = {node for node, _ in feed_set}
    needed = plan_lib.prune(nodes, feed_set, roots) | fed_nodes  # fed: never constants
    calls_functions = False
    graph_def = graph_pb2.GraphDef()
    for name in order:
        if name in needed:
            node_def = graph_def.node.add()
            node_def.CopyFrom(nodes[name].node_def)
            node_def.device = placement.get(name) or client
            calls_functions = calls_functions or _calls(node_def, functions)
    if passes is not None and not calls_functions:
        return nodes, order, placement, None
    if calls_functions:
        graph_def.library.function.extend(_library_for(graph_def, functions))
    result = optimize(graph_def, fetches=[plan_lib.parse_tensor_name(f)[0] for f in fetch_names],
                      feeds=fed_nodes, keep=target_names, rewrite_options=options,
                      passes=passes, graph_size=len(order),
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
        new_nodes[name] = _node_info(node_def, original, functions)
        new_placement[name] = _device(node_def, original, client, kernel_check)
    new_order = list(added_after.get(None, ()))
    for name in order:
        if name in new_nodes:
            new_order.append(name)
        new_order.extend(added_after.get(name, ()))
    return new_nodes, new_order, new_placement, result


def _library_for(graph_def, functions):
    """The functions the optimizer is given: those the needed nodes call, and those they call
    (a library of 10^5 functions costs a run what it calls, not a copy of each per pass).
    A call of a function the library lacks gets the whole library, so that the function
    optimizer names the missing one as Grappler does (it has functions, not that one)."""
    reachable = reachable_functions(graph_def, functions)
    called = {name for node in graph_def.node for name in called_functions(node, ())}
    if any(name not in functions for name in called if name):
        return list(functions.values())
    return reachable


def _unchanged(node_def, original):
    return (node_def.op == original.op and list(node_def.input) == list(original.input)
            and node_def.attr == original.attr)


def _calls(node_def, functions):
    """Whether a node calls a library function (by op name, or through a func attr)."""
    if not functions:
        return False
    return node_def.op in functions or node_def.op in op_families.FUNCTIONAL


def _device(node_def, original, client, kernel_check):
    """Where a node the optimizer made or rewrote runs: where the optimizer put it (a body
    node: its call's device, or its own), or on `client` when there is no kernel there."""
    device = node_def.device or client
    if original is None and kernel_check is not None and device != client:
        kind = placer_device_type(device)
        if kind and not kernel_check(node_def.op, kind) and kernel_check(node_def.op, "CPU"):
            return client
    return device


def placer_device_type(device):
    try:
        return devices.DeviceSpec.from_string(device).device_type
    except ValueError:
        return None


def _node_info(node_def, original, functions=None):
    """A plan.NodeInfo for a NodeDef the optimizer made or rewrote."""
    function = functions.get(node_def.op) if functions else None
    op_def = function.signature if function is not None else op_registry.get(node_def.op)
    op_registry.add_default_attrs(node_def, op_def)
    data = [plan_lib.parse_tensor_name(i) for i in node_def.input if not i.startswith("^")]
    control = [i[1:] for i in node_def.input if i.startswith("^")]
    return plan_lib.NodeInfo(
        node_def.name, node_def.op, node_def, data, control,
        op_registry.output_dtypes(op_def, node_def.attr),
        plan_lib.input_ref_flags(op_def, node_def),
        op=original.op if original is not None else None, device=node_def.device,
        is_stateful=op_def.is_stateful and function is None)
