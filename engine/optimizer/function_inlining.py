"""One function call replaced by its body, as TensorFlow's InlineFunctionBody does it.

The body is the FunctionDef instantiated as TensorFlow's InstantiateFunction makes it
(engine/framework/function_graph.py) and imported as its GraphConstructor imports it
(engine/optimizer/editable_graph.py). Into the caller's graph go, in this order (which
numbers TensorFlow's `/_N` suffixes):
- `Func/<caller>/input_control_node/_N`, a NoOp waiting for the call's control inputs (when
  it has some), and one `Func/<caller>/input/_N` Identity per argument;
- the body's nodes as `<caller>/<node>`, each keeping where it came from in
  experimental_debug_info (its name and function), an Enter's frame `<caller>/<frame>`; a
  node with no inputs, and a call with no control input, waits for the input control node
  (so that inside a loop or a cond branch it runs in the call's frame);
- one `Func/<caller>/output/_N` Identity per result, and `Func/<caller>/output_control_node/_N`
  when something waits for the call or the call stays by name: it waits for the results
  (a call by op name) or for the body's control outputs (a PartitionedCall);
- in the call's place, when it must stay fetchable (or targetable), an IdentityN (or a NoOp)
  of its name.
Devices follow TensorFlow's placers: a PartitionedCall's body is placed as a multi-device
function (inputs and outputs colocated with what they read, body nodes on the caller's
device unless they name one), a call by op name entirely on the caller's device.
"""

from engine.framework import devices
from engine.framework.function_graph import function_body_graph
from engine.optimizer.editable_graph import EditableGraph
from engine.proto import node_def_pb2, types_pb2

PARTITIONED_CALLS = frozenset({"PartitionedCall", "StatefulPartitionedCall"})
LOWER_AS_MULTI_DEVICE = "_lower_as_multi_device_function"
FETCHABLE, TARGETABLE, DO_NOT_KEEP = "fetchable", "targetable", "do_not_keep"


class NotInlinable(Exception):
    """TensorFlow's ValidateInlining refused the call: it stays a call (its words say why)."""


class FunctionBody:
    """A FunctionDef instantiated for one call's attrs: its graph, _Arg and _Retval nodes by
    index, and the nodes its control outputs name."""

    def __init__(self, function_def, library, call_attrs):
        self.function_def = function_def
        self.name = function_def.signature.name
        self.graph = EditableGraph(function_body_graph(function_def, library, call_attrs),
                                   library)
        nodes = self.graph.nodes()
        self.arg_nodes = sorted((n for n in nodes if n.op == "_Arg"),
                                key=lambda n: n.attr["index"].i)
        self.ret_nodes = sorted((n for n in nodes if n.op == "_Retval"),
                                key=lambda n: n.attr["index"].i)
        self.control_ret_nodes = [self.graph.find(name)
                                  for name in function_def.control_ret.values()
                                  if self.graph.find(name) is not None]
        self.arg_types = [n.attr["T"].type for n in self.arg_nodes]
        self.ret_types = [n.attr["T"].type for n in self.ret_nodes]


class InlineOptions:
    """keep_caller: FETCHABLE, TARGETABLE or DO_NOT_KEEP; from_control_outputs: the output
    control node waits for the body's control outputs (else for its results); multi_device:
    TensorFlow's multi-device placer (else the single-device one); ignore_noinline: inline a
    function marked _noinline (Grappler's AGGRESSIVE mode)."""

    def __init__(self, keep_caller=DO_NOT_KEEP, from_control_outputs=True, multi_device=True,
                 ignore_noinline=False):
        self.keep_caller, self.from_control_outputs = keep_caller, from_control_outputs
        self.multi_device, self.ignore_noinline = multi_device, ignore_noinline


