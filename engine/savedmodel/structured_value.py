"""StructuredValue: how a TF2 SavedModel writes a function's arguments and results
(TensorFlow's nested_structure_coder): tuples, lists, dicts, None, Python scalars and
TensorSpecs; and the FullArgSpec named tuple a saved tf.function's spec carries.

>>> from engine.framework import dtypes
>>> from engine.framework.type_spec import TensorSpec
>>> proto = encode(((TensorSpec([None, 2], dtypes.float32, "x"),), {}))
>>> decode(proto)
((TensorSpec(shape=(?, 2), dtype=tf.float32, name='x'),), {})
"""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape
from engine.framework.type_spec import TensorSpec
from engine.proto import struct_pb2


def encode(value):
    """The StructuredValue of a nest of tuples, lists, dicts, TensorSpecs and Python scalars."""
    proto = struct_pb2.StructuredValue()
    if value is None:
        proto.none_value.SetInParent()
    elif isinstance(value, TensorSpec):
        spec = proto.tensor_spec_value
        spec.name = value.name or ""
        spec.shape.CopyFrom(TensorShape(value.shape).as_proto())
        spec.dtype = dtypes.as_dtype(value.dtype).as_datatype_enum
    elif isinstance(value, bool):
        proto.bool_value = value
    elif isinstance(value, int):
        proto.int64_value = value
    elif isinstance(value, float):
        proto.float64_value = value
    elif isinstance(value, str):
        proto.string_value = value
    elif isinstance(value, dict):
        proto.dict_value.SetInParent()
        for key, item in value.items():
            proto.dict_value.fields[str(key)].CopyFrom(encode(item))
    elif isinstance(value, tuple):
        proto.tuple_value.SetInParent()
        proto.tuple_value.values.extend(encode(item) for item in value)
    elif isinstance(value, list):
        proto.list_value.SetInParent()
        proto.list_value.values.extend(encode(item) for item in value)
    else:
        raise NotImplementedError(f"a SavedModel cannot describe {value!r} of type "
                                  f"{type(value).__name__} in a function's signature")
    return proto


def decode(proto):
    """The Python value of a StructuredValue (TensorSpecs for tensor specs, dicts by key)."""
    kind = proto.WhichOneof("kind")
    if kind in (None, "none_value"):
        return None
    if kind == "tensor_spec_value":
        spec = proto.tensor_spec_value
        return TensorSpec(TensorShape(spec.shape), dtypes.as_dtype(spec.dtype), spec.name or None)
    if kind == "dict_value":
        return {key: decode(proto.dict_value.fields[key]) for key in sorted(proto.dict_value.fields)}
    if kind == "tuple_value":
        return tuple(decode(item) for item in proto.tuple_value.values)
    if kind == "list_value":
        return [decode(item) for item in proto.list_value.values]
    if kind == "named_tuple_value":
        return {pair.key: decode(pair.value) for pair in proto.named_tuple_value.values}
    if kind in ("float64_value", "int64_value", "string_value", "bool_value"):
        return getattr(proto, kind)
    raise NotImplementedError(f"the engine does not read a SavedModel's {kind} values")


def full_arg_spec(args, kwonly_args=(), defaults=None):
    """inspect.FullArgSpec as TensorFlow encodes it: the argument names (self left out) and
    the defaults of the last ones (a tuple, None when there are none)."""
    proto = struct_pb2.StructuredValue()
    named = proto.named_tuple_value
    named.name = "FullArgSpec"
    fields = (("args", list(args)), ("varargs", None), ("varkw", None),
              ("defaults", tuple(defaults) if defaults else None),
              ("kwonlyargs", list(kwonly_args)), ("kwonlydefaults", None), ("annotations", {}))
    for key, value in fields:
        named.values.add(key=key).value.CopyFrom(encode(value))
    return proto
