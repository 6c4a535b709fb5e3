"""tf.summary.scalar / merge / merge_all: ScalarSummary and MergeSummary ops and their kernels.

As TensorFlow 1.x: scalar(name, tensor) opens a name scope `name` (uniquified), tags the value
with that scope, names the op after it and adds it to GraphKeys.SUMMARIES; running it gives a
serialized Summary (a 0-d string tensor), which FileWriter.add_summary takes as it is.
"""

from __future__ import annotations

import re

import numpy as np

from engine import errors
from engine.kernels import register
from engine.ops.op_def_library import apply_op
from engine.proto import summary_pb2

SUMMARIES = "summaries"
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w\.]")


def clean_tag(name):
    """A summary name with the characters TensorFlow refuses in tags replaced by `_`.

    >>> clean_tag("loss (train)")
    'loss__train_'
    """
    if name is None:
        return None
    cleaned = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
    return cleaned


def scalar(name, tensor, collections=None, family=None):
    """A ScalarSummary of `tensor` (a real scalar) tagged with its name scope."""
    from engine.default_graph import get_default_graph
    from engine.ops.convert import convert_to_tensor
    name, family = clean_tag(name), clean_tag(family)
    graph = getattr(tensor, "graph", None) or get_default_graph()
    base = name if family is None else f"{family}/{name}"
    with graph.as_default(), graph.name_scope(base) as scope:
        tag = scope.rstrip("/") if family is None else f"{family}/{scope.rstrip('/')}"
        tags = convert_to_tensor(tag, name="tags")
        summary = apply_op("ScalarSummary", tags=tags, values=tensor, name=scope)
    for key in (SUMMARIES,) if collections is None else collections:
        graph.add_to_collection(key, summary)
    return summary


def merge(inputs, collections=None, name=None):
    """A MergeSummary of serialized Summary tensors: one Summary with all their values."""
    from engine.graph import _get_graph_from_inputs
    inputs = list(inputs)
    with _get_graph_from_inputs(inputs).name_scope(name or "Merge"):
        summary = apply_op("MergeSummary", inputs=inputs, name=name)
    if collections:
        for key in collections:
            summary.graph.add_to_collection(key, summary)
    return summary


def merge_all(key=SUMMARIES, scope=None, name=None):
    """merge() of every summary in collection `key` (and under `scope`), or None if none."""
    from engine.default_graph import get_default_graph
    summaries = get_default_graph().get_collection(key, scope)
    if not summaries:
        return None
    return merge(summaries, name=name)


# ---- kernels ------------------------------------------------------------------------------------

def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _serialized(summary):
    return np.array(summary.SerializeToString(deterministic=True), dtype=object)


@register("ScalarSummary")
def scalar_summary(ctx, tags, values):
    tags, values = np.asarray(tags, dtype=object), np.asarray(values)
    if tags.shape != values.shape:
        raise errors.InvalidArgumentError(
            None, None, f"tags and values are not the same shape: {_shape(tags)} != "
                        f"{_shape(values)}")
    summary = summary_pb2.Summary()
    for tag, value in zip(tags.reshape(-1), values.reshape(-1)):
        summary.value.add(tag=_text(tag), simple_value=float(value))
    return _serialized(summary)


@register("MergeSummary")
def merge_summary(ctx, *inputs):
    merged, seen = summary_pb2.Summary(), set()
    for item in inputs:
        for serialized in np.asarray(item, dtype=object).reshape(-1):
            try:
                part = summary_pb2.Summary.FromString(bytes(serialized))
            except Exception as error:  # noqa: BLE001 (protobuf's DecodeError and kin)
                raise errors.InvalidArgumentError(
                    None, None, "Could not parse one of the summary inputs") from error
            for value in part.value:
                if value.tag and value.tag in seen:
                    raise errors.InvalidArgumentError(
                        None, None, f"Duplicate tag {value.tag} found in summary inputs ")
                seen.add(value.tag)
                merged.value.add().CopyFrom(value)
    return _serialized(merged)


def _shape(array):
    return "[" + ",".join(str(d) for d in array.shape) + "]"