def validate_inlining(caller, body, options):
    """TensorFlow's ValidateInlining: NotInlinable (with its words) when the call's inputs
    and outputs do not match the function's, or the function asks not to be inlined."""
    inputs, outputs = list(caller.input_types()), list(caller.output_types())
    if len(inputs) != len(body.arg_types):
        raise NotInlinable(f"Node inputs do not match function arguments: inputs="
                           f"{len(inputs)} arg_types={len(body.arg_types)} arg_nodes="
                           f"{len(body.arg_nodes)}")
    if len(outputs) != len(body.ret_types):
        raise NotInlinable(f"Node outputs do not match function returns: outputs="
                           f"{len(outputs)} ret_types={len(body.ret_types)} ret_nodes="
                           f"{len(body.ret_nodes)}")
    for i, (have, want) in enumerate(zip(inputs, body.arg_types)):
        if have != want:
            raise NotInlinable(f"Node input type doesn't match function argument type: "
                               f"{have} != {want} @ index={i}")
    for i, (have, want) in enumerate(zip(outputs, body.ret_types)):
        if have != want:
            raise NotInlinable(f"Node output type doesn't match function return type: "
                               f"{have} != {want} @ index={i}")
    attrs = body.function_def.attr
    if "api_implements" in attrs:
        raise NotInlinable(f"Inlining of implementation selection group function "
                           f"{body.name} is disabled by "
                           f"options.inline_impl_selection_group_functions")
    if not options.ignore_noinline and "_noinline" in attrs and attrs["_noinline"].b:
        raise NotInlinable("Can't inline function marked with '_noinline'")


def inline_function_body(graph, caller, body, options):
    """Replaces `caller` (a node of `graph`) by `body`'s nodes; returns the nodes made."""
    validate_inlining(caller, body, options)
    made = []
    caller_device = caller.device
    prefix = caller.name + "/"

    def add(node_def, types=None):
        node = graph.add_node(node_def, types)
        made.append(node)
        return node

    def no_op(what):
        node_def = node_def_pb2.NodeDef(name=graph.new_name(f"Func/{caller.name}/{what}"),
                                        op="NoOp", device=caller_device)
        return add(node_def, ((), ()))

    def identity(what, src, src_output, device):
        dtype = _base_type(src.output_type(src_output))
        node_def = node_def_pb2.NodeDef(name=graph.new_name(f"Func/{caller.name}/{what}"),
                                        op="Identity", device=device or "")
        node_def.attr["T"].type = dtype
        if options.multi_device:
            node_def.attr["_class"].list.s.append(f"loc:@{src.name}".encode())
        node = add(node_def, ((dtype,), (dtype,)))
        graph.add_edge(src, src_output, node, 0)
        return node

    # Inputs: a NoOp for the call's control inputs, an Identity per argument.
    inputs = caller.data_inputs()
    input_control = None
    for edge in list(caller.in_edges):
        if edge.is_control:
            if input_control is None:
                input_control = no_op("input_control_node")
            graph.add_control_edge(edge.src, input_control, allow_duplicates=True)
    input_nodes, renamed_args = [], {}
    for i, arg in enumerate(body.arg_nodes):
        if i >= len(inputs) or inputs[i] is None:
            raise NotInlinable(f"Null node found for input {i}")
        src, src_output = inputs[i]
        device = src.device if options.multi_device else caller_device
        node = identity("input", src, src_output, device)
        renamed_args[arg.name] = node.name
        input_nodes.append(node)

    # The body's nodes, then its edges.
    body_names = {node.name for node in body.graph.nodes()}
    clones = {}
    for node in body.graph.nodes():
        node_def = node_def_pb2.NodeDef()
        node_def.CopyFrom(node.node_def)
        node_def.device = _body_device(node_def.device, caller_device, options.multi_device)
        if not node_def.HasField("experimental_debug_info"):
            node_def.experimental_debug_info.original_node_names.append(node.name)
            node_def.experimental_debug_info.original_func_names.append(body.name)
        _add_prefix(node_def, prefix, renamed_args, body_names)
        clone = clones[node.id] = add(node_def, node._types)
        if input_control is not None and node.op != "_Arg" and (
                not node.in_edges
                or (is_function_call(node, graph.library) and not node.has_control_inputs())):
            graph.add_control_edge(input_control, clone, allow_duplicates=True)
    for node in body.graph.nodes():
        for edge in node.in_edges:
            graph.add_edge(clones[edge.src.id], edge.src_output, clones[node.id],
                           edge.dst_input)

    # Arguments: their readers read the input Identities.
    for arg, node in zip(body.arg_nodes, input_nodes):
        clone = clones[arg.id]
        if input_control is not None:
            graph.add_control_edge(input_control, node, allow_duplicates=True)
        for edge in list(clone.out_edges):
            if edge.is_control:
                graph.add_control_edge(node, edge.dst, allow_duplicates=True)
            else:
                graph.add_edge(node, 0, edge.dst, edge.dst_input)
        graph.remove_node(clone)

    # Results: an Identity per _Retval.
    outputs = []
    for ret in body.ret_nodes:
        clone = clones[ret.id]
        data = next(((e.src, e.src_output) for e in clone.in_edges if not e.is_control), None)
        if data is None:
            raise NotInlinable(f"function {body.name}: return {ret.name} has no input")
        device = (data[0].device if caller_device else "") if options.multi_device \
            else caller_device
        node = identity("output", data[0], data[1], device)
        for edge in clone.in_edges:
            if edge.is_control:
                graph.add_control_edge(edge.src, node, allow_duplicates=True)
        outputs.append(node)
        graph.remove_node(clone)

    keep = options.keep_caller in (FETCHABLE, TARGETABLE)
    output_control = None
    if caller.has_control_outputs() or keep:
        output_control = no_op("output_control_node")
        sources = ([clones[n.id] for n in body.control_ret_nodes]
                   if options.from_control_outputs else outputs)
        for source in sources:
            graph.add_control_edge(source, output_control, allow_duplicates=True)
        if not output_control.in_edges and input_control is not None:
            graph.add_control_edge(input_control, output_control, allow_duplicates=True)

    for edge in list(caller.out_edges):
        if edge.is_control:
            graph.add_control_edge(output_control, edge.dst, allow_duplicates=True)
        else:
            graph.add_edge(outputs[edge.src_output], 0, edge.dst, edge.dst_input)

    if keep:
        made.append(_caller_substitute(graph, caller, outputs, output_control,
                                       options.keep_caller == FETCHABLE))
    graph.remove_node(caller)
    return [node for node in made if graph.node(node.id) is node]


