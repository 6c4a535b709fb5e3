"""apply_op: build a node from an OpDef and keyword inputs/attrs, as TF's _apply_op_helper.

Inputs are converted inside the op's name scope (so a Python 1.0 for AddV2's `y` becomes the
Const "Add/y"), type attrs are inferred from the first input that fixes them, and mismatches
raise TypeError with TensorFlow's words.
"""

import contextlib

from engine.framework import dtypes, op_callbacks, op_registry
from engine.framework.attr_value import from_python, to_python
from engine.framework.graph import get_default_graph, get_graph_from_inputs
from engine.ops.convert import convert_to_tensor
from engine.proto import types_pb2
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import as_shape

_INFO = {}


class _OpInfo:
    """What apply_op needs from an OpDef, computed once per op type."""

    __slots__ = ("op_def", "attrs", "default_types", "allowed", "input_attr_names",
                 "ref_inputs", "decoded_defaults")

    def __init__(self, op_def):
        self.op_def = op_def
        self.attrs = {attr.name: attr for attr in op_def.attr}
        self.default_types = {attr.name: dtypes.as_dtype(attr.default_value.type)
                              for attr in op_def.attr
                              if attr.type == "type" and attr.HasField("default_value")}
        self.allowed = {attr.name: [dtypes.as_dtype(t) for t in attr.allowed_values.list.type]
                        for attr in op_def.attr if attr.allowed_values.list.type}
        names = set()
        for arg in op_def.input_arg:
            names.update(n for n in (arg.type_attr, arg.number_attr, arg.type_list_attr) if n)
        self.input_attr_names = names
        self.ref_inputs = any(arg.is_ref for arg in op_def.input_arg)
        self.decoded_defaults = {attr.name: to_python(attr.default_value) for attr in op_def.attr
                                 if attr.HasField("default_value")}


def _info(op_type):
    info = _INFO.get(op_type)
    if info is None:
        info = _INFO[op_type] = _OpInfo(op_registry.get(op_type))
    return info


def _check_allowed(info, attr_name, dtype, param_name):
    allowed = info.allowed.get(attr_name)
    if allowed and dtype not in allowed:
        names = ", ".join(t.name for t in allowed)
        raise TypeError(f"Value passed to parameter '{param_name}' has DataType {dtype.name} not "
                        f"in list of allowed values: {names}")


def apply_op(op_type, name=None, **keywords):
    """Creates an `op_type` node; returns its single output, its outputs, or the op."""
    op = apply_op_raw(op_type, name, **keywords)
    outputs = op._outputs
    op_def = op._op_def
    if op_callbacks.active and op_callbacks.should_invoke_op_callbacks():
        outputs = _called_back(op, outputs)
    if not outputs:
        return op
    if len(op_def.output_arg) == 1:
        arg = op_def.output_arg[0]
        if arg.number_attr or arg.type_list_attr:
            return list(outputs)
        return outputs[0]
    return list(outputs)


def _called_back(op, outputs):
    """The op's outputs after the op callbacks (in the op's name scope, as TensorFlow's
    _apply_op_helper calls them)."""
    with op.graph.name_scope(op.name + "/"):
        replaced = op_callbacks.invoke_op_callbacks(op.type, tuple(op.inputs), op.node_def.attr,
                                                    tuple(outputs), op_name=op.name,
                                                    graph=op.graph)
    return outputs if replaced is None else replaced


