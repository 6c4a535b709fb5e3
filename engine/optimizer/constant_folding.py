"""constant_folding: a pure node whose inputs are all constants becomes a Const.

TensorFlow's rules (grappler/optimizers/constant_folding.cc): never through a stateful,
random or control-flow op; never a fed node; nothing whose result is larger than
MAX_CONSTANT_SIZE_IN_BYTES (10 MiB, TF's kMaxConstantSize); a kernel that fails leaves the
node as it was (the run reports the error where the user put the op). A one-output node
becomes a Const of the same name (so a fetch of it still works); the outputs of a
several-output node become Consts named `ConstantFolding/<node>-folded-<i>` and the node goes away
unless it is kept. A folded Const keeps the control inputs of the node and of the
constants it read, so it stays in the same frame and branch.

Then, as TensorFlow's SimplifyGraph: a Pack of one input becomes an ExpandDims of a new
`ConstantFolding/<node>_const_axis`; a division by a constant (Div of floats, RealDiv,
Xdivy) a multiplication by its reciprocal, a new `ConstantFolding/<node>_recip` folded in the
next round (ReduceDivToReciprocalMul: `x / 255.0` runs as `x * (1 / 255)`); a Switch of a tensor on itself (a lowered cond's
`switch_pred`) has its outputs read as the constants false and true. A control edge that
must leave a Switch output is anchored on an Identity of that output,
`ConstantFoldingCtrl/<switch>_<port>` (an edge from the Switch itself would fire on either
side). When the fetches are known, a node nothing reads and nobody keeps goes, and the
whole pass runs again until the graph stops changing (TensorFlow's FoldGraph and its
Optimize loop): what inlining and lowering left unused (a loop's unread exits, a cond's
`branch_executed`) does not run.
"""

import numpy as np

from engine import kernels
from engine.kernels.context import KernelContext
from engine.optimizer import rules
from engine.optimizer.graph_view import GraphView, input_text, parse_input
from engine.optimizer.report import Report
from engine.proto import types_pb2

MAX_CONSTANT_SIZE_IN_BYTES = 10 * 1024 * 1024
# Ops not folded: already constants, or several outputs that only forward their inputs.
NOT_FOLDED = frozenset({"Const", "HostConst", "IdentityN"})


MAX_ROUNDS = 100  # (TensorFlow loops until nothing changes; a bound against a bug)


def optimize(graph_def, context):
    view = GraphView(graph_def)
    report = Report()
    for _ in range(MAX_ROUNDS):
        edits = view.edits
        _fold(view, context, report)
        if context.fetches:
            _remove_unread(view, context, report)
        _simplify(view, context, report)
        if view.edits == edits:
            break
    return view.to_graph_def(), report


def _fold(view, context, report):
    for name in view.topological_order():
        node = view.node(name)
        if node is None or not _foldable(view, node, context):
            continue
        outputs = evaluate(view, node)
        if outputs is None:
            continue
        _replace_with_constants(view, node, outputs, context, report)


def _remove_unread(view, context, report):
    """Nodes nothing reads (data or control) and nobody keeps go (TensorFlow's FoldGraph
    keeps only nodes with a fanout when the fetches are known)."""
    for name in list(view.names()):
        node = view.node(name)
        if node is not None and not view.consumers.get(name) and not context.is_preserved(name):
            view.remove(name)
            report.note("removed", f"{name} ({node.op}) is read by nothing")


def _simplify(view, context, report):
    for name in list(view.names()):
        node = view.node(name)
        if node is None:
            continue
        if node.op == "Pack" and len(view.data_inputs(node)) == 1:
            _pack_to_expand_dims(view, node, context, report)
        elif node.op == "Switch":
            _switch_on_itself(view, node, report)
        elif node.op in _DIVISIONS and _division_to_reciprocal_mul(view, node, context, report):
            pass
        elif node.op in _PUSH_DOWN_OPS and context.fetches:
            _constant_push_down(view, node, context, report)


