"""One-line summaries of AttrValues, TensorProtos and shapes, as people read them in a node list.

Pure functions over the messages; views use them wherever an attr is shown in one line.

>>> from engine.proto import attr_value_pb2
>>> summarize_attr(attr_value_pb2.AttrValue(type=1))
'DT_FLOAT'
>>> summarize_attr(attr_value_pb2.AttrValue(s=b"loc:@x"))
'"loc:@x"'
"""

from __future__ import annotations

import struct

from engine.framework import tensor_shape
from engine.proto import tensor_shape_pb2, types_pb2

LIMIT = 80
MAX_VALUES = 10

# dtype -> (struct format of one element of tensor_content, TensorProto field holding values)
_ELEMENTS = {
    types_pb2.DT_FLOAT: ("f", "float_val"),
    types_pb2.DT_DOUBLE: ("d", "double_val"),
    types_pb2.DT_INT32: ("i", "int_val"),
    types_pb2.DT_UINT8: ("B", "int_val"),
    types_pb2.DT_INT16: ("h", "int_val"),
    types_pb2.DT_INT8: ("b", "int_val"),
    types_pb2.DT_UINT16: ("H", "int_val"),
    types_pb2.DT_QINT8: ("b", "int_val"),
    types_pb2.DT_QUINT8: ("B", "int_val"),
    types_pb2.DT_QINT16: ("h", "int_val"),
    types_pb2.DT_QUINT16: ("H", "int_val"),
    types_pb2.DT_QINT32: ("i", "int_val"),
    types_pb2.DT_INT64: ("q", "int64_val"),
    types_pb2.DT_BOOL: ("?", "bool_val"),
    types_pb2.DT_UINT32: ("I", "uint32_val"),
    types_pb2.DT_UINT64: ("Q", "uint64_val"),
    types_pb2.DT_HALF: ("e", "half_val"),
    types_pb2.DT_BFLOAT16: ("H", "half_val"),
    types_pb2.DT_COMPLEX64: ("ff", "scomplex_val"),
    types_pb2.DT_COMPLEX128: ("dd", "dcomplex_val"),
}


def clip(text, limit=LIMIT):
    """`text` on one line, at most `limit` characters, "..." marking a cut.

    >>> clip("abcdefghij", 8)
    'abcde...'
    """
    text = " ".join(text.splitlines())
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def dtype_name(dtype):
    """The DataType enum name, as TensorFlow writes it in text protos.

    >>> dtype_name(1), dtype_name(101), dtype_name(999)
    ('DT_FLOAT', 'DT_FLOAT_REF', 'DT_999')
    """
    try:
        return types_pb2.DataType.Name(dtype)
    except ValueError:
        return f"DT_{dtype}"


def short_dtype(dtype):
    """TensorFlow's short name for a dtype: float, int32, string, float_ref.

    >>> short_dtype(1), short_dtype(7), short_dtype(103)
    ('float', 'string', 'int32_ref')
    """
    name = dtype_name(dtype)
    return name[3:].lower() if name.startswith("DT_") else name.lower()


def shape_text(shape):
    """A TensorShapeProto as `[2,3]`, `[?,2]`, `[]` (a scalar) or `<unknown>` (unknown rank).

    >>> shape_text(tensor_shape_pb2.TensorShapeProto(dim=[{"size": -1}, {"size": 2}]))
    '[?,2]'
    >>> shape_text(tensor_shape_pb2.TensorShapeProto(unknown_rank=True))
    '<unknown>'
    """
    return tensor_shape.shape_text(shape)


def quote(data):
    r"""Bytes as a double-quoted one-line string, control characters escaped.

    >>> quote(b'say "hi"\n')
    '"say \\"hi\\"\\n"'
    """
    text = data.decode("utf-8", "backslashreplace") if isinstance(data, bytes) else data
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return '"' + "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in escaped) + '"'


