"""arithmetic_optimization: algebra that makes less work, as Grappler's arithmetic optimizer.

- (x + c1) + c2 -> x + (c1 + c2), and the same for Mul: a chain of adds of constants onto a
  fed tensor becomes one add (TensorFlow does this in constant folding's ConstantPushDown;
  the inner node's name holds the combined constant, as TensorFlow names it);
- x + 0, x - 0, x * 1, x / 1 (a scalar constant) -> Snapshot(x) (a copy, as TensorFlow's
  constant folding writes it: `x + 0` is how TF1 code reads a variable's value now);
- Neg(Neg(x)) and LogicalNot(LogicalNot(x)) -> Identity(x);
- Cast to its own type, and a lossless widening Cast cast back -> Identity(x);
- Transpose by the identity permutation, and two Transposes that cancel -> Identity(x);
- Pow(x, c), c a constant of one value, as TensorFlow's ConvertPow: 2 -> Square(x),
  0.5 -> Sqrt, -0.5 -> Rsqrt, -1 -> Reciprocal (the node keeps its name, c becomes a control
  input), and on the CPU 3 -> Mul(x, Square(x)) with the Square a new node
  <scope>/ArithmeticOptimizer/ConvertPow_<name>_inner; 1 and 0, which TensorFlow rewrites
  only where static shapes show no broadcast, stay Pow;
- Mul(x, x) -> Square(x), as TensorFlow's ReplaceMulWithSquare: a new node named
  <scope>/ArithmeticOptimizer/ReplaceMulWithSquare_<name> takes the Mul's place (TensorFlow's
  partition graphs show that name), unless the Mul is kept;
- an idempotent op (Identity, Snapshot, StopGradient, ...) of the same op on its device, with
  no control input and not kept: its readers read the inner one (TensorFlow's
  RemoveIdempotentStage; what inlining leaves, an output Identity of a body's Identity of an
  input Identity, collapses so).
Any other rewritten node keeps its name (its consumers and fetches still find it); dependency
optimization then removes the Identity where it can.
"""

import numpy as np

from engine.framework import dtypes, tensor_util
from engine.optimizer import rules
from engine.optimizer.constant_folding import MAX_CONSTANT_SIZE_IN_BYTES
from engine.optimizer.graph_view import GraphView, parse_input
from engine.optimizer.report import Report
from engine.proto import node_def_pb2

ASSOCIATIVE = {"Add": np.add, "AddV2": np.add, "Mul": np.multiply}
NEUTRAL = {"Add": (0, "either"), "AddV2": (0, "either"), "Sub": (0, "right"),
           "Mul": (1, "either"), "RealDiv": (1, "right"), "Div": (1, "right")}
INVOLUTIONS = frozenset({"Neg", "LogicalNot"})
# Casts that lose nothing, so casting back gives the input exactly.
_LOSSLESS = {
    "float16": {"float32", "float64"}, "bfloat16": {"float32", "float64"},
    "float32": {"float64"},
    "int8": {"int16", "int32", "int64", "float32", "float64"},
    "int16": {"int32", "int64", "float32", "float64"}, "int32": {"int64", "float64"},
    "uint8": {"int16", "int32", "int64", "uint16", "uint32", "uint64", "float32", "float64"},
    "uint16": {"int32", "int64", "uint32", "uint64", "float32", "float64"},
    "uint32": {"int64", "uint64", "float64"},
}


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    _push_down_constants(view, context, report)
    for name in view.topological_order():
        node = view.node(name)
        if node is None or node.name in context.feeds:
            continue
        for rewrite in (_neutral_element, _involution, _redundant_cast, _redundant_transpose,
                        _convert_pow, _mul_to_square, _idempotent):
            if rewrite(view, node, context, report):
                break
    return view.to_graph_def(), report


def _numeric(node):
    dtype = dtypes.as_dtype(node.attr["T"].type) if "T" in node.attr else None
    return dtype is not None and dtype != dtypes.string and dtype.is_numpy_compatible


