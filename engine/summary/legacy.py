"""The summary functions of TensorFlow before tf.summary (0.12): tags are used as given.

tf.scalar_summary(tags, values) tags the values with `tags` itself (a string or a string
tensor) where tf.summary.scalar(name, ...) tags with its name scope; the ops and the event
files they make are the same.
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.summary.media import collect


def scalar_summary(tags, values, collections=None, name=None):
    with name_scope(name, "ScalarSummary", [tags, values]) as scope:
        summary = apply_op("ScalarSummary", tags=tags, values=values, name=scope)
    collect(summary, collections)
    return summary


def histogram_summary(tag, values, collections=None, name=None):
    with name_scope(name, "HistogramSummary", [tag, values]) as scope:
        summary = apply_op("HistogramSummary", tag=tag, values=values, name=scope)
    collect(summary, collections)
    return summary


def image_summary(tag, tensor, max_images=3, collections=None, name=None):
    with name_scope(name, "ImageSummary", [tag, tensor]) as scope:
        summary = apply_op("ImageSummary", tag=tag, tensor=tensor, max_images=max_images,
                           name=scope)
    collect(summary, collections)
    return summary


def audio_summary(tag, tensor, sample_rate, max_outputs=3, collections=None, name=None):
    with name_scope(name, "AudioSummary", [tag, tensor]) as scope:
        sample_rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        summary = apply_op("AudioSummaryV2", tag=tag, tensor=tensor, max_outputs=max_outputs,
                           sample_rate=sample_rate, name=scope)
    collect(summary, collections)
    return summary
