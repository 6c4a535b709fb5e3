"""TensorFlow's one-line text of values: absl::CEscape, FloatToBuffer and SummarizeAttrValue.

What VLOG lines and kernel errors print; parsers/vlog reads the same text back.

>>> from engine.proto import attr_value_pb2
>>> summarize_attr_value(attr_value_pb2.AttrValue(type=1), "dump")
'float'
>>> summarize_attr_value(attr_value_pb2.AttrValue(type=1), "executor")
'DT_FLOAT'
>>> summarize_attr_value(attr_value_pb2.AttrValue(f=0.123456789))
'0.123456791'
"""

import math

import numpy as np
from google.protobuf import text_encoding

from engine.proto import types_pb2
from engine.framework.tensor_shape import shape_text
from engine.framework.tensor_util import MakeNdarray

MAX_STRING_SUMMARY = 80  # attr_value_util.cc's kMaxStringSummarySize
MAX_TENSOR_VALUES = 10


def c_escape(data, utf8_safe=False):
    """absl::CEscape: quotes, backslash and control bytes escaped, other bytes as octal;
    `utf8_safe` is absl::Utf8SafeCEscape, which keeps UTF-8 characters as they are."""
    return text_encoding.CEscape(data, as_utf8=utf8_safe)


def float_text(value, double=False):
    """tsl FloatToBuffer (DoubleToBuffer when `double`): the shortest of %.6g and %.9g
    (%.15g and %.17g) that reads back as the same number."""
    value = float(value)
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    short, long_ = (15, 17) if double else (6, 9)
    text = "%.*g" % (short, value)
    parsed = float(text)
    if (parsed != value) if double else (np.float32(parsed) != np.float32(value)):
        text = "%.*g" % (long_, value)
    return text


def summarize_string(data):
    """SummarizeString: C-escaped in quotes, the middle of a long one cut to `...`."""
    escaped = c_escape(data)
    if len(escaped) >= MAX_STRING_SUMMARY:
        return f'"{escaped[:10]}...{escaped[-10:]}"'
    return f'"{escaped}"'


def dtype_text(enum):
    """TensorFlow's DataTypeString: DT_FLOAT -> float, DT_INT32_REF -> int32_ref."""
    try:
        return types_pb2.DataType.Name(enum)[3:].lower()
    except ValueError:
        return f"unknown dtype enum ({enum})"


def summarize_attr_value(value, style="dump"):
    """SummarizeAttrValue: types as `float` (graph dumps, style "dump") or `DT_FLOAT`
    (executor lines, style "executor")."""
    which = value.WhichOneof("value")
    if which == "s":
        return summarize_string(value.s)
    if which == "i":
        return str(value.i)
    if which == "f":
        return float_text(value.f)
    if which == "b":
        return "true" if value.b else "false"
    if which == "type":
        return _type_text(value.type, style)
    if which == "shape":
        return shape_text(value.shape)
    if which == "tensor":
        return summarize_tensor(value.tensor)
    if which == "func":
        return _func_text(value.func, style)
    if which == "placeholder":
        return f"${value.placeholder}"
    if which == "list":
        return "[" + ", ".join(_list_items(value.list, style)) + "]"
    return "<Unknown AttrValue type>"


def summarize_tensor(tensor):
    """A TensorProto as `Tensor<type: float shape: [2] values: 1 2>` (10 values at most)."""
    try:
        array = np.asarray(MakeNdarray(tensor))
    except Exception:  # noqa: BLE001 (an attr TensorFlow itself could not show either)
        return "<Invalid TensorProto>"
    flat = array.reshape(-1)
    values = [_value_text(v) for v in flat[:MAX_TENSOR_VALUES]]
    if flat.size > MAX_TENSOR_VALUES:
        values.append("...")
    shape = "[" + ",".join(str(d) for d in array.shape) + "]"
    return (f"Tensor<type: {dtype_text(tensor.dtype)} shape: {shape} values: "
            f"{' '.join(values)}>")


def _list_items(lst, style):
    items = [summarize_string(s) for s in lst.s] + [str(i) for i in lst.i]
    items += [float_text(f) for f in lst.f] + ["true" if b else "false" for b in lst.b]
    items += [_type_text(t, style) for t in lst.type] + [shape_text(s) for s in lst.shape]
    items += [summarize_tensor(t) for t in lst.tensor] + [_func_text(f, style) for f in lst.func]
    return items


def _type_text(enum, style):
    name = types_pb2.DataType.Name(enum) if enum in types_pb2.DataType.values() else str(enum)
    return name if style == "executor" else dtype_text(enum)


def _func_text(func, style):
    attrs = ", ".join(f"{k}={summarize_attr_value(func.attr[k], style)}"
                      for k in sorted(func.attr))
    return f"{func.name}[{attrs}]" if attrs else func.name


def _value_text(value):
    if isinstance(value, (bytes, np.bytes_)):
        return c_escape(bytes(value))
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (float, np.floating)):
        return float_text(value, double=isinstance(value, (float, np.float64)))
    return str(value)