def apply_op_raw(op_type, name=None, **keywords):
    info = _info(op_type)
    op_def = info.op_def
    values_in = [keywords.get(arg.name, keywords.get(arg.name + "_")) for arg in op_def.input_arg]
    capture = getattr(get_default_graph(), "capture", None)
    if capture is not None:  # a function graph: outside tensors become its arguments
        values_in = [[capture(v) for v in values] if isinstance(values, (list, tuple))
                     else capture(values) for values in values_in]
    graph = get_graph_from_inputs(_flat(values_in))
    attrs = {}
    inferred_from = {}
    inputs = []
    input_types = []
    default = get_default_graph()
    with (graph.name_scope(name or op_type) if graph is default else
          _in_graph(graph, name or op_type)) as scope:
        for arg, values in zip(op_def.input_arg, values_in):
            keywords.pop(arg.name, None)
            keywords.pop(arg.name + "_", None)
            if values is None:
                raise TypeError(f"No argument for input {arg.name} found in {op_def}")
            if arg.number_attr or arg.type_list_attr:
                values = _convert_list(op_type, info, arg, values, attrs)
                types = [v.dtype for v in values]
                inputs.extend(values)
            else:
                values = _convert_one(op_type, info, arg, values, attrs, inferred_from)
                types = [values.dtype]
                inputs.append(values)
            base_types = [t.base_dtype for t in types]
            if arg.number_attr:
                if arg.number_attr in attrs:
                    if len(values) != attrs[arg.number_attr]:
                        raise ValueError(f"List argument '{arg.name}' to '{op_type}' Op with "
                                         f"length {len(values)} must match length "
                                         f"{attrs[arg.number_attr]} of argument "
                                         f"'{inferred_from[arg.number_attr]}'.")
                else:
                    attrs[arg.number_attr] = len(values)
                    inferred_from[arg.number_attr] = arg.name
                    number = info.attrs[arg.number_attr]
                    if number.has_minimum and len(values) < number.minimum:
                        raise ValueError(f"List argument '{arg.name}' to '{op_type}' Op with "
                                         f"length {len(values)} shorter than minimum length "
                                         f"{number.minimum}.")
                if any(t != base_types[0] for t in base_types):
                    raise TypeError(f"All tensors passed to '{arg.name}' of '{op_type}' Op must "
                                    f"have the same type.")
                if arg.type_attr and arg.type_attr not in attrs and base_types:
                    _check_allowed(info, arg.type_attr, base_types[0], arg.name)
                    attrs[arg.type_attr] = base_types[0]
                    inferred_from[arg.type_attr] = arg.name
            elif arg.type_attr:
                if arg.type_attr in attrs:
                    if attrs[arg.type_attr] != base_types[0]:
                        raise TypeError(f"Input '{arg.name}' of '{op_type}' Op has type "
                                        f"{base_types[0].name} that does not match type "
                                        f"{attrs[arg.type_attr].name} of argument "
                                        f"'{inferred_from[arg.type_attr]}'.")
                else:
                    _check_allowed(info, arg.type_attr, base_types[0], arg.name)
                    attrs[arg.type_attr] = base_types[0]
                    inferred_from[arg.type_attr] = arg.name
            elif arg.type_list_attr:
                if arg.type_list_attr in attrs:
                    if attrs[arg.type_list_attr] != base_types:
                        raise TypeError(f"Input '{arg.name}' of '{op_type}' Op has type list of "
                                        f"{base_types} that does not match type list "
                                        f"{attrs[arg.type_list_attr]} of argument "
                                        f"'{inferred_from[arg.type_list_attr]}'.")
                else:
                    for base in base_types:
                        _check_allowed(info, arg.type_list_attr, base, arg.name)
                    attrs[arg.type_list_attr] = base_types
                    inferred_from[arg.type_list_attr] = arg.name
            if arg.is_ref:
                if not all(t._is_ref_dtype for t in types):
                    raise TypeError(f"'{op_type}' Op requires that input '{arg.name}' be a "
                                    f"mutable tensor (e.g.: a tf.Variable)")
                input_types.extend(types)
            else:
                input_types.extend(base_types)
        attr_protos = {}
        decoded = dict(info.decoded_defaults)
        for attr_name, attr in info.attrs.items():
            if attr_name in attrs:
                value = attrs[attr_name]
            elif attr_name in keywords:
                value = keywords.pop(attr_name)
                if value is None and attr.HasField("default_value"):
                    continue
            elif attr_name in info.default_types:
                value = info.default_types[attr_name]
            elif attr.HasField("default_value"):
                continue
            else:
                raise TypeError(f"No argument for attr {attr_name}")
            if attr.type == "type":
                value = dtypes.as_dtype(value)
                if attr_name not in inferred_from:
                    _check_allowed(info, attr_name, value, attr_name)
            if (attr.type.startswith("list(") and attr.has_minimum
                    and isinstance(value, (list, tuple)) and len(value) < attr.minimum):
                raise ValueError(f"Attr '{attr_name}' of '{op_type}' Op passed list of length "
                                 f"{len(value)} less than minimum {attr.minimum}.")
            if (attr.type == "int" and attr.has_minimum and isinstance(value, int)
                    and value < attr.minimum):
                raise ValueError(f"Attr '{attr_name}' of '{op_type}' Op passed {value} less "
                                 f"than minimum {attr.minimum}.")
            if attr.type == "string" and attr.allowed_values.list.s:
                _check_allowed_string(op_type, attr_name, value, attr.allowed_values.list.s)
            attr_protos[attr_name] = from_python(value, attr.type)
            decoded[attr_name] = _decoded(value, attr.type)
        if keywords:
            raise TypeError(f"{op_type} got unexpected keyword arguments: "
                            f"{', '.join(sorted(keywords))}")
        ref_inputs = [v for arg, v in zip(op_def.input_arg, inputs) if arg.is_ref] \
            if info.ref_inputs else ()
        if ref_inputs:
            with graph.colocate_with(ref_inputs[0].op):
                return graph._create_op_internal(op_type, inputs, None, input_types, scope,
                                                 attr_protos, op_def, decoded_attrs=decoded)
        return graph._create_op_internal(op_type, inputs, None, input_types, scope,
                                         attr_protos, op_def, decoded_attrs=decoded)