def number(value):
    """A number the short way: 1, 0.5, 1e-07, true.

    >>> number(1.0), number(0.5), number(1e-7), number(True), number(7)
    ('1', '0.5', '1e-07', 'true', '7')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, complex):
        return f"({value.real:.6g},{value.imag:.6g})"
    return str(value)


def _element_count(shape):
    if shape.unknown_rank or any(dim.size < 0 for dim in shape.dim):
        return None
    count = 1
    for dim in shape.dim:
        count *= dim.size
    return count


def tensor_values(tensor, limit=MAX_VALUES):
    """(up to `limit` values of a TensorProto, whether more exist).

    Values come from tensor_content or the typed field; a typed field shorter than the tensor
    repeats its last value, as TensorFlow reads it.

    >>> from engine.proto import tensor_pb2
    >>> t = tensor_pb2.TensorProto(dtype=1, tensor_shape={"dim": [{"size": 3}]}, float_val=[2.0])
    >>> tensor_values(t)
    ([2.0, 2.0, 2.0], False)
    """
    count = _element_count(tensor.tensor_shape)
    if tensor.dtype == types_pb2.DT_STRING:
        values = list(tensor.string_val[:limit])
        stored = len(tensor.string_val)
    elif tensor.dtype in _ELEMENTS:
        element, field = _ELEMENTS[tensor.dtype]
        if tensor.tensor_content:
            width = struct.calcsize("<" + element)
            stored = len(tensor.tensor_content) // width
            shown = min(stored, limit)
            flat = struct.unpack_from(f"<{element * shown}", tensor.tensor_content)
        else:
            repeated = getattr(tensor, field)
            stored = len(repeated) // len(element)
            flat = list(repeated[: min(stored, limit) * len(element)])
        values = _decode(tensor.dtype, flat)
    else:
        return [], False
    if count is not None and 0 < len(values) < limit and stored < count:
        values += [values[-1]] * (min(count, limit) - len(values))
    total = count if count is not None else stored
    return values[:limit], total > limit


def _decode(dtype, flat):
    if dtype == types_pb2.DT_HALF and flat and isinstance(flat[0], int):
        return [struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0] for bits in flat]
    if dtype == types_pb2.DT_BFLOAT16:
        return [struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0] for bits in flat]
    if dtype in (types_pb2.DT_COMPLEX64, types_pb2.DT_COMPLEX128):
        return [complex(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]
    return list(flat)


def summarize_tensor(tensor, limit=LIMIT):
    """A TensorProto as `Tensor<float [2] 1 2>`.

    >>> from engine.proto import tensor_pb2
    >>> summarize_tensor(tensor_pb2.TensorProto(dtype=3, tensor_shape={}, int_val=[5]))
    'Tensor<int32 [] 5>'
    >>> content = struct.pack("<4f", 1, 2, 3, 4)
    >>> summarize_tensor(tensor_pb2.TensorProto(dtype=1,
    ...     tensor_shape={"dim": [{"size": 2}, {"size": 2}]}, tensor_content=content))
    'Tensor<float [2,2] 1 2 3 4>'
    """
    values, more = tensor_values(tensor)
    if tensor.dtype == types_pb2.DT_STRING:
        shown = [quote(value) for value in values]
    else:
        shown = [number(value) for value in values]
    if more:
        shown.append("...")
    parts = [short_dtype(tensor.dtype), shape_text(tensor.tensor_shape)] + shown
    text = "Tensor<" + " ".join(parts)
    if len(text) + 1 > limit:
        return clip(text, limit - 1) + ">"
    return text + ">"


def _name_attr_list(func):
    if not func.attr:
        return func.name
    inner = ", ".join(f"{key}={summarize_attr(func.attr[key])}" for key in sorted(func.attr))
    return f"{func.name}[{inner}]"


def _list_items(values):
    for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
        items = getattr(values, field)
        if items:
            return [_one(field, item) for item in items]
    return []


def _one(field, value):
    if field == "s":
        return quote(value)
    if field in ("i", "f", "b"):
        return number(value)
    if field == "type":
        return dtype_name(value)
    if field == "shape":
        return shape_text(value)
    if field == "tensor":
        return summarize_tensor(value)
    if field == "func":
        return _name_attr_list(value)
    if field == "placeholder":
        return f"${value}"
    return ""


def summarize_attr(value, limit=LIMIT):
    """An AttrValue in one line of at most `limit` characters.

    >>> from engine.proto import attr_value_pb2 as av
    >>> summarize_attr(av.AttrValue(shape={"dim": [{"size": 2}, {"size": 3}]}))
    '[2,3]'
    >>> summarize_attr(av.AttrValue(list={"type": [1, 3]}))
    '[DT_FLOAT, DT_INT32]'
    >>> summarize_attr(av.AttrValue(list={"s": [b"loc:@x"]}))
    '["loc:@x"]'
    >>> summarize_attr(av.AttrValue(b=True)), summarize_attr(av.AttrValue(f=0.25))
    ('true', '0.25')
    >>> summarize_attr(av.AttrValue(func={"name": "cond_true_7"}))
    'cond_true_7'
    >>> summarize_attr(av.AttrValue(list={}))
    '[]'
    >>> summarize_attr(av.AttrValue(list={"i": list(range(40))}))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21...'
    """
    field = value.WhichOneof("value")
    if field is None:
        return ""
    if field == "list":
        return clip("[" + ", ".join(_list_items(value.list)) + "]", limit)
    return clip(_one(field, getattr(value, field)), limit)
