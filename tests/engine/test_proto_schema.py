"""Our messages against TensorFlow's schemas: same names, numbers, types, enum values."""

import json
from pathlib import Path

import pytest
from google.protobuf import descriptor_pool, text_format

import engine.proto  # noqa: F401
from engine.proto import (checkpoint_state_pb2, config_pb2, event_pb2, example_pb2,  # noqa: F401
                          graph_pb2, meta_graph_pb2, op_def_pb2, saved_model_pb2, step_stats_pb2,
                          tensor_bundle_pb2, types_pb2)

SCHEMA = json.loads((Path(__file__).parents[1] / "fixtures" / "proto_schema.json").read_text())


def describe(full_name):
    pool = descriptor_pool.Default()
    try:
        message = pool.FindMessageTypeByName(full_name)
    except KeyError:
        enum = pool.FindEnumTypeByName(full_name)
        return {value.name: value.number for value in enum.values}
    table = {}
    for field in message.fields:
        target = field.message_type or field.enum_type
        table[field.name] = [field.number, field.type, field.is_repeated,
                             "." + target.full_name if target else ""]
    return table


@pytest.mark.parametrize("full_name", sorted(SCHEMA))
def test_message_matches_tensorflow(full_name):
    assert describe(full_name.lstrip(".")) == SCHEMA[full_name]


def test_every_root_message_is_covered():
    for name in ["GraphDef", "NodeDef", "AttrValue", "TensorProto", "OpList", "GraphDebugInfo",
                 "StepStats", "NodeExecStats", "CostGraphDef", "RunOptions", "RunMetadata",
                 "ConfigProto", "MetaGraphDef", "SavedModel", "Event", "Summary",
                 "FunctionDefLibrary", "ResourceHandleProto", "VersionDef", "DataType"]:
        assert f".graph_inspector.tf.{name}" in SCHEMA


def test_ref_types_follow_base_types():
    assert types_pb2.DT_FLOAT_REF == types_pb2.DT_FLOAT + 100
    assert types_pb2.DataType.Name(types_pb2.DT_INT32_REF) == "DT_INT32_REF"


def test_text_format_uses_tensorflow_field_names():
    text = 'node { name: "a" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } }'
    graph = text_format.Parse(text, graph_pb2.GraphDef())
    assert graph.node[0].attr["dtype"].type == types_pb2.DT_FLOAT
    assert text_format.Parse(text_format.MessageToString(graph), graph_pb2.GraphDef()) == graph
