"""tf.summary.initialize, all_v2_summary_ops and get_summary_description (TF 1.x graph mode).

TensorFlow 2 summary writers (tf.contrib.summary's in TF 1.x) keep their ops in the graph
collection `_SUMMARY_V2` and a default writer per thread; the engine has no such writer, so
initialize() finds none and raises as TensorFlow does without one.
"""

from google.protobuf import json_format

from engine.framework.default_graph import get_default_graph
from engine.proto.summary_pb2 import SummaryDescription

SUMMARY_V2_COLLECTION = "_SUMMARY_V2"  # ops.GraphKeys._SUMMARY_COLLECTION
_default_writer = None  # a TF 2 summary writer made default; the engine makes none


def initialize(graph=None, session=None):
    """Initializes the default TF 2 summary writer and writes `graph` to it."""
    if _default_writer is None:
        raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")


def all_v2_summary_ops():
    """The TF 2 summary ops of the default graph (not TF 1.x tf.summary's)."""
    return get_default_graph().get_collection(SUMMARY_V2_COLLECTION)


def get_summary_description(node_def):
    """The SummaryDescription a TensorSummary NodeDef carries in its `description` attr."""
    if node_def.op != "TensorSummary":
        raise ValueError("Can't get_summary_description on %s" % node_def.op)
    description = node_def.attr["description"].s
    description = description.decode() if isinstance(description, bytes) else str(description)
    summary_description = SummaryDescription()
    json_format.Parse(description, summary_description)
    return summary_description