def _check_allowed_string(op_type, attr_name, value, allowed):
    """TensorFlow's ValueError for a string attr outside its OpDef's allowed values."""
    text = value.decode("utf-8") if isinstance(value, bytes) else value
    choices = [choice.decode("utf-8") for choice in allowed]
    if text not in choices:
        raise ValueError(f"Attr '{attr_name}' of '{op_type}' Op passed string '{text}' not in: "
                         + ", ".join(f'"{choice}"' for choice in choices) + ".")


@contextlib.contextmanager
def _in_graph(graph, name):
    with graph.as_default(), graph.name_scope(name) as scope:
        yield scope


def _decoded(value, attr_type):
    """A Python attr value as to_python would give it back from the AttrValue."""
    if attr_type == "string":
        return value.encode("utf-8") if isinstance(value, str) else value
    if attr_type == "list(string)":
        return [v.encode("utf-8") if isinstance(v, str) else v for v in value]
    if attr_type == "type":
        return dtypes.as_dtype(value)
    if attr_type == "list(type)":
        return [dtypes.as_dtype(v) for v in value]
    if attr_type == "shape":
        return as_shape(value)
    if attr_type == "list(shape)":
        return [as_shape(v) for v in value]
    if attr_type == "int":
        return int(value)
    if attr_type == "float":
        return float(value)
    if attr_type == "bool":
        return bool(value)
    if attr_type == "list(int)":
        return [int(v) for v in value]
    if attr_type == "list(float)":
        return [float(v) for v in value]
    return to_python(from_python(value, attr_type))


def _flat(values):
    for value in values:
        if isinstance(value, (list, tuple)):
            yield from value
        else:
            yield value