def _constant_operand(view, node, context):
    """(constant producer, other input text) of a two-input node with one constant input."""
    data = [t for t in view.inputs_of(node) if not t.startswith("^")]
    if len(data) != 2:
        return None
    for mine, other in ((1, 0), (0, 1)):
        producer = view.node(parse_input(data[mine])[0])
        if rules.is_constant(producer, context) and not rules.is_constant(
                view.node(parse_input(data[other])[0]), context):
            return producer, data[other], mine
    return None


def _push_down_constants(view, context, report):
    """Chains of Add (or Mul) of constants collapse to one op of one constant, outermost
    first, so a chain of n costs one combined constant, not n."""
    for name in reversed(view.topological_order()):
        node = view.node(name)
        if node is None or node.name in context.feeds or node.op not in ASSOCIATIVE \
                or not _numeric(node):
            continue
        outer = _constant_operand(view, node, context)
        if outer is None:
            continue
        constants, chain, x_text = [outer[0]], [], outer[1]
        while True:
            inner = _chain_link(view, node if not chain else chain[-1], x_text, context)
            if inner is None:
                break
            chain.append(inner[0])
            constants.append(inner[1])
            x_text = inner[2]
        if chain:
            _collapse(view, node, chain, constants, x_text, context, report)


def _chain_link(view, outer, inner_text, context):
    """(inner node, its constant, its other input) when `inner_text` is a node of the same
    op, one constant operand, read by `outer` alone, not kept, on the same device."""
    inner_name, index = parse_input(inner_text)
    inner = view.node(inner_name)
    if (inner is None or index != 0 or inner.op != outer.op or inner.attr["T"] != outer.attr["T"]
            or context.is_preserved(inner_name) or view.control_inputs(inner)
            or view.consumers.get(inner_name) != {outer.name}
            or not rules.same_device(inner, outer)):
        return None
    operands = _constant_operand(view, inner, context)
    if operands is None or not rules.same_device(inner, operands[0]):
        return None
    return inner, operands[0], operands[1]


def _collapse(view, node, chain, constants, x_text, context, report):
    combine = ASSOCIATIVE[node.op]
    value = rules.constant_value(constants[-1])
    for constant in reversed(constants[:-1]):
        value = combine(value, rules.constant_value(constant))
        if value.nbytes > MAX_CONSTANT_SIZE_IN_BYTES:
            return
    controls = []
    for constant in constants:
        controls.extend(c for c in view.control_inputs(constant) if c not in controls)
    holder = chain[0].name  # the outermost inner node's name holds the combined constant
    for inner in chain[1:]:
        view.remove(inner.name)
    dtype = dtypes.as_dtype(node.attr["T"].type)
    view.replace(rules.const_node(holder, value, dtype, chain[0].device, controls))
    view.set_inputs(node, [x_text, holder] + [t for t in node.input if t.startswith("^")])
    report.note("folded", f"{node.name}: {len(chain) + 1} {node.op}s of constants onto {x_text}"
                          f" -> one {node.op} of {holder}", count=len(constants) - 1)
    for inner in chain[1:]:
        report.note("removed", f"{inner.name} ({node.op}) combined into {holder}")
    for constant in constants:
        _remove_if_unused(view, constant, context, report)


# TensorFlow's IsValueAndOrderAndShapePreserving, less what has a side effect (Print) or
# moves between frames (Enter, Exit): IsIdempotent.
IDEMPOTENT = frozenset({"Identity", "RefIdentity", "Snapshot", "StopGradient",
                        "PreventGradient", "CheckNumerics", "DebugGradientIdentity",
                        "DeepCopy"})


def _idempotent(view, node, context, report):
    if node.op not in IDEMPOTENT or context.is_preserved(node.name):
        return False
    inputs = view.inputs_of(node)
    if len(inputs) != 1 or inputs[0].startswith("^"):
        return False
    inner = view.node(parse_input(inputs[0])[0])
    if inner is None or inner.op != node.op or inner.device != node.device:
        return False
    consumers = sorted(view.consumers.get(node.name, ()))
    if not consumers:
        return False
    source = parse_input(inputs[0])[0]
    for consumer_name in consumers:
        consumer = view.node(consumer_name)
        rewired = []
        for text in view.inputs_of(consumer):
            producer, index = parse_input(text)
            rewired.append(text if producer != node.name else
                           "^" + source if index < 0 else inputs[0])
        view.set_inputs(consumer, rewired)
    report.note("changed", f"{node.name} ({node.op} of {node.op}): its readers read "
                           f"{inputs[0]}")
    return True


