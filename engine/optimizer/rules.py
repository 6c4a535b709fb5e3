"""What the passes may touch: TensorFlow's rules on which nodes are constant, foldable, pure.

Grappler never folds or merges through a stateful op (variables, queues, random ops: the
OpDef's is_stateful), control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond),
Send/Recv, placeholders, function calls, or an op whose outputs are references or resources.
"""

import numpy as np

from engine.framework import dtypes, op_families, op_registry, tensor_util
from engine.kernels.fused_chain import FUSED_OP
from engine.proto import node_def_pb2

PLACEHOLDERS = frozenset({"Placeholder", "PlaceholderV2", "PlaceholderWithDefault"})
CONSTANTS = frozenset({"Const", "HostConst"})
# Ops that are never rewritten away whatever their OpDef says (the run relies on them).
UNTOUCHABLE = (op_families.CONTROL_FLOW | op_families.SEND_RECV | op_families.FUNCTIONAL
               | op_families.EXECUTOR_BUILTIN | PLACEHOLDERS
               | {"NoOp", "Assert", "Print", "PrintV2", "CheckNumerics", "_Arg", "_Retval"})


def op_def(op_type):
    return op_registry.lookup(op_type)


def is_random(op_type):
    return "Random" in op_type or op_type in {"Multinomial", "TruncatedNormal",
                                              "ParameterizedTruncatedNormal"}


_OP_PURITY = {}  # op type -> False (never pure), True (always), None (ask the node's dtypes)
_HANDLE_TYPES = frozenset({dtypes.resource.as_datatype_enum, dtypes.variant.as_datatype_enum})


def is_pure(node):
    """No side effects, no state, not control flow: same inputs, same outputs."""
    if node.op == FUSED_OP:
        # A fused chain is as pure as its steps: one drawing random numbers is not (folding
        # it would run its whole chain, and give every run the first run's values).
        return not any(is_random(op.decode()) for op in node.attr["fused_ops"].list.s)
    purity = _OP_PURITY.get(node.op, "unknown")
    if purity == "unknown":
        purity = _OP_PURITY[node.op] = _op_purity(node.op)
    if purity is None:  # (an OpDef without ref args: _op_purity said so)
        return not _ref_or_resource_output(node, op_def(node.op))
    return purity


def _op_purity(op_type):
    if op_type in UNTOUCHABLE or is_random(op_type):
        return False
    definition = op_def(op_type)
    if definition is None or definition.is_stateful:
        return False
    if any(arg.is_ref for arg in list(definition.input_arg) + list(definition.output_arg)):
        return False
    allowed = {attr.name: set(attr.allowed_values.list.type) for attr in definition.attr}
    for arg in definition.output_arg:
        if arg.type:
            if arg.type in _HANDLE_TYPES:
                return False
        elif arg.type_attr or arg.type_list_attr:
            values = allowed.get(arg.type_attr or arg.type_list_attr)
            if not values or values & _HANDLE_TYPES:
                return None  # depends on the node's attrs
    return True


def output_dtypes(node, definition=None):
    """The node's output DTypes, or None when its attrs do not resolve them."""
    definition = definition or op_def(node.op)
    if definition is None:
        return None
    # A graph repeats a few (op, dtype) pairs thousands of times, and the passes ask again for
    # each copy of the graph they get: the answer is kept by the attrs the outputs depend on.
    key = _dtype_key(node.attr, definition)
    found = _DTYPES.get(key, _MISSING)
    if found is _MISSING:
        found = _resolve_output_dtypes(node, definition)
        found = _DTYPES[key] = tuple(found) if found is not None else None
    return list(found) if found is not None else None


def _resolve_output_dtypes(node, definition):
    attrs = node.attr
    missing = [a for a in definition.attr if a.name not in attrs and a.HasField("default_value")]
    if missing:
        node = node_def_pb2.NodeDef.FromString(node.SerializeToString())
        op_registry.add_default_attrs(node, definition)
        attrs = node.attr
    try:
        return op_registry.output_dtypes(definition, attrs)
    except (KeyError, ValueError, TypeError):
        return None


_MISSING = object()
_DTYPES = {}  # (id(OpDef), the output-type attrs' bytes) -> output DTypes (a tuple) or None
_OUTPUT_ATTRS = {}  # id(OpDef) -> (OpDef, names of the attrs its output types read, has a ref arg)


