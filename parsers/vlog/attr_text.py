"""Attr values as TensorFlow prints them in node lines, back into AttrValue messages.

TensorFlow's SummarizeAttrValue writes types as `float` (graph dumps) or `DT_FLOAT` (executor
lines), lists as `[a, b]` with ", ", shapes as `[2,?]` without spaces (`<unknown>` for unknown
rank), strings C-escaped in quotes (long ones cut in the middle: `"abc...xyz"`), tensors as
`Tensor<type: float shape: [2] values: 1 2>`, functions as `f[T=float]`, placeholders as `$T`.
`[2]` and `[]` read as a shape or a list depending on the attr's type: pass it (from the OpDef)
where known; otherwise attrs named like shapes are shapes.

>>> v = parse_attr_value('[2,?]'); list(v.shape.dim)[1].size, format_attr_value(v)
(-1, '[2,?]')
>>> format_attr_value(parse_attr_value('["loc:@x", "a\\\\"b"]'))
'["loc:@x", "a\\\\"b"]'
>>> parse_attr_value("DT_INT32").type == parse_attr_value("int32").type == 3
True
>>> v = parse_attr_value("f[T=float, n=2]"); v.func.name, format_attr_value(v.func.attr["n"])
('f', '2')
>>> format_attr_value(parse_attr_value("{float, int32}"))
'[float, int32]'
>>> v = parse_attr_value("Tensor<type: float shape: [2] values: 1 2>")
>>> v.tensor.dtype, [d.size for d in v.tensor.tensor_shape.dim], list(v.tensor.float_val)
(1, [2], [1.0, 2.0])
"""

from __future__ import annotations

import re

from engine.proto import attr_value_pb2, tensor_pb2, tensor_shape_pb2, types_pb2
from engine.framework.text_formats import summarize_attr_value
from parsers.vlog.tokens import split_top_level

AttrValue = attr_value_pb2.AttrValue

# "float" / "DT_FLOAT" / "float_ref" -> enum value.
DTYPES: dict[str, int] = {}
for _name, _value in types_pb2.DataType.items():
    if _name == "DT_INVALID":
        continue
    DTYPES[_name] = _value
    DTYPES[_name[3:].lower()] = _value
DTYPES["invalid"] = 0

_INT = re.compile(r"-?\d+\Z")
_FLOAT = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?\Z|-?inf\Z|nan\Z|-?nan\Z")
_SHAPE = re.compile(r"\[(?:(?:-?\d+|\?)(?:,(?:-?\d+|\?))*)?\]\Z")
_FUNC = re.compile(r"([A-Za-z_.][\w./-]*)\[(.*)\]\Z", re.S)
_TENSOR = re.compile(r"Tensor<type: (\w+) shape: (\S+) values: ?(.*)>\Z", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "?": "?"}

# The TensorProto field holding each dtype's values, for tensors read back from their summary.
_VALUE_FIELDS = {
    types_pb2.DT_FLOAT: "float_val", types_pb2.DT_DOUBLE: "double_val",
    types_pb2.DT_INT32: "int_val", types_pb2.DT_INT16: "int_val", types_pb2.DT_INT8: "int_val",
    types_pb2.DT_UINT8: "int_val", types_pb2.DT_UINT16: "int_val", types_pb2.DT_INT64: "int64_val",
    types_pb2.DT_UINT32: "uint32_val", types_pb2.DT_UINT64: "uint64_val",
    types_pb2.DT_BOOL: "bool_val", types_pb2.DT_STRING: "string_val",
}


def unescape(body: str) -> bytes:
    """C escapes (as absl::CEscape writes them) back into bytes.

    >>> unescape(r'a\\"b\\n\\001')
    b'a"b\\n\\x01'
    """
    if "\\" not in body:
        return body.encode("utf-8", "surrogateescape")
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out += _ESCAPES[nxt].encode()
            i += 2
        elif nxt in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(int(body[i + 1:j], 8) & 0xFF)
            i = j
        elif nxt == "x" and i + 3 < n + 1:
            digits = body[i + 2:i + 4]
            try:
                out.append(int(digits, 16))
                i += 4
            except ValueError:
                out += b"\\x"
                i += 2
        else:
            out += nxt.encode("utf-8", "surrogateescape")
            i += 2
    return bytes(out)


def parse_shape(text: str) -> tensor_shape_pb2.TensorShapeProto:
    """`[2,?]`, `[]`, `<unknown>` into a TensorShapeProto (? is -1)."""
    shape = tensor_shape_pb2.TensorShapeProto()
    if text == "<unknown>":
        shape.unknown_rank = True
        return shape
    inner = text[1:-1].strip()
    if inner:
        for dim in inner.split(","):
            dim = dim.strip()
            shape.dim.add().size = -1 if dim == "?" else int(dim)
    return shape


