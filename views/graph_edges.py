"""Edges as every view draws them: which tensor, its dtype and static shape, and what kind of edge.

Kinds: "data", "control" (dashed), "ref" (from a reference-typed output), "resource" (a
DT_RESOURCE handle), "back" (NextIteration -> Merge, a loop's back-edge) and "sendrecv" (a
_Send paired with its _Recv across devices).
"""

from __future__ import annotations

from engine.framework import op_families
from engine.proto import types_pb2
from views import attr_text

CONTROL = -1  # the output index of a control input, as TensorFlow's Graph uses it

# Attrs that name an op's output type, most specific first (Shape has both out_type and T).
_DTYPE_ATTRS = ("out_type", "output_type", "DstT", "dtype", "tensor_type", "T")
_DTYPE_LIST_ATTRS = ("Tout", "output_types", "out_types", "T", "dtypes")
_REF_OFFSET = 100


def parse_input(text):
    """A NodeDef input string as (producer name, output index); control inputs have index -1.

    >>> parse_input("weights/read"), parse_input("split:1"), parse_input("^init")
    (('weights/read', 0), ('split', 1), ('init', -1))
    """
    if text.startswith("^"):
        return text[1:], CONTROL
    name, colon, index = text.rpartition(":")
    if colon and index.isascii() and index.isdigit():  # not "²"
        return name, int(index)
    return text, 0


def dtype_name(enum_value):
    """The short dtype name on an edge label ("" when not known).

    >>> dtype_name(types_pb2.DT_FLOAT), dtype_name(types_pb2.DT_INT32_REF), dtype_name(0)
    ('float', 'int32_ref', '')
    """
    return attr_text.short_dtype(enum_value) if enum_value else ""


def shape_text(shape):
    """A static shape on an edge label ("" for an unknown rank).

    >>> from engine.proto import tensor_shape_pb2
    >>> shape_text(tensor_shape_pb2.TensorShapeProto(unknown_rank=True))
    ''
    """
    return "" if shape.unknown_rank else attr_text.shape_text(shape)


def output_dtype(node_def, index):
    """The DataType enum of a NodeDef's output `index`, from its attrs (0 when not known).

    >>> from engine.proto import node_def_pb2
    >>> shape = node_def_pb2.NodeDef(op="Shape", attr={"T": {"type": 1}, "out_type": {"type": 3}})
    >>> dtype_name(output_dtype(shape, 0))
    'int32'
    >>> var = node_def_pb2.NodeDef(op="VariableV2", attr={"dtype": {"type": 1}})
    >>> dtype_name(output_dtype(var, 0))
    'float_ref'
    """
    attrs = node_def.attr
    if node_def.op in op_families.RESOURCE_PRODUCERS and index == 0:
        return types_pb2.DT_RESOURCE
    dtype = 0
    for name in _DTYPE_LIST_ATTRS:
        if name in attrs and attrs[name].HasField("list") and attrs[name].list.type:
            types = attrs[name].list.type
            dtype = types[index] if index < len(types) else 0
            break
    else:
        for name in _DTYPE_ATTRS:
            if name in attrs and attrs[name].WhichOneof("value") == "type":
                dtype = attrs[name].type
                break
    if dtype and node_def.op in op_families.REF_PRODUCERS and dtype < _REF_OFFSET:
        dtype += _REF_OFFSET
    return dtype


def output_shape(node_def, index):
    """The static shape of output `index` from the `_output_shapes` attr, as text ("" if unknown).

    >>> from engine.proto import node_def_pb2
    >>> node = node_def_pb2.NodeDef(attr={"_output_shapes": {"list": {"shape": [{"dim": [{"size": 2}]}]}}})
    >>> output_shape(node, 0), output_shape(node, 1)
    ('[2]', '')
    """
    if "_output_shapes" not in node_def.attr:
        return ""
    shapes = node_def.attr["_output_shapes"].list.shape
    return shape_text(shapes[index]) if index < len(shapes) else ""


def edge_kind(producer, consumer, index):
    """What kind of edge runs from output `index` of NodeDef `producer` to NodeDef `consumer`.

    >>> from engine.proto import node_def_pb2 as n
    >>> edge_kind(n.NodeDef(op="NextIteration"), n.NodeDef(op="Merge"), 0)
    'back'
    >>> edge_kind(n.NodeDef(op="NoOp"), n.NodeDef(op="Add"), -1)
    'control'
    >>> edge_kind(n.NodeDef(op="VarHandleOp"), n.NodeDef(op="ReadVariableOp"), 0)
    'resource'
    """
    if index == CONTROL:
        return "control"
    if producer.op in op_families.NEXT_ITERATION and consumer.op in op_families.MERGE:
        return "back"
    dtype = output_dtype(producer, index)
    if dtype == types_pb2.DT_RESOURCE:
        return "resource"
    if producer.op in op_families.REF_PRODUCERS or dtype > _REF_OFFSET:
        return "ref"
    return "data"


def edge_label(producer, index):
    """The label of a data edge: dtype and static shape where known.

    >>> from engine.proto import node_def_pb2
    >>> edge_label(node_def_pb2.NodeDef(op="Const", attr={"dtype": {"type": 3}}), 0)
    'int32'
    >>> edge_label(node_def_pb2.NodeDef(op="NoOp"), -1)
    ''
    """
    if index == CONTROL:
        return ""
    return " ".join(part for part in (dtype_name(output_dtype(producer, index)),
                                      output_shape(producer, index)) if part)


def aggregate_label(labels):
    """The label of several edges folded into one: the shared label, or how many and of what.

    >>> aggregate_label(["float32 [2]"]), aggregate_label(["float32", "float32"])
    ('float32 [2]', '2x float32')
    >>> aggregate_label(["float", "int32", "float"]), aggregate_label(["", ""])
    ('3 tensors', '2 edges')
    """
    if len(labels) == 1:
        return labels[0]
    distinct = sorted(set(labels))
    if len(distinct) == 1 and distinct[0]:
        return f"{len(labels)}x {distinct[0]}"
    if any(distinct):
        return f"{len(labels)} tensors"
    return f"{len(labels)} edges"
