"""dependency_optimization: redundant control edges, and nodes only waited on, removed.

As Grappler's dependency optimizer, twice over (as it runs its steps twice):
1. Transitive reduction: a control edge a -> c goes where another path from a to c exists
   (c waits for a anyway).
2. A worklist over the nodes, each rule putting the nodes it touched back on the list:
   - a Const with no inputs loses its control consumers (it runs first whatever waits for
     it), and goes once nothing reads it and it is not kept;
   - a pure node (rules.is_pure) nothing reads as data, not kept, becomes a NoOp whose
     control inputs are its old inputs: a gradient nobody applies, waited on by a
     `tuple`'s group_deps, so collapses and then goes with the NoOps below;
   - a NoOp, or an Identity (or StopGradient, PreventGradient) that is safe to remove, is
     bypassed where that adds no edges (inputs x outputs <= inputs + outputs, TensorFlow's
     rule) and no device crossings: consumers read the Identity's input, and wait for the
     node's control inputs themselves; a NoOp nothing waits for just goes. An Identity is
     safe to remove (TensorFlow's SafeToRemoveIdentity) when it is not kept, its input is
     not a reference, a variable (a VarHandleOp, a ReadVariableOp: a variable's handle or
     read stays) nor a _Recv, nothing waits for it after a Switch (a cond branch's pivot),
     and, when it has control inputs, no Merge nor _Retval reads it.
3. Control inputs deduplicated, and dropped where the same node is a data input.
"""

from engine.framework import op_families
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, parse_input
from engine.optimizer.report import Report

FORWARDING = frozenset({"Identity", "StopGradient", "PreventGradient"})
# Never made NoOps, whatever their purity (TensorFlow's do_not_rewrite_ops).
_KEEP_OPS = frozenset({"Assert", "CheckNumerics", "_Retval", "_Arg", "_ParallelConcatUpdate",
                       "ControlTrigger"})
# TensorFlow's IsSwitch: a lowered Case's _SwitchN is one too (its pivots must stay).
_SWITCHES = op_families.SWITCH | {"_SwitchN"}
_FRAME_OPS = (op_families.ENTER | op_families.EXIT | op_families.NEXT_ITERATION
              | op_families.MERGE | _SWITCHES)
ROUNDS = 2
# What an Identity reading it must stay for (TensorFlow's IsVariable): the Identity is the
# handle or value a function's inlined argument, or a user's read, hands on.
_VARIABLES = frozenset({"Variable", "VariableV2", "AutoReloadVariable", "VarHandleOp",
                        "ReadVariableOp", "_VarHandlesOp", "_ReadVariablesOp"})


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    for _ in range(ROUNDS):
        edits = view.edits
        _transitive_reduction(view, report)
        _simplify(view, context, report)
        for name in view.names():
            node = view.node(name)
            if node is not None:
                _drop_redundant_controls(view, node, report)
        if view.edits == edits:
            break  # a round that changed nothing: the next would change nothing either
    return view.to_graph_def(), report


# 1. Transitive reduction --------------------------------------------------------------------

def _transitive_reduction(view, report):
    """Drops each control edge a -> c for which a path of two edges or more runs from a to c
    (edges out of loop frames and Merges are not followed, as TensorFlow cannot know which
    of a Merge's inputs runs)."""
    order = view.topological_order()
    index = {name: i for i, name in enumerate(order)}
    outputs = [[] for _ in order]
    control_targets = [[] for _ in order]
    for i, name in enumerate(order):
        node = view.node(name)
        if node is None or node.op in _FRAME_OPS - op_families.MERGE:
            continue
        for text in view.inputs(name):
            producer, _ = parse_input(text)
            j = index.get(producer)
            if j is None or j >= i or view.node(producer).op in _FRAME_OPS:
                continue  # (j >= i: a loop's back edge)
            outputs[j].append(i)
            if text.startswith("^"):
                control_targets[j].append(i)
    for source, targets in enumerate(control_targets):
        if not targets:
            continue
        last = max(targets)
        reached, frontier = set(), [k for k in outputs[source] if k <= last]
        while frontier:  # every node one edge or more from the source, up to the last target
            k = frontier.pop()
            if k in reached:
                continue
            reached.add(k)
            frontier.extend(t for t in outputs[k] if t <= last and t not in reached)
        longer = {t for k in reached for t in outputs[k]}
        for target in set(targets) & longer:
            node = view.node(order[target])
            edge = "^" + order[source]
            view.set_inputs(node, [t for t in view.inputs_of(node) if t != edge])
            report.note("removed", f"{node.name}: control edge from {order[source]} (it waits "
                                   f"for it through another path)", count=0)


# 2. The worklist ----------------------------------------------------------------------------

def _simplify(view, context, report):
    stack = []
    on_stack = set()

    def push(name):
        if name not in on_stack and view.node(name) is not None:
            stack.append(name)
            on_stack.add(name)

    read_as_data = {parse_input(text)[0] for name in view.names()
                    for text in view.inputs(name) if not text.startswith("^")}
    for name in view.names():
        node = view.node(name)
        if (node.op == "NoOp" or node.op in FORWARDING or node.op in rules.CONSTANTS
                or (name not in read_as_data and _convertible(view, node, context))):
            push(name)
    while stack:
        name = stack.pop()
        on_stack.discard(name)
        node = view.node(name)
        if node is None:
            continue
        if node.op in rules.CONSTANTS and not node.input:
            _drop_constant_controls(view, node, context, report, push)
        elif node.op != "NoOp" and _convertible(view, node, context):
            _to_noop(view, node, report, push)
        elif node.op == "NoOp" or (node.op in FORWARDING
                                   and _identity_removable(view, node, context)):
            _bypass(view, node, context, report, push)