def _output_attrs(definition):
    found = _OUTPUT_ATTRS.get(id(definition))
    if found is None or found[0] is not definition:
        names = []
        for arg in definition.output_arg:
            for name in (arg.number_attr, arg.type_attr, arg.type_list_attr):
                if name and name not in names:
                    names.append(name)
        ref = any(arg.is_ref for arg in list(definition.input_arg) + list(definition.output_arg))
        found = _OUTPUT_ATTRS[id(definition)] = (definition, tuple(names), ref)
    return found


def _dtype_key(attrs, definition):
    """What output_dtypes reads of a node: its OpDef and the bytes of the attrs named by the
    output args (None where absent: the OpDef's default, or no answer, either way the same)."""
    names = _output_attrs(definition)[1]
    return (id(definition),) + tuple(attrs[name].SerializeToString() if name in attrs else None
                                     for name in names)


def has_ref_or_resource(node, definition=None):
    definition = definition or op_def(node.op)
    if definition is None:
        return True
    if _output_attrs(definition)[2]:
        return True
    return _ref_or_resource_output(node, definition)


def _ref_or_resource_output(node, definition):
    key = _dtype_key(node.attr, definition)
    found = _REF_OR_RESOURCE.get(key)
    if found is None:
        types = output_dtypes(node, definition)
        found = _REF_OR_RESOURCE[key] = types is None or any(
            t.is_ref_dtype or t.base_dtype in (dtypes.resource, dtypes.variant) for t in types)
    return found


_REF_OR_RESOURCE = {}  # _dtype_key -> whether an output is a reference, resource or variant


def reads_ref(view, node, inputs=None):
    """Whether a data input of `node` is a reference (a variable read: its value depends on
    when it runs, so two such reads are not the same computation). `inputs`: node.input, as
    the view already holds it."""
    for text in node.input if inputs is None else inputs:
        if text.startswith("^"):
            continue
        name, _, index = text.partition(":")
        producer = view.node(name)
        if producer is None:
            continue
        if producer.op in op_families.REF_PRODUCERS:
            types = output_dtypes(producer)
            position = int(index) if index.isdigit() else 0
            if types is None or position >= len(types) or types[position].is_ref_dtype:
                return True
    return False


def num_outputs(node):
    types = output_dtypes(node)
    return len(types) if types is not None else 0


def is_constant(node, context):
    """A Const whose value the run cannot change (not fed)."""
    return node is not None and node.op in CONSTANTS and node.name not in context.feeds


def constant_nbytes(node):
    """The bytes a Const's value would take as an array, from its shape and dtype alone (a
    file's Const may claim any shape over one stored value): exact Python ints."""
    tensor = node.attr["value"].tensor
    count = tensor_util.shape_elements(tensor.tensor_shape) or 0
    dtype = dtypes.as_dtype(tensor.dtype)
    itemsize = 8 if dtype == dtypes.string else np.dtype(dtype.as_numpy_dtype).itemsize
    return count * itemsize


def constant_value(node):
    """The NumPy value of a Const node (read-only; computed once per NodeDef)."""
    key = id(node)
    cached = _VALUES.get(key)
    if cached is not None and cached[0] is node:
        return cached[1]
    value = tensor_util.MakeNdarray(node.attr["value"].tensor)
    value.flags.writeable = False
    _remember(node, value)
    return value


def _remember(node, value):
    if value.nbytes <= 65536:
        if len(_VALUES) > 4096:
            _VALUES.clear()
        _VALUES[id(node)] = (node, value)


_VALUES = {}  # id(NodeDef) -> (NodeDef, value): the NodeDef held so the id stays its own


def forget_values():
    """Drops the cached constant values (and the graphs their NodeDefs keep alive) and output
    types (an OpDef registered later may replace one)."""
    _VALUES.clear()
    _DTYPES.clear()
    _OUTPUT_ATTRS.clear()
    _REF_OR_RESOURCE.clear()


def const_node(name, value, dtype, device="", controls=()):
    """A Const NodeDef holding `value` (a NumPy array) as `dtype`, with control inputs."""
    node = node_def_pb2.NodeDef(name=name, op="Const", device=device)
    dtype = dtypes.as_dtype(dtype).base_dtype
    node.attr["dtype"].type = dtype.as_datatype_enum
    array = np.asarray(value)
    if dtype != dtypes.string and array.dtype != dtype.as_numpy_dtype:
        array = array.astype(dtype.as_numpy_dtype)
    node.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(array, dtype=dtype,
                                                                      shape=array.shape))
    node.input.extend("^" + c for c in controls)
    frozen = array.copy() if array.flags.writeable else array
    frozen.flags.writeable = False
    _remember(node, frozen)
    return node


def same_device(*nodes):
    return len({n.device for n in nodes}) <= 1
