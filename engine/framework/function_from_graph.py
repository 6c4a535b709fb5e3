"""A function body graph back to a FunctionDef: the inverse of function_graph.function_body_graph,
for a body that was rewritten as a graph (the optimizer over a library's functions), as
TensorFlow's GraphToFunctionDef writes one.

The signature, attrs and argument attrs are the original FunctionDef's. Each `_Arg` node becomes
a reference to its argument (`x`, `x:i` for a list); each flat input `node:k` becomes
`node:<output arg>:<index within it>` from the producer's OpDef (or, for an op without one, the
output names the original body used for it); `ret` maps each output to what its first
`_Retval` reads; `control_ret` keeps the nodes that are still there.

>>> from engine.framework.function_graph import function_body_graph
>>> from engine.proto import function_pb2
>>> f = function_pb2.FunctionDef(signature={"name": "twice", "input_arg": [{"name": "x", "type": 1}],
...                                          "output_arg": [{"name": "y", "type": 1}]})
>>> node = f.node_def.add(name="double", op="AddV2", input=["x", "x"], attr={"T": {"type": 1}})
>>> f.ret["y"] = "double:z:0"
>>> back = function_def_from_graph(function_body_graph(f), f)
>>> [(n.name, list(n.input)) for n in back.node_def], dict(back.ret)
([('double', ['x', 'x'])], {'y': 'double:z:0'})
"""

from engine.framework.function_graph import (ARG_OP, RET_OP, FunctionGraphError, _Instantiation,
                                             _split)
from engine.proto import function_pb2


def function_def_from_graph(graph_def, function_def, library=None, op_defs=None):
    """The FunctionDef with `function_def`'s signature whose body is `graph_def` (a body as
    function_body_graph makes it, maybe rewritten since). FunctionGraphError when an input
    cannot be written in FunctionDef syntax (an output of an op no OpDef describes)."""
    original = _Instantiation(function_def, library or {}, {}, op_defs or {})
    original.graph()  # names the _Arg nodes of each argument
    arguments = {}
    for arg_name, node_names in original.args.items():
        for index, node_name in enumerate(node_names):
            single = len(node_names) == 1 and node_name == arg_name
            arguments[node_name] = arg_name if single else f"{arg_name}:{index}"
    nodes = {node.name: node for node in graph_def.node}

    def reference(text, reader):
        if text.startswith("^"):
            return text
        name, index = _split(text)
        node = nodes.get(name)
        if node is None:
            raise FunctionGraphError(original._where(reader, f"input {text} is not found"))
        if node.op == ARG_OP:
            if name not in arguments:
                raise FunctionGraphError(original._where(reader, f"input {text} is no argument"))
            return arguments[name]
        output, within = _output_position(original, node, index, reader)
        return f"{name}:{output}:{within}"

    result = function_pb2.FunctionDef()
    result.signature.CopyFrom(function_def.signature)
    for key, value in function_def.attr.items():
        result.attr[key].CopyFrom(value)
    for index, attrs in function_def.arg_attr.items():
        result.arg_attr[index].CopyFrom(attrs)
    for index, unique in function_def.resource_arg_unique_id.items():
        result.resource_arg_unique_id[index] = unique
    returns = {}
    for node in graph_def.node:
        if node.op == ARG_OP:
            continue
        if node.op == RET_OP:
            returns[node.attr["index"].i] = node
            continue
        body = result.node_def.add()
        body.CopyFrom(node)
        del body.input[:]
        body.input.extend(reference(text, node) for text in node.input
                          if not (text.startswith("^") and nodes.get(text[1:]) is not None
                                  and nodes[text[1:]].op == ARG_OP))
    position = 0
    for output in function_def.signature.output_arg:
        first = returns.get(position)
        if first is None or not first.input:
            raise FunctionGraphError(original._where(None, f"return {output.name} missing"))
        result.ret[output.name] = reference(first.input[0], first)
        position += len(original._dtypes(output, original.attrs))
    kept = {node.name for node in result.node_def}
    for key, node_name in function_def.control_ret.items():
        if node_name in kept:
            result.control_ret[key] = node_name
    return result


def _output_position(instantiation, node, flat_index, reader):
    """(output arg name, index within it) of output `flat_index` of body node `node`."""
    op_def = instantiation._op_def(node.op)
    if op_def is None:
        # No OpDef: the original body's own references name this node's outputs, one each.
        names = _named_outputs(instantiation.function_def, node.name)
        if flat_index < len(names):
            return names[flat_index], 0
        raise FunctionGraphError(instantiation._where(
            reader, f"output {flat_index} of {node.name} ({node.op}, an op without an OpDef)"
                    f" cannot be written as a FunctionDef input"))
    attrs = {key: instantiation._substitute(value, node) for key, value in node.attr.items()}
    for attr in op_def.attr:
        if attr.name not in attrs and attr.HasField("default_value"):
            attrs[attr.name] = attr.default_value
    start = 0
    for arg in op_def.output_arg:
        count = len(instantiation._dtypes(arg, attrs))
        if flat_index < start + count:
            return arg.name, flat_index - start
        start += count
    raise FunctionGraphError(instantiation._where(
        reader, f"node {node.name} ({node.op}) has no output {flat_index}"))


def _named_outputs(function_def, node_name):
    """The output arg names the body's references give node `node_name`, first seen first."""
    seen = []
    for text in [i for body in function_def.node_def for i in body.input] + list(function_def.ret.values()):
        parts = text.split(":")
        if len(parts) == 3 and parts[0] == node_name and parts[1] not in seen:
            seen.append(parts[1])
    return seen