def _drop_constant_controls(view, node, context, report, push):
    """Control edges from a Const without inputs go; the Const too once nothing reads it."""
    for consumer_name in sorted(view.consumers.get(node.name, ())):
        consumer = view.node(consumer_name)
        inputs = list(view.inputs_of(consumer))
        kept = [t for t in inputs if t != "^" + node.name]
        if len(kept) != len(inputs):
            view.set_inputs(consumer, kept)
            push(consumer_name)
            report.note("removed", f"{consumer_name}: control edge from constant {node.name}",
                        count=0)
    if not view.consumers.get(node.name) and not context.is_preserved(node.name):
        view.remove(node.name)
        report.note("removed", f"{node.name} (Const) no longer used")


def _convertible(view, node, context):
    """Whether the node may become a NoOp: nothing reads its values, it is not kept, and
    running it changes nothing but the time (TensorFlow's SafeToConvertToNoOp)."""
    if (node.op in _KEEP_OPS or node.op == "NoOp" or context.is_preserved(node.name)
            or node.name in context.feeds or not rules.is_pure(node)):
        return False
    definition = rules.op_def(node.op)
    if definition is None or not definition.output_arg:
        return False
    for consumer in view.consumers.get(node.name, ()):
        if any(parse_input(t)[0] == node.name and not t.startswith("^")
               for t in view.inputs(consumer)):
            return False  # its values are read
    return node.op not in FORWARDING or _identity_removable(view, node, context)


def _to_noop(view, node, report, push):
    """The node becomes a NoOp waiting for what it read (its inputs get another look: they
    may now be read by nothing but control edges)."""
    inputs = list(view.inputs_of(node))
    waits = []
    for text in inputs:
        producer = parse_input(text)[0]
        if "^" + producer not in waits:
            waits.append("^" + producer)
    noop = type(node)(name=node.name, op="NoOp", device=node.device)
    view.replace(noop)
    view.set_inputs(noop, waits)
    for text in inputs:
        push(parse_input(text)[0])
    push(node.name)
    report.note("changed", f"{node.name} ({node.op}): only waited on -> NoOp")


def _identity_removable(view, node, context):
    """TensorFlow's SafeToRemoveIdentity: not kept; not after a variable or a _Recv (nor a
    reference: its reader must read it when it runs); with control inputs, not read by a
    Merge or a _Retval; after a Switch, nothing waits for it (a cond branch's pivot)."""
    if context.is_preserved(node.name):
        return False
    inputs = view.inputs(node.name)
    data = view.data_inputs(node)
    if len(data) != 1:
        return False
    producer_name, index = data[0]
    producer = view.node(producer_name)
    if (producer is None or producer.op in _VARIABLES
            or producer.op in op_families.SEND_RECV):
        return False
    types = rules.output_dtypes(producer)  # (None: an op this build has no OpDef for)
    if types is not None and (index >= len(types) or types[index].is_ref_dtype):
        return False
    waits = "^" + node.name
    for consumer_name in view.consumers.get(node.name, ()):
        consumer = view.node(consumer_name)
        if len(inputs) > 1 and (consumer.op in op_families.MERGE or consumer.op == "_Retval"):
            return False
        if producer.op in _SWITCHES and waits in view.inputs(consumer_name):
            return False
    return True


def _bypass(view, node, context, report, push):
    """Consumers read around the node (see the module's doc), when that adds no edges and
    no device crossings; the node goes unless kept."""
    inputs = list(view.inputs_of(node))
    producers = [view.node(parse_input(t)[0]) for t in inputs]
    if any(p is None for p in producers):
        return
    consumers = [view.node(c) for c in sorted(view.consumers.get(node.name, ()))]
    if len(inputs) * len(consumers) > len(inputs) + len(consumers):
        return
    if not _no_more_crossings(node, producers, consumers):
        return
    identity = node.op in FORWARDING
    data_text = inputs[0] if identity else None
    for consumer in consumers:
        new, producers_of_consumer = [], {parse_input(t)[0] for t in view.inputs_of(consumer)}
        for text in view.inputs_of(consumer):
            name, index = parse_input(text)
            if name != node.name:
                new.append(text)
            elif index >= 0:
                new.append(data_text)  # (only an Identity has data readers here)
            elif identity:
                new.append("^" + parse_input(data_text)[0])
        for text in inputs[1:] if identity else inputs:
            producer = parse_input(text)[0]
            if producer not in producers_of_consumer:
                new.append("^" + producer)
        view.set_inputs(consumer, new)
        push(consumer.name)
    for producer in producers:
        push(producer.name)
    if context.is_preserved(node.name):
        return
    view.remove(node.name)
    if consumers:
        report.note("removed", f"{node.name} ({node.op}) bypassed: its {len(consumers)} "
                               f"consumers read around it")
    else:
        report.note("removed", f"{node.name} ({node.op}) waited on by nothing")


def _no_more_crossings(node, producers, consumers):
    """TensorFlow's BypassingNodeIsBeneficial device rules: bypassing adds no edge that
    crosses devices, and an Identity after a crossing (a _Recv's, once partitioned) stays
    unless its consumers are on its device."""
    if ((len(producers) == 1 and len(consumers) > 1 and producers[0].device != node.device)
            or (len(producers) > 1 and len(consumers) == 1
                and consumers[0].device != node.device)):
        return False
    cross_in = sum(p.device != node.device for p in producers)
    cross_out = sum(c.device != node.device for c in consumers)
    cross_after = sum(p.device != c.device for p in producers for c in consumers)
    if cross_after > cross_in + cross_out:
        return False
    return not (node.op in FORWARDING and cross_in and cross_out and cross_after)


# 3. Control inputs ---------------------------------------------------------------------------

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
