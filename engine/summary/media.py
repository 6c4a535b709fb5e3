"""tf.summary.histogram / image / audio / text: their ops, as TensorFlow 1.x (their kernels are
engine/kernels/cpu/summary.py).

Each opens the summary's name scope (uniquified; its name is the tag), builds one op named
after the scope and adds it to GraphKeys.SUMMARIES; running it gives a serialized Summary.
Images are PNG, audio 16-bit WAV, text a string TensorProto under the "text" plugin.
"""

import contextlib

from engine.framework import dtypes
from engine.framework.default_graph import get_default_graph
from engine.framework.graph import get_graph_from_inputs
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.proto import summary_pb2
from engine.summary.ops import SUMMARIES, clean_tag


@contextlib.contextmanager
def summary_scope(name, family=None, default_name=None, values=None):
    """(tag, scope) for a summary: the name scope `family/name` (uniquified) and its tag."""
    name, family = clean_tag(name), clean_tag(family)
    graph = get_graph_from_inputs(values) if values else get_default_graph()
    base = name if family is None else f"{family}/{name}"
    with graph.as_default(), graph.name_scope(base or default_name) as scope:
        tag = scope.rstrip("/") if family is None else f"{family}/{scope.rstrip('/')}"
        yield tag, scope


def collect(summary, collections, default=(SUMMARIES,)):
    for key in default if collections is None else collections:
        summary.graph.add_to_collection(key, summary)


def histogram(name, values, collections=None, family=None):
    """A HistogramSummary of `values` in TensorFlow's buckets."""
    with summary_scope(name, family, "HistogramSummary", [values]) as (tag, scope):
        summary = apply_op("HistogramSummary", tag=tag, values=values, name=scope)
    collect(summary, collections)
    return summary


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """An ImageSummary: up to max_outputs PNGs of a [batch, height, width, 1|3|4] tensor."""
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        summary = apply_op("ImageSummary", tag=tag, tensor=tensor, max_images=max_outputs,
                           name=scope)
    collect(summary, collections)
    return summary


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """An AudioSummaryV2: up to max_outputs WAVs of a [batch, frames(, channels)] tensor."""
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        sample_rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        summary = apply_op("AudioSummaryV2", tag=tag, tensor=tensor, max_outputs=max_outputs,
                           sample_rate=sample_rate, name=scope)
    collect(summary, collections)
    return summary


def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
    """A TensorSummaryV2: the tensor itself, with its SummaryMetadata."""
    metadata = summary_metadata or summary_pb2.SummaryMetadata()
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        summary = apply_op("TensorSummaryV2", tensor=tensor, tag=tag, name=scope,
                           serialized_summary_metadata=metadata.SerializeToString())
    collect(summary, collections)
    return summary


def text(name, tensor, collections=None):
    """A string tensor for TensorBoard's text dashboard."""
    if tensor.dtype != dtypes.string:
        raise ValueError(f"Expected tensor {tensor.name} to have dtype string, got "
                         f"{tensor.dtype}")
    metadata = summary_pb2.SummaryMetadata(
        plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name, tensor, summary_metadata=metadata, collections=collections)


# ---- kernels ------------------------------------------------------------------------------------