def _pack_to_expand_dims(view, node, context, report):
    """TensorFlow's SimplifyPack."""
    axis_name = f"ConstantFolding/{node.name}_const_axis"
    source = view.inputs(node.name)[0]
    if axis_name in view.nodes or parse_input(source)[0] in context.feeds:
        return
    axis = node.attr["axis"].i if "axis" in node.attr else 0
    anchor = control_anchor(view, source)
    view.add(rules.const_node(axis_name, np.int32(axis), np.int32, node.device, [anchor]),
             after=node.name)
    expand = type(node)()
    expand.CopyFrom(node)
    expand.op = "ExpandDims"
    for attr in ("axis", "N"):
        if attr in expand.attr:
            del expand.attr[attr]
    expand.attr["Tdim"].type = types_pb2.DT_INT32
    inputs = list(view.inputs(node.name))
    inputs.insert(1, axis_name)
    view.replace(expand)
    view.set_inputs(expand, inputs)
    report.note("changed", f"{node.name} (Pack of one) -> ExpandDims")


def _switch_on_itself(view, node, report):
    """TensorFlow's SimplifySwitch: a Switch of a predicate on itself sends false on its
    output 0 and true on its output 1, so its readers read those constants."""
    inputs = view.inputs(node.name)
    false_name = f"ConstantFolding/{node.name}_const_false"
    true_name = f"ConstantFolding/{node.name}_const_true"
    if (len(inputs) < 2 or inputs[0] != inputs[1] or false_name in view.nodes
            or true_name in view.nodes):
        return
    # TensorFlow's test of whether it ran already: unless the Switch has exactly two readers
    # and one is not an Identity read only as a control input, it is taken as done. (A test
    # that counted its own anchors, Identities of its outputs, re-ran on a Switch one anchor
    # of which had gone: it rewired that anchor to wait on itself, and a cond branch's
    # constant lost its frame, so tf.cond inside tf.map_fn returned no value.)
    consumers = sorted(view.consumers.get(node.name, ()))
    if len(consumers) != 2 or all(_control_only_identity(view, c) for c in consumers):
        return
    true_port = input_text(node.name, 1)
    for name, value, port in ((false_name, False, node.name), (true_name, True, true_port)):
        view.add(rules.const_node(name, np.bool_(value), np.bool_, node.device,
                                  [control_anchor(view, port)]), after=node.name)
    for consumer_name in consumers:
        consumer = view.node(consumer_name)
        inputs_now = list(view.inputs_of(consumer))
        rewired = [false_name if t == node.name else true_name if t == true_port else t
                   for t in inputs_now]
        if rewired != inputs_now:
            view.set_inputs(consumer, rewired)
    report.note("changed", f"{node.name} (Switch of a tensor on itself): readers read "
                           f"constants")


# Divisions by a constant that become a multiplication by its reciprocal (TensorFlow's
# ReduceDivToReciprocalMul), and what each becomes.
_DIVISIONS = {"Div": "Mul", "RealDiv": "Mul", "Xdivy": "MulNoNan"}
_FLOAT_OR_COMPLEX = frozenset({types_pb2.DT_HALF, types_pb2.DT_BFLOAT16, types_pb2.DT_FLOAT,
                               types_pb2.DT_DOUBLE, types_pb2.DT_COMPLEX64,
                               types_pb2.DT_COMPLEX128})


def _division_to_reciprocal_mul(view, node, context, report):
    """TensorFlow's ReduceDivToReciprocalMul: x / c, c a constant nobody feeds, becomes
    x * Reciprocal(c), the Reciprocal a new node `ConstantFolding/<node>_recip` that the
    next round folds (so the run multiplies by 1/c: a division by 3 rounds differently).
    An Xdivy becomes MulNoNan(Reciprocal(c), x); an integer Div stays."""
    inputs = view.inputs(node.name)
    recip_name = f"ConstantFolding/{node.name}_recip"
    if len(inputs) < 2 or inputs[1].startswith("^") or recip_name in view.nodes:
        return False
    if not rules.is_constant(view.node(parse_input(inputs[1])[0]), context):
        return False
    if "T" not in node.attr or (node.op == "Div"
                                and node.attr["T"].type not in _FLOAT_OR_COMPLEX):
        return False
    reciprocal = type(node)(name=recip_name, op="Reciprocal", device=node.device)
    reciprocal.input.append(inputs[1])
    reciprocal.attr["T"].type = node.attr["T"].type
    view.add(reciprocal, after=node.name)
    product = type(node)()
    product.CopyFrom(node)
    product.op = _DIVISIONS[node.op]
    rewired = list(inputs)
    if node.op == "Xdivy":
        rewired[0], rewired[1] = recip_name, inputs[0]
    else:
        rewired[1] = recip_name
    view.replace(product)
    view.set_inputs(product, rewired)
    report.note("changed", f"{node.name} ({node.op} by a constant) -> {product.op} by "
                           f"{recip_name}")
    return True


