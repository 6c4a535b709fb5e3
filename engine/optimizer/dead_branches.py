"""loop_optimization: a Switch on a constant predicate loses its dead branch.

As Grappler's loop optimizer (RemoveDeadBranches): when a Switch's predicate is a constant
(not fed), the output it never produces is dead, and so is everything that needs it, up to
the Merges; those nodes go, each Merge loses the dead input (a Merge left with one input
and nobody reading its value_index becomes an Identity), and the Switch's consumers read its
data input directly. Nothing is done when the dead part holds a kept node, a loop (Enter,
Exit, NextIteration) or a stateful op (its effects would be lost), or when a Merge would be
left with no input.
"""

from engine.framework import op_families
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, parse_input
from engine.optimizer.report import Report
from engine.proto import node_def_pb2

LOOP = op_families.ENTER | op_families.EXIT | op_families.NEXT_ITERATION | {"LoopCond"}


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    for name in view.topological_order():
        node = view.node(name)
        if node is None or node.op != "Switch" or context.is_preserved(name):
            continue
        data = [t for t in node.input if not t.startswith("^")]
        if len(data) != 2:
            continue
        predicate = view.node(parse_input(data[1])[0])
        if not rules.is_constant(predicate, context):
            continue
        value = rules.constant_value(predicate)
        if value.shape != ():
            continue
        _remove_dead_branch(view, node, data[0], dead_port=1 - int(bool(value)), context=context,
                            report=report)
    return view.to_graph_def(), report


def _dead_nodes(view, switch, dead_port, context):
    """(dead node names, {merge: dead input texts}) or None when the rewrite is unsafe."""
    dead, merges = set(), {}
    stack = [(switch.name, dead_port)]
    while stack:
        producer, port = stack.pop()
        for consumer_name in sorted(view.consumers.get(producer, ())):
            consumer = view.node(consumer_name)
            texts = [t for t in consumer.input if parse_input(t)[0] == producer
                     and (port is None or parse_input(t)[1] == port)]
            if producer == switch.name and port is not None:
                texts = [t for t in texts if not t.startswith("^")]  # ^Switch is live
            if not texts or consumer_name in dead:
                continue
            if consumer.op in op_families.MERGE:
                merges.setdefault(consumer_name, set()).update(texts)
                continue
            if (context.is_preserved(consumer_name) or consumer.op in LOOP
                    or not (rules.is_pure(consumer) or consumer.op in rules.CONSTANTS
                            or consumer.op in op_families.IDENTITY | {"NoOp", "Switch"})):
                return None
            dead.add(consumer_name)
            stack.append((consumer_name, None))
    for merge, texts in merges.items():
        inputs = [t for t in view.node(merge).input if not t.startswith("^")]
        if merge in dead or all(t in texts or parse_input(t)[0] in dead for t in inputs):
            return None
    return dead, merges


def _remove_dead_branch(view, switch, data_text, dead_port, context, report):
    found = _dead_nodes(view, switch, dead_port, context)
    if found is None:
        return
    dead, merges = found
    for merge_name in merges:
        merge = view.node(merge_name)
        kept = [t for t in merge.input if t.startswith("^")
                or not (parse_input(t)[0] in dead or parse_input(t)[0] == switch.name
                        and parse_input(t)[1] == dead_port)]
        data = [t for t in kept if not t.startswith("^")]
        value_index_read = any(parse_input(t) == (merge_name, 1)
                               for c in view.consumers.get(merge_name, ())
                               for t in view.node(c).input)
        if len(data) == 1 and not value_index_read and not context.is_preserved(merge_name):
            identity = node_def_pb2.NodeDef(name=merge_name, op="Identity", device=merge.device)
            identity.attr["T"].CopyFrom(merge.attr["T"])
            view.replace(identity)
            view.set_inputs(identity, kept)
            report.note("changed", f"{merge_name}: Merge of one live input -> Identity")
        else:
            merge.attr["N"].i = len(data)
            view.set_inputs(merge, kept)
            report.note("changed", f"{merge_name}: dead inputs dropped")
    for name in sorted(dead):
        report.note("removed", f"{name} ({view.node(name).op}) in the dead branch of "
                               f"{switch.name}")
        view.remove(name)
    producer, index = parse_input(data_text)
    view.forward(switch.name, [data_text, data_text], extra_controls=[producer])
    view.remove(switch.name)
    report.note("removed", f"{switch.name} (Switch) on a constant predicate: consumers read "
                           f"{data_text}")
