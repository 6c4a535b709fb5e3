"""tf.summary.scalar / merge / merge_all: the ScalarSummary and MergeSummary ops (their kernels
are engine/kernels/cpu/summary.py).

As TensorFlow 1.x: scalar(name, tensor) opens a name scope `name` (uniquified), tags the value
with that scope, names the op after it and adds it to GraphKeys.SUMMARIES; running it gives a
serialized Summary (a 0-d string tensor), which FileWriter.add_summary takes as it is.
"""

from __future__ import annotations

import re

from engine.framework.default_graph import get_default_graph
from engine.framework.graph import get_graph_from_inputs
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op

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
    inputs = list(inputs)
    with get_graph_from_inputs(inputs).name_scope(name or "Merge"):
        summary = apply_op("MergeSummary", inputs=inputs, name=name)
    if collections:
        for key in collections:
            summary.graph.add_to_collection(key, summary)
    return summary


def merge_all(key=SUMMARIES, scope=None, name=None):
    """merge() of every summary in collection `key` (and under `scope`), or None if none."""
    summaries = get_default_graph().get_collection(key, scope)
    if not summaries:
        return None
    return merge(summaries, name=name)
