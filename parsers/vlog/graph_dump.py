"""The `||` blocks TensorFlow prints for a graph or a FunctionDef, line by line, into GraphDefs.

Graph dumps (DebugString of a Graph) open with `(args) -> (rets) {`, list args and rets by name
(their _Arg/_Retval nodes have no line of their own) and name nodes n<id>. FunctionDef prints
open with `name[attrs](args) -> (outs) {` and end with `return out = tensor` lines.

>>> node = parse_node_line('n4 = Assign[T=int32, use_locking=true, device=CPU:0](n2, n3:1) @ n5, n6')
>>> node.name, node.op, node.inputs, node.control_inputs, node.device, node.attrs
('n4', 'Assign', ('n2', 'n3:1'), ('n5', 'n6'), 'CPU:0', (('T', 'int32'), ('use_locking', 'true')))
>>> parse_node_line('n5 = NoOp()').attrs, parse_node_line('x = ')
((), None)
>>> parse_header('(n17:float@CPU:0, n20:int64@CPU:0) -> (n22:float@CPU:0) {')
('graph', '', [('n17', 'float@CPU:0'), ('n20', 'int64@CPU:0')], [('n22', 'float@CPU:0')])
>>> parse_header('body[T:type](x:T) -> (y:T) {')[:2]
('function', 'body')
"""

from __future__ import annotations

import re


# name = Op[attrs](inputs) @ control; attrs greedy so the last `](` closes them, and inputs
# hold no parentheses.
NODE_LINE = re.compile(
    r"(?P<name>[^\s=]+) = (?P<op>[^\s\[\]()]+)(?:\[(?P<attrs>.*)\])?\((?P<inputs>[^()]*)\)"
    r"(?: @ (?P<control>.*))?\Z",
    re.S,
)
HEADER = re.compile(
    r"(?P<fname>[^\s(\[]*)(?:\[(?P<fattrs>.*?)\])?\((?P<args>.*?)\) -> \((?P<rets>.*)\) \{\Z",
    re.S,
)
RETURN = re.compile(r"return (\S+) = (\S+)\Z")


def split_top_level(text: str, separator: str = ", ") -> list[str]:
    """`text` cut at `separator` outside quotes and (), [], {}, <> nesting.

    >>> split_top_level('a=[1, 2], b="x, y", c=f[T=float, U=int32]')
    ['a=[1, 2]', 'b="x, y"', 'c=f[T=float, U=int32]']
    """
    if not text:
        return []
    pieces = text.split(separator)
    if len(pieces) == 1:
        return pieces
    out = []
    pending = None
    for piece in pieces:
        current = piece if pending is None else pending + separator + piece
        if _balanced(current):
            out.append(current)
            pending = None
        else:
            pending = current
    if pending is not None:
        out.append(pending)
    return out


_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def _balanced(text: str) -> bool:
    if '"' in text:
        if (text.count('"') - text.count('\\"')) % 2:
            return False
        text = _QUOTED.sub("", text)
    return (
        text.count("[") == text.count("]")
        and text.count("(") == text.count(")")
        and text.count("{") == text.count("}")
        and text.count("<") == text.count(">")
    )


def parse_node_line(text: str):
    """A node line (without the `||` and indent) as a DumpNode, or None if it is not one."""
    from parsers.vlog.model import DumpNode

    match = NODE_LINE.match(text)
    if match is None:
        return None
    name, op, attrs_text, inputs_text, control_text = match.groups()
    attrs = []
    device = ""
    if attrs_text:
        for item in split_top_level(attrs_text):
            key, sep, value = item.partition("=")
            if not sep or not key or " " in key:
                return None
            attrs.append((key, value))
        if attrs and attrs[-1][0] == "device":
            device = attrs.pop()[1]
    inputs = tuple(inputs_text.split(", ")) if inputs_text else ()
    control = tuple(control_text.split(", ")) if control_text else ()
    return DumpNode(name, op, inputs, control, device, tuple(attrs))


def _typed_names(text: str) -> list[tuple[str, str]]:
    out = []
    for item in split_top_level(text):
        name, _, type_text = item.partition(":")
        out.append((name.strip(), type_text.strip()))
    return out


def parse_header(text: str):
    """`(args) -> (rets) {` or `f[attrs](args) -> (outs) {` as (kind, name, args, rets), or None."""
    match = HEADER.match(text)
    if match is None:
        return None
    name = match.group("fname")
    kind = "function" if name else "graph"
    return kind, name, _typed_names(match.group("args")), _typed_names(match.group("rets"))


def parse_return(text: str):
    """`return out = tensor` as (out, tensor), or None."""
    match = RETURN.match(text)
    return match.groups() if match else None


def _attr_types(op: str) -> dict[str, str]:
    """attr name -> OpDef type string for ops the engine knows; {} otherwise."""
    cached = _ATTR_TYPES.get(op)
    if cached is None:
        try:
            from engine import op_registry

            op_def = op_registry.lookup(op)
        except Exception:  # an engine without its OpDefs still lets us read logs
            op_def = None
        cached = {a.name: a.type for a in op_def.attr} if op_def is not None else {}
        _ATTR_TYPES[op] = cached
    return cached


_ATTR_TYPES: dict[str, dict[str, str]] = {}


def _device(printed: str, full: str) -> str:
    """A dump's short device (CPU:0) as TensorFlow spells one in a NodeDef."""
    if not printed:
        return ""
    if full and full.endswith("/device:" + printed):
        return full
    return "/device:" + printed


def _type_and_device(text: str) -> tuple[str, str]:
    type_name, _, device = text.partition("@")
    return type_name, device


def _set_type(attr, type_name: str) -> None:
    """A dtype, or a placeholder for a FunctionDef arg typed by an attr (`x:T`)."""
    from parsers.vlog.attr_text import DTYPES

    if type_name in DTYPES:
        attr.type = DTYPES[type_name]
    elif type_name:
        attr.placeholder = type_name


def build_graph_def(dump):
    """A GraphDump as a GraphDef: real names where matched, attrs as AttrValues.

    Graph dumps get an _Arg node per arg and a _Retval node per ret (attrs T and index);
    FunctionDef prints get _Arg nodes per arg and a _Retval per `return` line, fed by it.
    """
    from engine.proto import graph_pb2
    from parsers.vlog.attr_text import parse_attr_value

    graph = graph_pb2.GraphDef()
    full_device = dump.names_from[1] if dump.names_from else ""
    rename = dump.rename
    for index, (name, type_text) in enumerate(dump.args):
        dtype, device = _type_and_device(type_text)
        node = graph.node.add(name=rename(name), op="_Arg", device=_device(device, full_device))
        _set_type(node.attr["T"], dtype)
        node.attr["index"].i = index
    for item in dump.nodes:
        node = graph.node.add(name=rename(item.name), op=item.op)
        node.input.extend(rename(i) for i in item.inputs)
        node.input.extend("^" + rename(c) for c in item.control_inputs)
        node.device = _device(item.device, full_device)
        types = _attr_types(item.op)
        for key, text in item.attrs:
            try:
                node.attr[key].CopyFrom(parse_attr_value(text, types.get(key), key))
            except (ValueError, OverflowError):
                node.attr[key].s = text.encode("utf-8", "surrogateescape")
    returns = dict(dump.returns)
    for index, (name, type_text) in enumerate(dump.rets):
        dtype, device = _type_and_device(type_text)
        node = graph.node.add(name=rename(name), op="_Retval", device=_device(device, full_device))
        if name in returns:
            node.input.append(returns[name])
        _set_type(node.attr["T"], dtype)
        node.attr["index"].i = index
    return graph
