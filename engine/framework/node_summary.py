"""TensorFlow's SummarizeNodeDef and shape DebugString, the text a graph-building error ends with:
"... for '{{node mm}} = MatMul[T=DT_FLOAT, transpose_a=false, transpose_b=false](a, b)' with
input shapes: [2,3], [4,5]." (tensorflow/core/framework/node_def_util.cc, attr_value_util.cc).

>>> shape_text(None), shape_text([]), shape_text([None, 3])
('?', '[]', '[?,3]')
>>> float_text(3.0), float_text(0.5), float_text(1e-05)
('3', '0.5', '1e-05')
"""

import codecs

import numpy as np

from engine.framework import dtypes
from engine.proto import types_pb2


def shape_text(dims):
    """InferenceContext::DebugString of a shape: "?" for an unknown rank, "?" per unknown dim."""
    if dims is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def float_text(value):
    """strings::StrCat of a float: the shortest digits that read back, no trailing ".0"."""
    text = str(np.float32(value))
    return text[:-2] if text.endswith(".0") else text


def _string_text(data):
    escaped = codecs.escape_encode(data)[0].decode("ascii") if isinstance(data, bytes) \
        else str(data)
    if len(escaped) >= 80:
        escaped = escaped[:10] + "..." + escaped[-10:]
    return f'"{escaped}"'


def _type_text(enum):
    return types_pb2.DataType.Name(enum)


def _shape_proto_text(shape):
    if shape.unknown_rank:
        return "<unknown>"
    return "[" + ",".join("?" if d.size < 0 else str(d.size) for d in shape.dim) + "]"


def _tensor_text(proto):
    from engine.framework.tensor_util import MakeNdarray
    try:
        value = MakeNdarray(proto)
    except Exception:  # noqa: BLE001 - TensorFlow prints what it cannot read, too
        return "<Invalid TensorProto>"
    flat = value.ravel()
    shown = " ".join(str(x.decode() if isinstance(x, bytes) else x) for x in flat[:3])
    more = "..." if flat.size > 3 else ""
    shape = "[" + ",".join(str(d) for d in value.shape) + "]"
    return (f"Tensor<type: {dtypes.as_dtype(proto.dtype).name} shape: {shape} values: "
            f"{shown}{more}>")


def attr_text(value):
    """SummarizeAttrValue."""
    kind = value.WhichOneof("value")
    if kind == "s":
        return _string_text(value.s)
    if kind == "i":
        return str(value.i)
    if kind == "f":
        return float_text(value.f)
    if kind == "b":
        return "true" if value.b else "false"
    if kind == "type":
        return _type_text(value.type)
    if kind == "shape":
        return _shape_proto_text(value.shape)
    if kind == "tensor":
        return _tensor_text(value.tensor)
    if kind == "func":
        attrs = ", ".join(f"{k}={attr_text(value.func.attr[k])}" for k in sorted(value.func.attr))
        return f"{value.func.name}[{attrs}]"
    if kind == "placeholder":
        return "$" + value.placeholder
    if kind == "list":
        items = value.list
        pieces = ([_string_text(s) for s in items.s] + [str(i) for i in items.i]
                  + [float_text(f) for f in items.f]
                  + ["true" if b else "false" for b in items.b]
                  + [_type_text(t) for t in items.type]
                  + [_shape_proto_text(s) for s in items.shape]
                  + [_tensor_text(t) for t in items.tensor]
                  + [f.name for f in items.func])
        return "[" + ", ".join(pieces) + "]"
    return "<Unknown AttrValue type>"


def summarize_node_def(node_def):
    """'{{node NAME}} = OP[attr=value, ...](inputs)', attributes sorted by name."""
    attrs = [f"{key}={attr_text(node_def.attr[key])}" for key in sorted(node_def.attr)]
    if node_def.device:
        attrs.append(f'_device="{node_def.device}"')
    return (f"{{{{node {node_def.name}}}}} = {node_def.op}[{', '.join(attrs)}]"
            f"({', '.join(node_def.input)})")