def _neutral_element(view, node, context, report):
    rule = NEUTRAL.get(node.op)
    if rule is None or not _numeric(node):
        return False
    operands = _constant_operand(view, node, context)
    if operands is None:
        return False
    constant, x_text, position = operands
    neutral, side = rule
    if side == "right" and position != 1:
        return False
    if len(constant.attr["value"].tensor.tensor_shape.dim) != 0:
        return False  # only a scalar keeps x's shape whatever it is
    value = rules.constant_value(constant)
    if value.ndim != 0 or value != neutral:
        return False
    _become_identity(view, node, x_text, view.control_inputs(constant), report,
                     f"{node.op} by {neutral}", op="Snapshot")
    _remove_if_unused(view, constant, context, report)
    return True


def _involution(view, node, context, report):
    if node.op not in INVOLUTIONS:
        return False
    inner = view.node(parse_input(node.input[0])[0]) if node.input else None
    if inner is None or inner.op != node.op or parse_input(node.input[0])[1] != 0:
        return False
    inner_data = [t for t in inner.input if not t.startswith("^")]
    _become_identity(view, node, inner_data[0], view.control_inputs(inner), report,
                     f"{node.op} of {node.op}")
    _remove_if_unused(view, inner, context, report)
    return True


def _redundant_cast(view, node, context, report):
    if node.op != "Cast" or not node.input:
        return False
    source, target = node.attr["SrcT"].type, node.attr["DstT"].type
    if source == target:
        _become_identity(view, node, node.input[0], (), report, "Cast to its own type")
        return True
    inner = view.node(parse_input(node.input[0])[0])
    if inner is None or inner.op != "Cast" or parse_input(node.input[0])[1] != 0:
        return False
    original, middle = inner.attr["SrcT"].type, inner.attr["DstT"].type
    if original != target or inner.attr["Truncate"].b:
        return False
    wide = _LOSSLESS.get(dtypes.as_dtype(original).name, ())
    if dtypes.as_dtype(middle).name not in wide:
        return False
    _become_identity(view, node, inner.input[0], view.control_inputs(inner), report,
                     "Cast back of a lossless Cast")
    _remove_if_unused(view, inner, context, report)
    return True


def _permutation(view, text, context):
    producer = view.node(parse_input(text)[0])
    if not rules.is_constant(producer, context):
        return None
    value = rules.constant_value(producer)
    return [int(v) for v in value.ravel()] if value.ndim == 1 else None


def _redundant_transpose(view, node, context, report):
    if node.op not in ("Transpose", "ConjugateTranspose") or len(node.input) < 2:
        return False
    outer = _permutation(view, node.input[1], context)
    if outer is None:
        return False
    if outer == list(range(len(outer))) and node.op == "Transpose":
        _become_identity(view, node, node.input[0], (), report, "Transpose by the identity")
        return True
    inner = view.node(parse_input(node.input[0])[0])
    if (inner is None or inner.op != node.op or parse_input(node.input[0])[1] != 0
            or len(inner.input) < 2):
        return False
    first = _permutation(view, inner.input[1], context)
    if first is None or len(first) != len(outer):
        return False
    if any(first[outer[j]] != j for j in range(len(outer))):
        return False
    _become_identity(view, node, inner.input[0], view.control_inputs(inner), report,
                     "two Transposes that cancel")
    _remove_if_unused(view, inner, context, report)
    return True


_COMPLEX = frozenset({dtypes.complex64.as_datatype_enum, dtypes.complex128.as_datatype_enum})


_POW_AS = {2.0: "Square", 0.5: "Sqrt", -0.5: "Rsqrt", -1.0: "Reciprocal"}


