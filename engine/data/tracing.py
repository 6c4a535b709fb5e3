"""Graph functions for tf.data: a Python function traced into a FunctionDef, and the ops that
make a dataset copied into one (a one-shot iterator's `dataset_factory`).

A FunctionDef names tensors as TensorFlow's function library does: an argument by its name,
another node's output as `node:output_arg:index` (engine/runtime/function_library.py reads them
back).
"""

import base64
import hashlib
import itertools

from engine.data import structure
from engine.framework.graph import Graph, get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.proto import function_pb2
from engine.framework.tensor import Tensor

_UIDS = itertools.count(1)
# Ops that cannot be copied into a dataset factory: their values live outside the function.
_NOT_CAPTURABLE = frozenset({"Placeholder", "PlaceholderV2", "PlaceholderWithDefault",
                             "VariableV2", "Variable", "VarHandleOp"})


class TracedFunction:
    """A traced function: its FunctionDef, its outputs' structure of (dtype, shape), and the
    outer tensors it captured (its last arguments)."""

    def __init__(self, function_def, output_structure, output_specs, captured=()):
        self.function_def = function_def
        self.captured = list(captured)  # outer tensors the function reads, after its args
        self.name = function_def.signature.name
        self.output_structure = output_structure  # nesting of the outputs (leaves unused)
        self.output_specs = output_specs          # [(DType, TensorShape)] per flat output


def _output_names(op):
    """Flat output index -> 'output_arg:index' within its arg, from the op's OpDef."""
    names, attrs = [], op.node_def.attr
    for arg in op.op_def.output_arg:
        if arg.number_attr:
            count = attrs[arg.number_attr].i
        elif arg.type_list_attr:
            count = len(attrs[arg.type_list_attr].list.type)
        else:
            count = 1
        names.extend(f"{arg.name}:{i}" for i in range(count))
    return names


def function_def_from_ops(name, ops, arguments, outputs, tensor_arguments=()):
    """A FunctionDef of `ops` (graph order). arguments: [(placeholder op, arg name)];
    outputs: [(tensor, output arg name)]; tensor_arguments: [(tensor, arg name)], outputs of
    ops left out that the body reads as its last arguments."""
    fdef = function_pb2.FunctionDef()
    fdef.signature.name = name
    arg_names = {op.name: arg for op, arg in arguments}
    for op, arg in arguments:
        fdef.signature.input_arg.add(name=arg, type=op.outputs[0].dtype.as_datatype_enum)
    tensor_args = {tensor.name: arg for tensor, arg in tensor_arguments}
    for tensor, arg in tensor_arguments:
        fdef.signature.input_arg.add(name=arg, type=tensor.dtype.as_datatype_enum)

    def reference(tensor):
        if tensor.name in tensor_args:
            return tensor_args[tensor.name]
        if tensor.op.name in arg_names:
            return arg_names[tensor.op.name]
        return f"{tensor.op.name}:{_output_names(tensor.op)[tensor.value_index]}"

    for op in ops:
        if op.name in arg_names:
            continue
        node = fdef.node_def.add()
        node.CopyFrom(op.node_def)
        del node.input[:]
        node.input.extend([reference(t) for t in op.inputs] +
                          [f"^{c.name}" for c in op.control_inputs])
        node.ClearField("device")
        if op.op_def.is_stateful:
            fdef.signature.is_stateful = True
    for tensor, arg in outputs:
        fdef.signature.output_arg.add(name=arg, type=tensor.dtype.as_datatype_enum)
        fdef.ret[arg] = reference(tensor)
    return fdef


