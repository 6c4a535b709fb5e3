"""The OpDefs the engine knows (every file of OP_DEF_FILES), loaded once on first use.

get(op_type) gives the OpDef or raises NotFoundError as TensorFlow words it; the helpers
fill default attrs into a NodeDef, validate one, and resolve its input and output dtypes.

>>> get("AddV2").output_arg[0].type_attr
'T'
>>> [d.name for d in output_dtypes(get("VariableV2"), {"dtype": dtypes.float32})]
['float32_ref']
"""

import os
import socket
import threading

from engine.framework import dtypes, errors
from engine.proto import op_def_pb2

_HERE = os.path.dirname(os.path.abspath(__file__))
_ENGINE = os.path.dirname(_HERE)
# TensorFlow's OpDefs, written by tools/extract_opdefs.py and tools/extract_program_opdefs.py,
# and the engine's internal ops' (hand-written: TensorFlow has none); an op is in one file only.
OP_DEF_FILES = (os.path.join(_HERE, "op_defs.pbtxt"),
                os.path.join(_ENGINE, "ops", "program_op_defs.pbtxt"),
                os.path.join(_ENGINE, "ops", "internal_op_defs.pbtxt"))
_lock = threading.Lock()
_ops: dict | None = None


def _load():
    global _ops
    with _lock:
        if _ops is None:
            from google.protobuf import text_format
            ops = {}
            for path in OP_DEF_FILES:
                with open(path, encoding="utf-8") as f:
                    for op in text_format.Parse(f.read(), op_def_pb2.OpList()).op:
                        ops.setdefault(op.name, op)
            _ops = ops
    return _ops


def lookup(op_type):
    """The OpDef of `op_type`, or None."""
    return (_ops or _load()).get(op_type)


def get(op_type):
    """The OpDef of `op_type`; NotFoundError with TensorFlow's message when unknown."""
    op_def = (_ops or _load()).get(op_type)
    if op_def is None:
        raise errors.NotFoundError(None, None, not_registered_message(op_type))
    return op_def


def is_commutative(op_type, dtype=None):
    """Grappler's IsCommutative: the OpDef's is_commutative (False for an op the registry does
    not know), and Add of anything but strings, whose OpDef is not marked (Grappler works
    around it: a constant pushed down to an Add has its inputs sorted as an AddV2's).
    `dtype`: the node's T (a DataType enum), None where it has none."""
    if op_type == "Add":
        return dtype is not None and dtype not in (0, dtypes.string.as_datatype_enum)
    op_def = lookup(op_type)
    return op_def is not None and op_def.is_commutative


def not_registered_message(op_type):
    return (f"Op type not registered '{op_type}' in binary running on {socket.gethostname()}. "
            f"Make sure the Op and Kernel are registered in the binary running in this "
            f"process. Note that if you are loading a saved graph which used ops from "
            f"tf.contrib (e.g. `tf.contrib.resampler`), accessing should be done before "
            f"importing the graph, as contrib ops are lazily registered when the module is "
            f"first accessed.")


def register(op_def):
    """Adds (or replaces) an OpDef, e.g. one a GraphDef's producer_op_list brings."""
    (_ops if _ops is not None else _load())[op_def.name] = op_def


def registered_ops():
    return sorted(_ops or _load())


def add_default_attrs(node_def, op_def):
    """Sets every attr the NodeDef leaves out to its OpDef default."""
    attrs = node_def.attr
    for attr in op_def.attr:
        if attr.name not in attrs and attr.HasField("default_value"):
            attrs[attr.name].CopyFrom(attr.default_value)


def _getter(attrs):
    """A function name -> python value (type, int or list of types) over either attr form."""
    if isinstance(attrs, dict):
        return attrs.__getitem__

    def get(name):
        value = attrs[name]
        field = value.WhichOneof("value")
        if field == "type":
            return value.type
        if field == "i":
            return value.i
        if field == "list":
            return list(value.list.type)
        raise KeyError(name)
    return get


def _arg_dtypes(arg, get):
    if arg.number_attr:
        count = get(arg.number_attr)
        base = dtypes.as_dtype(arg.type if arg.type else get(arg.type_attr))
        types = [base] * count
    elif arg.type_list_attr:
        types = [dtypes.as_dtype(t) for t in get(arg.type_list_attr)]
    elif arg.type_attr:
        types = [dtypes.as_dtype(get(arg.type_attr))]
    else:
        types = [dtypes.as_dtype(arg.type)]
    if arg.is_ref:
        types = [t._as_ref for t in types]
    return types