def _convert_pow(view, node, context, report):
    """Pow by a constant of one value as a cheaper op (see the module's doc)."""
    if node.op != "Pow" or len(node.input) < 2 or node.input[1].startswith("^"):
        return False
    exponent = view.node(parse_input(node.input[1])[0])
    if exponent is None or exponent.op != "Const" or parse_input(node.input[1])[1] != 0:
        return False
    value = tensor_util.splat_value(exponent.attr["value"].tensor)  # (never the full array)
    if value is None or np.asarray(value).dtype.kind not in "iuf":
        return False
    power = float(value)
    controls = list(node.input[2:]) + ["^" + exponent.name]
    if power in _POW_AS:
        node.op = _POW_AS[power]
        view.set_inputs(node, [node.input[0]] + controls)
        report.note("changed", f"{node.name}: Pow by {power:g} -> {node.op}")
        return True
    if power != 3.0 or "CPU" not in node.device.upper():
        return False
    name = _optimized_name(node.name, "ConvertPow", "_inner")
    if name in view.nodes:
        return False
    _add_square_of_input(view, node, name)
    node.op = "Mul"
    view.set_inputs(node, [node.input[0], name] + controls)
    report.note("changed", f"{node.name}: Pow by 3 -> Mul({node.input[0]}, {name} (Square))")
    return True


def _optimized_name(name, stage, suffix=""):
    """Grappler's OptimizedNodeName: <scope>/ArithmeticOptimizer/<stage>_<name><suffix>."""
    scope, _, base = name.rpartition("/")
    return f"{scope}/" * bool(scope) + f"ArithmeticOptimizer/{stage}_{base}{suffix}"


def _add_square_of_input(view, node, name):
    """A Square of the node's first input, named `name`, with its attrs, device and control
    inputs (as Grappler's AddCopyNode made into a Square)."""
    square = node_def_pb2.NodeDef()
    square.CopyFrom(node)
    square.name, square.op = name, "Square"
    del square.input[:]
    view.add(square, after=node.name)
    view.set_inputs(square, [node.input[0]] + [t for t in node.input if t.startswith("^")])


def _mul_to_square(view, node, context, report):
    """Mul(x, x) -> Square(x) in a new node (see the module's doc); its readers, control
    readers too, move to it. Complex squares only on the CPU, as TensorFlow's stage."""
    if (node.op != "Mul" or len(node.input) < 2 or node.input[0] != node.input[1]
            or node.input[0].startswith("^") or context.is_preserved(node.name)):
        return False
    if node.attr["T"].type in _COMPLEX and "CPU" not in node.device.upper():
        return False
    name = _optimized_name(node.name, "ReplaceMulWithSquare")
    if name in view.nodes:
        return False
    _add_square_of_input(view, node, name)
    view.forward(node.name, {0: name}, extra_controls=[name])
    view.remove(node.name)
    report.note("changed", f"{node.name}: Mul of {node.input[0]} by itself -> {name} (Square)")
    return True


def _become_identity(view, node, x_text, extra_controls, report, why, op="Identity"):
    """The node, same name and device, becomes Identity(x) keeping its control inputs; or
    Snapshot(x), a copy, where the node made a new buffer that `x + 0` is written to get
    (TensorFlow's constant folding does the same: a read of a variable stays a copy)."""
    dtype = node.attr["T"].type if "T" in node.attr else node.attr["DstT"].type
    identity = node_def_pb2.NodeDef(name=node.name, op=op, device=node.device)
    identity.attr["T"].type = dtype
    view.replace(identity)
    controls = ["^" + c for c in list(view.control_inputs(node)) + list(extra_controls)]
    view.set_inputs(identity, [x_text] + controls)
    report.note("changed", f"{node.name}: {why} -> {op}({x_text})")


def _remove_if_unused(view, node, context, report):
    """Removes a node nothing reads any more (pure and not kept)."""
    name = node.name
    if (name in view.nodes and not view.consumers.get(name) and not context.is_preserved(name)
            and (rules.is_pure(node) or node.op in rules.CONSTANTS)):
        view.remove(name)
        report.note("removed", f"{name} ({node.op}) no longer used")
