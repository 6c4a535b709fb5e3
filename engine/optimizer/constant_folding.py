"""constant_folding: a pure node whose inputs are all constants becomes a Const.

TensorFlow's rules (grappler/optimizers/constant_folding.cc): never through a stateful,
random or control-flow op; never a fed node; nothing whose result is larger than
MAX_CONSTANT_SIZE_IN_BYTES (10 MiB, TF's kMaxConstantSize); a kernel that fails leaves the
node as it was (the run reports the error where the user put the op). A one-output node
becomes a Const of the same name (so a fetch of it still works); the outputs of a
several-output node become Consts named `ConstantFolding/<node>-folded-<i>` and the node goes away
unless it is kept. A folded Const keeps the control inputs of the node and of the
constants it read, so it stays in the same frame and branch.
"""

import numpy as np

from engine import kernels
from engine.kernels.context import KernelContext
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, input_text, parse_input
from engine.optimizer.report import Report

MAX_CONSTANT_SIZE_IN_BYTES = 10 * 1024 * 1024
# Ops not folded: already constants, or several outputs that only forward their inputs.
NOT_FOLDED = frozenset({"Const", "HostConst", "IdentityN"})


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    for name in view.topological_order():
        node = view.node(name)
        if node is None or not _foldable(view, node, context):
            continue
        outputs = evaluate(view, node)
        if outputs is None:
            continue
        _replace_with_constants(view, node, outputs, context, report)
    return view.to_graph_def(), report


def _foldable(view, node, context):
    if node.op in NOT_FOLDED or node.name in context.feeds or not rules.is_pure(node):
        return False
    data = view.data_inputs(node)
    if not data:
        return False  # a node of no inputs (a generator of zeros, ...) is left to run
    return all(rules.is_constant(view.node(producer), context) for producer, _ in data)


def evaluate(view, node):
    """The node's outputs computed by its CPU kernel, or None (no kernel, an error, too big)."""
    kernel = kernels.lookup(node.op)
    types = rules.output_dtypes(node)
    if kernel is None or types is None:
        return None
    producers = [view.node(producer) for producer, _ in view.data_inputs(node)]
    if any(rules.constant_nbytes(p) > MAX_CONSTANT_SIZE_IN_BYTES for p in producers
           if p.op in rules.CONSTANTS):
        return None  # too big to read in, as TensorFlow leaves it (and a file may claim 1 TB)
    inputs = [rules.constant_value(p) for p in producers]
    ctx = KernelContext(node, types, None)
    try:
        with np.errstate(all="ignore"):
            result = kernel(ctx, *inputs)
    except Exception:  # noqa: BLE001  (TensorFlow leaves a node whose kernel fails unfolded)
        return None
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(outputs) != len(types):
        return None
    arrays = []
    for value, dtype in zip(outputs, types):
        if value is None or not isinstance(value, (np.ndarray, np.generic, int, float, bool,
                                                   bytes)):
            return None
        array = np.asarray(value)
        if array.nbytes > MAX_CONSTANT_SIZE_IN_BYTES:
            return None
        arrays.append((array, dtype))
    return arrays


def _replace_with_constants(view, node, outputs, context, report):
    controls = _inherited_controls(view, node)
    if len(outputs) == 1:
        value, dtype = outputs[0]
        view.replace(rules.const_node(node.name, value, dtype, node.device, controls))
        report.note("folded", f"{node.name} ({node.op}) -> Const {_describe(value)}")
        return
    names = []
    for index, (value, dtype) in enumerate(outputs):
        name = f"ConstantFolding/{node.name}-folded-{index}"
        if name in view.nodes:
            return
        names.append(name)
    used = {parse_input(text)[1] for consumer in view.consumers.get(node.name, ())
            for text in view.node(consumer).input if parse_input(text)[0] == node.name}
    for index, ((value, dtype), name) in enumerate(zip(outputs, names)):
        if index in used:
            view.add(rules.const_node(name, value, dtype, node.device, controls), after=node.name)
            report.note("added", f"{name} = Const {_describe(value)}")
    view.forward(node.name, [input_text(n, 0) for n in names], extra_controls=[
        c for c in controls] or [n for n in names if n in view.nodes][:1])
    if not context.is_preserved(node.name):
        view.remove(node.name)
        report.note("folded", f"{node.name} ({node.op}) -> {len(names)} Consts")


def _inherited_controls(view, node):
    """Control inputs of the node and of the constants it reads, deduplicated, in order."""
    controls = []
    for text in node.input:
        producer, index = parse_input(text)
        names = [producer] if index < 0 else view.control_inputs(view.node(producer))
        for name in names:
            if name not in controls:
                controls.append(name)
    return controls


def _describe(value):
    array = np.asarray(value)
    if array.size <= 4:
        text = np.array2string(array, threshold=4, separator=", ")
    else:
        text = f"shape {list(array.shape)}"
    return f"{array.dtype.name} {' '.join(text.split())}"