def output_dtypes(op_def, attrs):
    """The DTypes of the op's outputs, given its attrs (a NodeDef attr map or a dict)."""
    get = _getter(attrs)
    result = []
    for arg in op_def.output_arg:
        result.extend(_arg_dtypes(arg, get))
    return result


def input_dtypes(op_def, attrs):
    """The DTypes the op's inputs must have, given its attrs."""
    get = _getter(attrs)
    result = []
    for arg in op_def.input_arg:
        result.extend(_arg_dtypes(arg, get))
    return result


_ATTR_FIELD = {"string": "s", "int": "i", "float": "f", "bool": "b", "type": "type",
               "shape": "shape", "tensor": "tensor", "func": "func"}


def validate(node_def, op_def):
    """Raises ValueError (TensorFlow's words) when the NodeDef does not fit the OpDef."""
    def fail(message):
        raise ValueError(f"NodeDef mentions attr '{message}'" if message.startswith("@") else
                         f"{message}; NodeDef: {{{{node {node_def.name}}}}}")

    attrs = node_def.attr
    known = {attr.name: attr for attr in op_def.attr}
    for name in attrs:
        if name.startswith("_"):
            continue
        if name not in known:
            raise ValueError(f"NodeDef mentions attr '{name}' not in Op<name={op_def.name}>; "
                             f"NodeDef: {{{{node {node_def.name}}}}}")
    for name, attr_def in known.items():
        if name not in attrs:
            fail(f"NodeDef missing attr '{name}' from Op<name={op_def.name}>")
        value = attrs[name]
        field = value.WhichOneof("value")
        kind = attr_def.type
        if kind.startswith("list("):
            if field != "list":
                fail(f"AttrValue had value with type '{field}' when '{kind}' expected")
            count = len(getattr(value.list, _ATTR_FIELD[kind[5:-1]]))
            if attr_def.has_minimum and count < attr_def.minimum:
                fail(f"Length for attr '{name}' of {count} must be at least minimum "
                     f"{attr_def.minimum}")
            if kind == "list(type)" and attr_def.allowed_values.list.type:
                allowed = set(attr_def.allowed_values.list.type)
                for item in value.list.type:
                    if item not in allowed:
                        fail(_not_allowed(name, item, attr_def))
        elif field != _ATTR_FIELD[kind] and not (field == "placeholder"):
            fail(f"AttrValue had value with type '{field}' when '{kind}' expected")
        elif kind == "type" and attr_def.allowed_values.list.type:
            if value.type not in set(attr_def.allowed_values.list.type):
                fail(_not_allowed(name, value.type, attr_def))
        elif kind == "string" and attr_def.allowed_values.list.s:
            if value.s not in set(attr_def.allowed_values.list.s):
                allowed = ", ".join(f'"{s.decode()}"' for s in attr_def.allowed_values.list.s)
                fail(f'Value for attr \'{name}\' of "{value.s.decode()}" is not in the list of '
                     f"allowed values: {allowed}")
        elif kind == "int" and attr_def.has_minimum and value.i < attr_def.minimum:
            fail(f"Value for attr '{name}' of {value.i} must be at least minimum "
                 f"{attr_def.minimum}")
    expected = _expected_input_count(op_def, attrs)
    data_inputs = sum(1 for i in node_def.input if not i.startswith("^"))
    if expected is not None and data_inputs != expected:
        raise ValueError(f"NodeDef expected inputs '{_signature(op_def, attrs)}' do not match "
                         f"{data_inputs} inputs specified; Op<name={op_def.name}>; "
                         f"NodeDef: {{{{node {node_def.name}}}}}")


def _not_allowed(name, type_enum, attr_def):
    allowed = ", ".join(dtypes.as_dtype(t).name for t in attr_def.allowed_values.list.type)
    return (f"Value for attr '{name}' of {dtypes.as_dtype(type_enum).name} is not in the list "
            f"of allowed values: {allowed}")


def _expected_input_count(op_def, attrs):
    count = 0
    for arg in op_def.input_arg:
        if arg.number_attr:
            if arg.number_attr not in attrs:
                return None
            count += attrs[arg.number_attr].i
        elif arg.type_list_attr:
            if arg.type_list_attr not in attrs:
                return None
            count += len(attrs[arg.type_list_attr].list.type)
        else:
            count += 1
    return count


def _signature(op_def, attrs):
    names = []
    for arg in op_def.input_arg:
        try:
            names.extend(t.name for t in _arg_dtypes(arg, _getter(attrs)))
        except (KeyError, TypeError):
            names.append(arg.name)
    return ", ".join(names)