def _convert_one(op_type, info, arg, values, attrs, inferred_from):
    dtype = default_dtype = None
    allowed = None
    if arg.type != types_pb2.DT_INVALID:
        dtype = dtypes.as_dtype(arg.type)
    elif arg.type_attr in attrs:
        dtype = attrs[arg.type_attr]
    elif arg.type_attr in info.default_types:
        default_dtype = info.default_types[arg.type_attr]
        allowed = info.allowed.get(arg.type_attr)
    if isinstance(values, Tensor) and dtype is None:
        return values
    try:
        if dtype is None and allowed:
            inferred = None
            try:
                inferred = convert_to_tensor(values, name=arg.name, as_ref=arg.is_ref)
            except TypeError:
                pass
            if inferred is not None and inferred.dtype in allowed:
                return inferred
            return convert_to_tensor(values, name=arg.name, as_ref=arg.is_ref,
                                     preferred_dtype=default_dtype)
        return convert_to_tensor(values, name=arg.name, dtype=dtype, as_ref=arg.is_ref,
                                 preferred_dtype=default_dtype)
    except TypeError as err:
        if dtype is None:
            raise
        if isinstance(values, Tensor) or hasattr(values, "_as_graph_element"):
            observed = convert_to_tensor(values, as_ref=arg.is_ref).dtype.name
            raise TypeError(_mismatch(op_type, arg, observed, attrs, inferred_from)) from None
        raise TypeError(f"Expected {dtype.name} passed to parameter '{arg.name}' of op "
                        f"'{op_type}', got {values!r} of type '{type(values).__name__}' "
                        f"instead. Error: {err}") from None
    except ValueError:
        try:
            observed = convert_to_tensor(values, as_ref=arg.is_ref).dtype.name
        except ValueError as err:
            raise ValueError(f"Tried to convert '{arg.name}' to a tensor and failed. Error: "
                             f"{err}") from None
        raise TypeError(_mismatch(op_type, arg, observed, attrs, inferred_from)) from None


def _mismatch(op_type, arg, observed, attrs, inferred_from):
    prefix = f"Input '{arg.name}' of '{op_type}' Op has type {observed} that does not match"
    if arg.type_attr in attrs:
        return (f"{prefix} type {attrs[arg.type_attr].name} of argument "
                f"'{inferred_from[arg.type_attr]}'.")
    return f"{prefix} expected type of {dtypes.as_dtype(arg.type).name}."


def _convert_list(op_type, info, arg, values, attrs):
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"Expected list for '{arg.name}' argument to '{op_type}' Op, not "
                        f"{values}.")
    dtype = default_dtype = None
    if arg.type != types_pb2.DT_INVALID:
        dtype = dtypes.as_dtype(arg.type)
    elif arg.number_attr:
        if arg.type_attr in attrs:
            dtype = attrs[arg.type_attr]
        else:
            for value in values:
                if isinstance(value, Tensor):
                    dtype = value.dtype
                    break
        if dtype is None and arg.type_attr in info.default_types:
            default_dtype = info.default_types[arg.type_attr]
    if dtype is not None and not arg.is_ref:
        dtype = dtype.base_dtype
    converted = []
    try:
        for i, value in enumerate(values):
            converted.append(convert_to_tensor(value, dtype=dtype, name=f"{arg.name}_{i}",
                                               preferred_dtype=default_dtype,
                                               as_ref=arg.is_ref))
    except (TypeError, ValueError):
        observed = []
        for value in values:
            try:
                observed.append(convert_to_tensor(value).dtype.base_dtype.name)
            except (TypeError, ValueError):
                observed.append("<NOT CONVERTIBLE TO TENSOR>")
        raise TypeError(f"Tensors in list passed to '{arg.name}' of '{op_type}' Op have types "
                        f"[{', '.join(observed)}] that don't all match.") from None
    if arg.number_attr and len({t.dtype.base_dtype for t in converted}) > 1:
        raise TypeError(f"Tensors in list passed to '{arg.name}' of '{op_type}' Op have types "
                        f"[{', '.join(t.dtype.name for t in converted)}] that don't all match.")
    return converted
