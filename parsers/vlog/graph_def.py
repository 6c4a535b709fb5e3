"""A graph dump (parsers.vlog.model.GraphDump) as a GraphDef: _Arg, _Retval, attrs as AttrValues.

Built on demand (the reader and `vlog --json` never need protobuf), once per dump.
"""

from __future__ import annotations

from engine.framework import op_registry
from engine.proto import graph_pb2
from parsers.vlog.attr_text import DTYPES, parse_attr_value


def _attr_types(op: str) -> dict[str, str]:
    """attr name -> OpDef type string for ops the engine knows; {} otherwise."""
    cached = _ATTR_TYPES.get(op)
    if cached is None:
        try:
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
    if type_name in DTYPES:
        attr.type = DTYPES[type_name]
    elif type_name:
        attr.placeholder = type_name


class _Names:
    """Node names handed out once each in a graph: a taken name gets `_1`, `_2`, ... as
    TensorFlow's Graph.unique_name does."""

    def __init__(self):
        self.taken: set[str] = set()

    def unique(self, name: str) -> str:
        candidate = name
        number = 0
        while candidate in self.taken:
            number += 1
            candidate = f"{name}_{number}"
        self.taken.add(candidate)
        return candidate


def build_graph_def(dump):
    """A GraphDump as a GraphDef: real names where matched, attrs as AttrValues, names unique.

    Graph dumps get an _Arg node per arg and a _Retval node per ret (attrs T and index).
    TensorFlow prints a ret as the node whose output is returned: its _Retval takes that node
    as input and the name the executor trace gave it, else the name DirectSession gives one
    (`_retval_<node>_0_<index>`). A ret
    no node of the dump has is the _Retval itself and keeps its name. FunctionDef prints get
    _Arg nodes per arg and a _Retval per `return` line, fed by it.
    """
    graph = graph_pb2.GraphDef()
    names = _Names()
    full_device = dump.names_from[1] if dump.names_from else ""
    rename = dump.rename
    for index, (name, type_text) in enumerate(dump.args):
        dtype, device = _type_and_device(type_text)
        node = graph.node.add(name=names.unique(rename(name)), op="_Arg",
                              device=_device(device, full_device))
        _set_type(node.attr["T"], dtype)
        node.attr["index"].i = index
    for item in dump.nodes:
        node = graph.node.add(name=names.unique(rename(item.name)), op=item.op)
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
    returned = {rename(item.name) for item in dump.nodes} | {rename(name) for name, _ in dump.args}
    for index, (name, type_text) in enumerate(dump.rets):
        dtype, device = _type_and_device(type_text)
        real = rename(name)
        source = returns.get(name)
        if dump.kind == "graph" and real in returned:
            source = real
            real = dump.retval_names.get(real) or f"_retval_{real}_0_{index}"
        node = graph.node.add(name=names.unique(real), op="_Retval",
                              device=_device(device, full_device))
        if source is not None:
            node.input.append(source)
        _set_type(node.attr["T"], dtype)
        node.attr["index"].i = index
    return graph
