"""The OpDefs of engine/ops/program_op_defs.pbtxt (tf.layers, sampled losses, RNNs, tf.data),
registered beside engine/op_defs.pbtxt, and a way to give such an op its shape function."""

import os

from engine import op_registry
from engine.proto import op_def_pb2

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "program_op_defs.pbtxt")


def _register_op_defs():
    from google.protobuf import text_format
    with open(_PATH, encoding="utf-8") as f:
        op_list = text_format.Parse(f.read(), op_def_pb2.OpList())
    for op_def in op_list.op:
        if op_registry.lookup(op_def.name) is None:
            op_registry.register(op_def)


def register_shape_functions(table):
    """Adds {op type: fn(attrs, inputs) -> dims} to the static shape inference."""
    from engine.shape_inference import SHAPE_FUNCTIONS
    SHAPE_FUNCTIONS.update(table)


_register_op_defs()