# ConstantPushDown's parents and children (Grappler's IsAdd is Add and AddV2, IsDiv is Div).
_PUSH_DOWN_OPS = frozenset({"Add", "AddV2", "Sub", "Mul", "Div"})
_ADDS, _MULS = frozenset({"Add", "AddV2"}), frozenset({"Mul"})
_HALVES = frozenset({types_pb2.DT_HALF, types_pb2.DT_BFLOAT16})


def _constant_push_down(view, node, context, report):
    """TensorFlow's ConstantPushDown: `(x op y) op c`, c a constant, becomes `x op (c op y)`
    (signs and ops worked out for Sub and Div), so that where y is a constant too the inner
    node folds, and where it is not, the product a * b * 3.0 runs as a * (3.0 * b), as in
    TensorFlow's graph: the rounding follows. The inner node keeps its name."""
    parent = _push_down_parts(view, node, context)
    if parent is None:
        return
    child, const_left, leaf_left_const, c_text, op_text = parent
    child_inputs = list(view.inputs(child.name))
    x_text = child_inputs[1] if leaf_left_const else child_inputs[0]
    y_text = child_inputs[1] if x_text == child_inputs[0] else child_inputs[0]
    if not _leaf_fits(view, node, child, const_left, leaf_left_const, context):
        return
    symmetric = node.op in _ADDS or node.op in _MULS
    child_symmetric = child.op in _ADDS or child.op in _MULS
    node_inputs, new_child = list(view.inputs(node.name)), type(child)()
    new_child.CopyFrom(child)
    new_node = type(node)()
    new_node.CopyFrom(node)
    if symmetric and child_symmetric:
        node_inputs[0], node_inputs[1] = x_text, op_text
        child_inputs[0], child_inputs[1] = c_text, y_text
    else:
        def leaf_negated(is_right_leaf):
            return (not child_symmetric and is_right_leaf) != (not symmetric and const_left)
        plain = "Add" if node.op in _ADDS or node.op == "Sub" else "Mul"
        inverse = "Sub" if plain == "Add" else "Div"
        neg_c = not symmetric and not const_left
        neg_x, neg_y = leaf_negated(leaf_left_const), leaf_negated(not leaf_left_const)
        new_node.op = inverse if (neg_x or (neg_c and neg_y)) else plain
        node_inputs[0], node_inputs[1] = (op_text, x_text) if neg_x else (x_text, op_text)
        new_child.op = inverse if neg_c != neg_y else plain
        child_inputs[0], child_inputs[1] = (y_text, c_text) if neg_c else (c_text, y_text)
    view.replace(new_node)
    view.set_inputs(new_node, node_inputs)
    view.replace(new_child)
    view.set_inputs(new_child, child_inputs)
    report.note("changed", f"{node.name}: its constant pushed down into {child.name} "
                           f"({new_node.op} of {new_child.op})")


def _push_down_parts(view, node, context):
    """TensorFlow's PrepareConstantPushDown (and ConstantPushDown's op checks): (child,
    whether the constant is the parent's left input, whether the child's left leaf is the
    constant one, the constant's input text, the child's input text), or None."""
    data = [t for t in view.inputs(node.name) if not t.startswith("^")]
    if len(data) != 2:
        return None
    left, right = (view.node(parse_input(t)[0]) for t in data)
    if left is None or right is None:
        return None
    const_left, const_right = rules.is_constant(left, context), rules.is_constant(right, context)
    if not (const_left or const_right):
        return None
    child, constant = (right, left) if const_left else (left, right)
    if not rules.same_device(node, child, constant):
        return None
    child_data = [t for t in view.inputs(child.name) if not t.startswith("^")]
    if (len(view.inputs(child.name)) < 2 or context.is_preserved(child.name)
            or _data_readers(view, child.name) > 1):
        return None
    if "T" not in node.attr or node.attr["T"].type in _HALVES:
        return None
    if constant.name in view.consumers.get(child.name, ()):
        return None
    if len(child_data) < 2:
        return None
    leaves = [view.node(parse_input(t)[0]) for t in view.inputs(child.name)[:2]]
    if any(leaf is None for leaf in leaves):
        return None
    leaf_left_const = rules.is_constant(leaves[0], context)
    if leaf_left_const and rules.is_constant(leaves[1], context):
        return None
    if not rules.same_device(node, *leaves):
        return None
    adds_subs = (node.op in _ADDS or node.op == "Sub") and (child.op in _ADDS or child.op == "Sub")
    muls_divs = (node.op in _MULS or node.op == "Div") and (child.op in _MULS or child.op == "Div")
    if not (adds_subs or muls_divs):
        return None
    symmetric = node.op in _ADDS or node.op in _MULS
    child_symmetric = child.op in _ADDS or child.op in _MULS
    if not (symmetric and child_symmetric) and node.attr["T"].type not in _FLOAT_OR_COMPLEX:
        return None
    c_text, op_text = (data[0], data[1]) if const_left else (data[1], data[0])
    return child, const_left, leaf_left_const, c_text, op_text


