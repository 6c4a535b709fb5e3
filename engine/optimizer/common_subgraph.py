"""common_subgraph_elimination: identical nodes computed once, as Grappler's CSE.

First every node's inputs are put in Grappler's canonical order (CanonicalizeGraph): the data
inputs of a commutative op (its OpDef's is_commutative: AddV2, Mul, Equal, ...) sorted, and
every node's control inputs sorted; TensorFlow's partition graphs show them so (`1.0 + x`
written as `x + 1.0` reads ["add/y", "x"] there). Two nodes are the same computation when
they have the same op, attrs, device, data inputs (after earlier merges) and control inputs:
the later one is removed and its consumers read the first. Only pure nodes merge
(rules.is_pure) and constants of equal value; nothing that reads a variable's reference (two
reads at different times differ); a kept node (fetched, fed, `keep`) is never the one removed.
"""

from engine.framework import op_registry
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, input_text, parse_input
from engine.optimizer.report import Report


is_commutative = op_registry.is_commutative


def _dtype(node):
    return node.attr["T"].type if "T" in node.attr else None


def canonical_inputs(node, inputs):
    """`inputs` in Grappler's canonical order (see the module's doc)."""
    data = [i for i in inputs if not i.startswith("^")]
    if is_commutative(node.op, _dtype(node)):
        data.sort()
    return data + sorted(set(i for i in inputs if i.startswith("^")))


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    _canonicalize(view, report)
    seen = {}
    for name in view.topological_order():
        node = view.node(name)
        if node is None or not _mergeable(node, context):
            continue
        inputs = view.inputs(name)
        if rules.reads_ref(view, node, inputs):
            continue
        key = _signature(node, inputs)
        first = seen.get(key)
        if first is None:
            seen[key] = name
            continue
        if context.is_preserved(name) or view.node(first) is None:
            continue
        count = max(rules.num_outputs(node), 1)
        view.forward(name, [input_text(first, i) for i in range(count)], extra_controls=[first])
        view.remove(name)
        report.note("removed", f"{name} ({node.op}) same as {first}")
    _canonicalize(view, report)  # the readers of merged nodes, as Grappler re-canonicalizes
    return view.to_graph_def(), report


def _canonicalize(view, report):
    """Puts every node's inputs in canonical order; one report line says how many moved
    (a change like any other: the session runs the graph as the optimizer left it)."""
    moved = 0
    for name in list(view.names()):
        node = view.node(name)
        inputs = list(view.inputs(name))
        canonical = canonical_inputs(node, inputs)
        if canonical != inputs:
            view.set_inputs(node, canonical)
            moved += 1
    if moved:
        report.note("changed", f"{moved} node{'s' if moved != 1 else ''}' inputs put in "
                               "canonical order", count=moved)


def _mergeable(node, context):
    if node.name in context.feeds:
        return False
    return node.op in rules.CONSTANTS or rules.is_pure(node)


def _signature(node, inputs):
    """What makes two nodes the same computation (`inputs`: the node's input strings)."""
    data = [i for i in inputs if not i.startswith("^")]
    if is_commutative(node.op, _dtype(node)):
        data = sorted(data)
    data = [input_text(*parse_input(i)) for i in data]
    controls = tuple(sorted(i for i in inputs if i.startswith("^")))
    # Every attr counts, `_output_shapes` and `_class` too (Grappler's SameAttrs): two folded
    # constants of one value stay two when one of them carries shapes the other does not.
    attr = node.attr  # (keys, then values: a map's items() goes through Python per item)
    attrs = tuple([(key, attr[key].SerializeToString(deterministic=True))
                   for key in sorted(attr)])
    return node.op, node.device, tuple(data), controls, attrs