def _caller_substitute(graph, caller, outputs, output_control, fetchable):
    """The IdentityN (or NoOp) that keeps the call's name fetchable (or targetable)."""
    node_def = node_def_pb2.NodeDef(name=caller.name, device=caller.device)
    if fetchable and outputs:
        node_def.op = "IdentityN"
        types = [node.output_type(0) for node in outputs]
        node_def.attr["T"].list.type.extend(types)
        node = graph.add_node(node_def, (tuple(types), tuple(types)))
        for i, output in enumerate(outputs):
            graph.add_edge(output, 0, node, i)
    else:
        node_def.op = "NoOp"
        node = graph.add_node(node_def, ((), ()))
    graph.add_control_edge(output_control, node)
    return node


def is_function_call(node, library):
    """TensorFlow's Node::IsFunctionCall: a PartitionedCall, a node whose op is a library
    function, or a SymbolicGradient."""
    return node.op in PARTITIONED_CALLS or node.op in library or node.op == "SymbolicGradient"


def called_function(node):
    """(function name, instantiation attrs) of a call: `f` of a PartitionedCall, else the
    node's own op and attrs."""
    if node.op in PARTITIONED_CALLS:
        func = node.attr["f"].func
        return func.name, dict(func.attr)
    return node.op, {key: value for key, value in node.attr.items()}


def _body_device(device, caller_device, multi_device):
    if not multi_device or not device:
        return caller_device
    if not caller_device:
        return device
    try:
        return devices.merge(caller_device, device)
    except ValueError:
        return device


def _add_prefix(node_def, prefix, renamed_args, body_names):
    """TensorFlow's AddPrefixAndSuffixToNode and colocation updates for an inlined node."""
    node_def.name = prefix + node_def.name
    if node_def.op in ("Enter", "RefEnter") and "frame_name" in node_def.attr:
        frame = node_def.attr["frame_name"]
        frame.s = (prefix + frame.s.decode()).encode()
    if "_class" in node_def.attr:
        values = []
        for value in node_def.attr["_class"].list.s:
            text = value.decode()
            if text.startswith("loc:@"):
                target = text[len("loc:@"):]
                target = renamed_args.get(target, target)
                if target in body_names:
                    target = prefix + target
                text = "loc:@" + target
            values.append(text.encode())
        del node_def.attr["_class"].list.s[:]
        node_def.attr["_class"].list.s.extend(values)


def _base_type(dtype):
    return dtype - 100 if dtype > 100 else dtype  # a ref type's base (TensorFlow's BaseType)


def is_resource(dtype):
    return dtype == types_pb2.DT_RESOURCE
