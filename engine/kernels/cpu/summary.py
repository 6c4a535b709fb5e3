"""NumPy CPU kernels of ScalarSummary and MergeSummary: serialized Summary protos, as
TensorFlow's summary_op.cc writes them (a 0-d string tensor)."""

import numpy as np

from engine import errors
from engine.kernels import register
from engine.kernels.common import shape_str
from engine.proto import summary_pb2


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _serialized(summary):
    return np.array(summary.SerializeToString(deterministic=True), dtype=object)


@register("ScalarSummary")
def scalar_summary(ctx, tags, values):
    tags, values = np.asarray(tags, dtype=object), np.asarray(values)
    if tags.shape != values.shape:
        raise errors.InvalidArgumentError(
            None, None, f"tags and values are not the same shape: {shape_str(tags.shape)} != "
                        f"{shape_str(values.shape)}")
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
