"""AttrValue <-> Python: what Operation.get_attr returns and what building a node accepts.

>>> from engine import dtypes
>>> to_python(from_python(dtypes.float32, "type"))
tf.float32
>>> to_python(from_python([1, 2], "list(int)"))
[1, 2]
>>> from_python("VALID", "string").s
b'VALID'
"""

import numpy as np

from engine.framework import dtypes
from engine.proto import attr_value_pb2
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.framework.tensor_util import MakeNdarray
from engine.framework.tensor_util import make_tensor_proto

AttrValue = attr_value_pb2.AttrValue

# The oneof field of an AttrValue, and of its ListValue, by OpDef attr type.
_FIELDS = {"string": "s", "int": "i", "float": "f", "bool": "b", "type": "type",
           "shape": "shape", "tensor": "tensor", "func": "func"}


def to_python(attr):
    """An AttrValue as TensorFlow's Operation.get_attr returns it."""
    field = attr.WhichOneof("value")
    if field is None:
        return None
    if field == "list":
        return _list_to_python(attr.list)
    return _scalar_to_python(field, getattr(attr, field))


def _scalar_to_python(field, value):
    if field == "type":
        return dtypes.as_dtype(value)
    if field == "shape":
        return TensorShape(value)
    if field == "tensor":
        return MakeNdarray(value)
    return value


def _list_to_python(values):
    for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
        items = getattr(values, field)
        if items:
            return [_scalar_to_python(field, item) for item in items]
    return []


def _scalar_into(attr, field, value):
    if field == "s":
        attr.s = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    elif field == "i":
        attr.i = int(value)
    elif field == "f":
        attr.f = float(value)
    elif field == "b":
        attr.b = bool(value)
    elif field == "type":
        attr.type = dtypes.as_dtype(value).as_datatype_enum
    elif field == "shape":
        attr.shape.CopyFrom(value if not isinstance(value, (TensorShape, list, tuple)) and
                            value is not None and hasattr(value, "dim")
                            else as_shape(value).as_proto())
    elif field == "tensor":
        attr.tensor.CopyFrom(make_tensor_proto(value))
    elif field == "func":
        if isinstance(value, attr_value_pb2.NameAttrList):
            attr.func.CopyFrom(value)
        else:
            attr.func.name = value if isinstance(value, str) else value.name
    else:
        raise TypeError(f"Unknown attr field {field!r}")


def from_python(value, attr_type):
    """An AttrValue holding `value` as an attr of OpDef type `attr_type` ("int", "list(type)"...)."""
    if isinstance(value, AttrValue):
        return value
    attr = AttrValue()
    if attr_type.startswith("list("):
        field = _FIELDS[attr_type[5:-1]]
        attr.list.SetInParent()
        target = getattr(attr.list, field)
        for item in value:
            if field == "s":
                target.append(item.encode("utf-8") if isinstance(item, str) else bytes(item))
            elif field == "i":
                target.append(int(item))
            elif field == "f":
                target.append(float(item))
            elif field == "b":
                target.append(bool(item))
            elif field == "type":
                target.append(dtypes.as_dtype(item).as_datatype_enum)
            elif field == "shape":
                target.add().CopyFrom(as_shape(item).as_proto())
            elif field == "tensor":
                target.add().CopyFrom(make_tensor_proto(item))
            else:
                target.add().CopyFrom(item)
        return attr
    _scalar_into(attr, _FIELDS[attr_type], value)
    return attr


def infer_type(value):
    """The OpDef attr type of a plain Python value, for attrs without an OpDef entry."""
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    if isinstance(value, (str, bytes)):
        return "string"
    if isinstance(value, dtypes.DType):
        return "type"
    if isinstance(value, TensorShape):
        return "shape"
    if isinstance(value, (list, tuple)):
        inner = infer_type(value[0]) if value else "int"
        return f"list({inner})"
    raise TypeError(f"Cannot infer the attr type of {value!r}")