def parse_tensor(text: str) -> tensor_pb2.TensorProto | None:
    """A tensor summary into a TensorProto with the values it shows (summaries cut at 10)."""
    match = _TENSOR.match(text)
    if match is None:
        return None
    type_name, shape_text, values = match.groups()
    tensor = tensor_pb2.TensorProto(dtype=DTYPES.get(type_name, 0))
    if shape_text.startswith("[") or shape_text == "<unknown>":
        try:
            tensor.tensor_shape.CopyFrom(parse_shape(shape_text))
        except ValueError:
            pass
    field = _VALUE_FIELDS.get(tensor.dtype)
    if field is not None:
        values = values.replace("...", " ").replace("[", " ").replace("]", " ")
        target = getattr(tensor, field)
        for token in values.split():
            try:
                if field == "string_val":
                    target.append(token.encode())
                elif field == "bool_val":
                    target.append(token in ("1", "true"))
                elif field in ("float_val", "double_val"):
                    target.append(float(token))
                else:
                    target.append(int(token))
            except (ValueError, OverflowError):
                continue
    return tensor


def _scalar(text: str, attr_type: str | None, key: str) -> tuple[str, object]:
    """(AttrValue field, value) for one scalar text."""
    if attr_type in ("shape",) or (attr_type is None and _is_shape_key(key)):
        if _SHAPE.match(text) or text == "<unknown>":
            return "shape", parse_shape(text)
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return "s", unescape(text[1:-1])
    if text in ("true", "false"):
        return "b", text == "true"
    if attr_type == "float" or (attr_type is None and not _INT.match(text)):
        if _FLOAT.match(text):
            return "f", float(text)
    if _INT.match(text):
        if attr_type == "float":
            return "f", float(text)
        return "i", int(text)
    if text in DTYPES:
        return "type", DTYPES[text]
    if text == "<unknown>" or (text.startswith("[") and _SHAPE.match(text)):
        return "shape", parse_shape(text)
    if text.startswith("Tensor<"):
        tensor = parse_tensor(text)
        if tensor is not None:
            return "tensor", tensor
    if text.startswith("$"):
        return "placeholder", text[1:]
    match = _FUNC.match(text)
    if match is not None:
        return "func", parse_func(text)
    return "s", text.encode("utf-8", "surrogateescape")


def _is_shape_key(key: str) -> bool:
    return key == "shape" or key.endswith("_shape") or key.endswith("shape")


def parse_func(text: str) -> attr_value_pb2.NameAttrList:
    """`f[T=float, n=2]` into a NameAttrList."""
    match = _FUNC.match(text)
    func = attr_value_pb2.NameAttrList()
    if match is None:
        func.name = text
        return func
    func.name = match.group(1)
    for item in split_top_level(match.group(2)):
        key, sep, value = item.partition("=")
        if sep:
            func.attr[key].CopyFrom(parse_attr_value(value, key=key))
    return func


def parse_attr_value(text: str, attr_type: str | None = None, key: str = "") -> AttrValue:
    """One attr value as printed, into an AttrValue.

    `attr_type` is the OpDef's type string ("int", "list(type)", "shape", ...) where known.
    Text that fits no form is kept as the string it is.
    """
    value = AttrValue()
    text = text.strip()
    is_list_type = attr_type is not None and attr_type.startswith("list(")
    element_type = attr_type[5:-1] if is_list_type else None
    if text.startswith("{") and text.endswith("}"):
        is_list_type = True
    elif text.startswith("[") and text.endswith("]"):
        if attr_type == "shape":
            is_list_type = False
        elif attr_type is None:
            # [2,?] and [8,3] are shapes (no space after commas); [1, 2] and ["a"] are lists.
            inner = text[1:-1]
            looks_shape = _SHAPE.match(text) is not None and ("," in inner or "?" in inner)
            is_list_type = not looks_shape and not (_is_shape_key(key) and _SHAPE.match(text))
    if is_list_type and text[:1] in "[{":
        value.list.SetInParent()
        items = split_top_level(text[1:-1])
        kinds = [_scalar(item.strip(), element_type, "") for item in items]
        fields = {field for field, _ in kinds}
        if fields == {"i", "f"}:
            kinds = [("f", float(v)) if f == "i" else (f, v) for f, v in kinds]
            fields = {"f"}
        if len(fields) > 1:
            kinds = [("s", item.strip().encode("utf-8", "surrogateescape")) for item in items]
        for field, item in kinds:
            target = getattr(value.list, field if field != "placeholder" else "s")
            if field in ("shape", "tensor", "func"):
                target.add().CopyFrom(item)
            elif field == "placeholder":
                target.append(("$" + item).encode())
            else:
                target.append(item)
        return value
    field, item = _scalar(text, attr_type, key)
    if field in ("shape", "tensor", "func"):
        getattr(value, field).CopyFrom(item)
    else:
        setattr(value, field, item)
    return value


def format_attr_value(value: AttrValue, dtype_style: str = "") -> str:
    """An AttrValue in the one-line form graph dumps use (types as `float`; `DT_` for DT_FLOAT),
    written by the engine's SummarizeAttrValue."""
    if value.WhichOneof("value") is None:
        return ""
    return summarize_attr_value(value, "executor" if dtype_style == "DT_" else "dump")