def _data_readers(view, name):
    """How many data edges leave node `name` (Grappler's NumNonControlOutputs)."""
    return sum(1 for consumer in view.consumers.get(name, ())
               for text in view.inputs(consumer)
               if not text.startswith("^") and parse_input(text)[0] == name)


def _leaf_fits(view, node, child, const_left, leaf_left_const, context):
    """TensorFlow's check when the leaf the constant joins is not a constant: the constant
    must not broadcast it to more elements (its shape known where the graph shows it)."""
    leaf_text = view.inputs(child.name)[0 if leaf_left_const else 1]
    leaf = view.node(parse_input(leaf_text)[0])
    if rules.is_constant(leaf, context):
        return True
    data = [t for t in view.inputs(node.name) if not t.startswith("^")]
    constant = view.node(parse_input(data[0 if const_left else 1])[0])
    c_dims = [d.size for d in constant.attr["value"].tensor.tensor_shape.dim]
    y_dims = _static_dims(leaf, parse_input(leaf_text)[1])
    if y_dims is None:
        return True
    c_known, y_known = all(d >= 0 for d in c_dims), all(d >= 0 for d in y_dims)
    if c_known and y_known and int(np.prod(c_dims)) > int(np.prod(y_dims)):
        return False
    if c_dims:
        for c_dim, y_dim in zip(c_dims, y_dims):
            if y_dim >= 0 and c_dim > y_dim:
                return False
    return True


def _static_dims(node, index):
    """A node output's dims as the graph states them (`_output_shapes`, a placeholder's or a
    constant's shape), -1 for an unknown dim; None where nothing says."""
    shapes = node.attr["_output_shapes"].list.shape if "_output_shapes" in node.attr else ()
    if index < len(shapes):
        shape = shapes[index]
    elif node.op in ("Placeholder", "PlaceholderWithDefault") and "shape" in node.attr:
        shape = node.attr["shape"].shape
    elif node.op in rules.CONSTANTS:
        shape = node.attr["value"].tensor.tensor_shape
    else:
        return None
    return None if shape.unknown_rank else [d.size for d in shape.dim]


def _read_as_data(view, name):
    return any(not text.startswith("^") and parse_input(text)[0] == name
               for consumer in view.consumers.get(name, ())
               for text in view.inputs(consumer))


def _control_only_identity(view, name):
    """An Identity (or an IdentityN of one input) nothing reads as data."""
    node = view.node(name)
    single_identity_n = node.op == "IdentityN" and len(view.data_inputs(node)) == 1
    return (node.op == "Identity" or single_identity_n) and not _read_as_data(view, name)


def control_anchor(view, tensor):
    """The control input that waits for `tensor` (TensorFlow's AddControlDependency): the
    producer itself, or for a Switch output an Identity of it (`ConstantFoldingCtrl/...`)."""
    producer, port = parse_input(tensor)
    node = view.node(producer)
    if node is None or node.op not in ("Switch", "RefSwitch"):
        return producer
    # (TensorFlow looks for an Identity already reading the output but compares the wrong
    # names, so it always makes its own.)
    name = f"ConstantFoldingCtrl/{producer}_{port}"
    if name not in view.nodes:
        anchor = type(node)(name=name, op="Identity", device=node.device)
        anchor.attr["T"].CopyFrom(node.attr["T"])
        anchor.input.append(input_text(producer, port))
        view.add(anchor, after=producer)
    return name


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
    text = " ".join(text.split())
    if len(text) > _DESCRIBED_CHARACTERS:  # a serialized proto in a string Const, say
        text = text[:_DESCRIBED_CHARACTERS - 3] + "..."
    return f"{array.dtype.name} {text}"


# A report line names a folded value; a longer one is cut (the graph keeps it whole).
_DESCRIBED_CHARACTERS = 60
