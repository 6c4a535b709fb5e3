"""dependency_optimization: redundant Identity and NoOp nodes and control edges removed.

As Grappler's dependency optimizer:
- an Identity (or StopGradient, PreventGradient) that is not kept, whose input is
  not a reference, does not come out of control flow (an Identity after a Switch is a
  branch's pivot: control edges from it carry the branch), and sits on its input's device,
  is bypassed: consumers read its input, and its control inputs move to them;
- a NoOp that is not kept, with few enough edges (inputs x outputs <= inputs + outputs, TF's
  rule), is bypassed: each control consumer waits for its control inputs directly;
- a control edge that duplicates a data edge from the same node is dropped;
- a control edge from a Const with no inputs is dropped (it runs first whatever waits for
  it), and the Const, read by nothing else and not kept, goes (ConvertPow leaves such edges).
"""

from engine import op_families
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, parse_input
from engine.optimizer.report import Report

FORWARDING = frozenset({"Identity", "StopGradient", "PreventGradient"})


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    for name in view.topological_order():
        node = view.node(name)
        if node is None or context.is_preserved(name):
            continue
        if node.op in FORWARDING:
            _bypass_identity(view, node, report)
        elif node.op == "NoOp":
            _bypass_noop(view, node, report)
        elif node.op == "Const" and not node.input:
            _drop_constant_controls(view, node, report)
    for name in view.names():
        node = view.node(name)
        if node is not None:
            _drop_redundant_controls(view, node, report)
    return view.to_graph_def(), report


def _bypass_identity(view, node, report):
    data = view.data_inputs(node)
    if len(data) != 1:
        return
    producer_name, index = data[0]
    producer = view.node(producer_name)
    if (producer is None or producer.op in op_families.CONTROL_FLOW
            or producer.op in rules.UNTOUCHABLE - rules.PLACEHOLDERS
            or producer.device != node.device):
        return
    types = rules.output_dtypes(producer)
    if types is None or index >= len(types) or types[index].is_ref_dtype:
        return
    consumers = [view.node(c) for c in view.consumers.get(node.name, ())]
    if any(c.device != node.device or c.op in op_families.MERGE
           or c.op in op_families.NEXT_ITERATION for c in consumers):
        return  # a transfer or a loop edge: the Identity is where TensorFlow wants it
    controls = view.control_inputs(node)
    replacement = data[0][0] if index == 0 else f"{producer_name}:{index}"
    for consumer in consumers:
        new = []
        for text in consumer.input:
            name, i = parse_input(text)
            if name != node.name:
                new.append(text)
            elif i < 0:
                new.append("^" + producer_name)
            else:
                new.append(replacement)
        new.extend("^" + c for c in controls)
        view.set_inputs(consumer, new)
    view.remove(node.name)
    report.note("removed", f"{node.name} ({node.op}) bypassed: consumers read {replacement}")


def _bypass_noop(view, node, report):
    inputs = view.control_inputs(node)
    if len(view.data_inputs(node)) or not inputs:
        return
    consumers = [view.node(c) for c in view.consumers.get(node.name, ())]
    if not consumers:
        return
    if len(inputs) * len(consumers) > len(inputs) + len(consumers):
        return
    if any(c.device != node.device for c in consumers) or any(
            view.node(i) is None or view.node(i).device != node.device for i in inputs):
        return
    for consumer in consumers:
        new = [t for t in consumer.input if t != "^" + node.name]
        new.extend("^" + i for i in inputs)
        view.set_inputs(consumer, new)
    view.remove(node.name)
    report.note("removed", f"{node.name} (NoOp) bypassed: {len(consumers)} consumers wait for "
                           f"its {len(inputs)} control inputs")


def _drop_constant_controls(view, node, report):
    """Control edges from a Const without inputs go; the Const too once nothing reads it."""
    waiting = [view.node(c) for c in sorted(view.consumers.get(node.name, ()))]
    for consumer in waiting:
        if consumer is None:
            continue
        inputs = list(view.inputs_of(consumer))
        kept = [t for t in inputs if t != "^" + node.name]
        if len(kept) != len(inputs):
            view.set_inputs(consumer, kept)
            report.note("removed", f"{consumer.name}: control edge from constant {node.name}",
                        count=0)
    if not view.consumers.get(node.name):
        view.remove(node.name)
        report.note("removed", f"{node.name} (Const) no longer used")


def _drop_redundant_controls(view, node, report):
    inputs = view.inputs_of(node)
    controls = [t for t in inputs if t.startswith("^")]
    if not controls:
        return
    data_producers = {parse_input(t)[0] for t in inputs if not t.startswith("^")}
    redundant = [t for t in controls if t[1:] in data_producers]
    duplicates = len(controls) - len(set(controls))
    if redundant or duplicates:
        view.set_inputs(node, list(inputs))  # set_inputs drops both kinds
        report.note("changed", f"{node.name}: {len(redundant) + duplicates} redundant control "
                               f"edges dropped")