class FunctionGraph(Graph):
    """The graph a function is traced in: a tensor of the outer graph used inside becomes an
    argument (a Placeholder named after it), fed by the dataset op's other_arguments."""

    def __init__(self, outer):
        super().__init__()
        self.outer = outer
        self._building_function = True
        self.seed = outer.seed
        self._functions = outer._functions  # functions made inside land in the outer library
        self.captures = []  # (outer tensor, placeholder)

    def capture(self, value):
        if not isinstance(value, Tensor) or value.graph is self:
            return value
        for outer, placeholder in self.captures:
            if outer is value:
                return placeholder
        if value.graph is not self.outer:
            graph = self.outer
            while isinstance(graph, FunctionGraph) and value.graph is not graph.outer:
                graph = graph.outer
            if not isinstance(graph, FunctionGraph):
                return value  # from an unrelated graph: apply_op reports the mismatch
            # From a graph further out (a function traced inside a function, as
            # from_generator's inside its flat_map): captured by each graph in between.
            with self.outer.as_default():
                value = self.outer.capture(value)
        name = value.op.name.replace("/", "_").lower()
        # Made outside any tf.cond or tf.while_loop being built (TensorFlow's capture runs
        # under control_dependencies(None), which leaves the control flow context too): an
        # argument is outside every frame, so a loop reads it through an Enter.
        context = self._get_control_flow_context()
        self._set_control_flow_context(None)
        try:
            with self.name_scope(None):
                placeholder = apply_op("Placeholder", name=name, dtype=value.dtype,
                                       shape=value.shape)
        finally:
            self._set_control_flow_context(context)
        self.captures.append((value, placeholder))
        return placeholder


def _function_name(fn):
    name = getattr(fn, "__name__", "function")
    return "lambda" if name == "<lambda>" else "".join(c if c.isalnum() or c == "_" else "_"
                                                        for c in name)


def trace(fn, element_structure, element_specs, transformation="map"):
    """`fn` traced over elements of `element_structure` ([(dtype, shape)] per component) into
    a FunctionDef added to the default graph's library; its arguments are args_0, args_1..."""
    outer = get_default_graph()
    graph = FunctionGraph(outer)
    with graph.as_default():
        placeholders = []
        for i, (dtype, shape) in enumerate(element_specs):
            placeholders.append(apply_op("Placeholder", name=f"args_{i}", dtype=dtype,
                                         shape=shape))
        element = structure.pack_as(element_structure, placeholders)
        result = fn(*element) if _is_plain_tuple(element) else fn(element)
        if isinstance(result, list):
            result = tuple(result)  # tf.data takes a returned list as a tuple
        flat = [_as_tensor(value) for value in structure.flatten(result)]
        identities = [apply_op("Identity", name="Identity", input=t) for t in flat]
    name = f"__inference_Dataset_{transformation}_{_function_name(fn)}_{next(_UIDS)}"
    out_names = ["identity" if i == 0 else f"identity_{i}" for i in range(len(identities))]
    arguments = [(p.op, f"args_{i}") for i, p in enumerate(placeholders)]
    arguments += [(p.op, p.op.name) for _, p in graph.captures]
    fdef = function_def_from_ops(name, graph.get_operations(), arguments,
                                 list(zip(identities, out_names)))
    fdef.attr["_tf_data_function"].b = True
    outer._add_function(fdef)
    specs = [(t.dtype, t.shape) for t in identities]
    return TracedFunction(fdef, result, specs, [outer for outer, _ in graph.captures])


def _is_plain_tuple(element):
    return isinstance(element, tuple) and not hasattr(element, "_fields")


def _as_tensor(value):
    if isinstance(value, Tensor):
        return value
    if hasattr(value, "_variant_tensor"):
        return value._variant_tensor  # a dataset returned by a flat_map function
    return convert_to_tensor(value)


def dataset_factory(variant):
    """The ops that make dataset `variant` copied into a factory function (one-shot iterator):
    its name, added to the graph's library."""
    graph = variant.graph
    needed, stack = {}, [variant.op]
    while stack:
        op = stack.pop()
        if op.name in needed:
            continue
        if op.type in _NOT_CAPTURABLE:
            kind = "a placeholder" if op.type.startswith("Placeholder") else "a variable"
            raise ValueError(f"Cannot capture {kind} (name:{op.name}, type:{op.type}) by "
                             f"value.")
        needed[op.name] = op
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    ops = [op for op in graph.get_operations() if op.name in needed]
    out_name = variant.op.type.lower()
    body = function_def_from_ops("_make_dataset", ops, [], [(variant, out_name)])
    digest = hashlib.sha1(body.SerializeToString(deterministic=True)).digest()
    body.signature.name = "_make_dataset_" + base64.urlsafe_b64encode(digest).decode()[:11]
    body.signature.description = "Factory function for a dataset."
    body.signature.is_stateful = True
    body.attr["_disable_call_shape_inference"].b = True
    graph._add_function(body)
    return body.signature.name
