"""tf.summary.histogram / image / audio / text: their ops and kernels, as TensorFlow 1.x.

Each opens the summary's name scope (uniquified; its name is the tag), builds one op named
after the scope and adds it to GraphKeys.SUMMARIES; running it gives a serialized Summary.
Images are PNG, audio 16-bit WAV, text a string TensorProto under the "text" plugin.
"""

import contextlib

import numpy as np

from engine import dtypes
from engine.kernels import register
from engine.kernels.common import invalid
from engine.ops.op_def_library import apply_op
from engine.proto import summary_pb2
from engine.summary.encoders import png_bytes, wav_bytes
from engine.summary.histogram import histogram_proto
from engine.summary.ops import SUMMARIES, clean_tag


@contextlib.contextmanager
def summary_scope(name, family=None, default_name=None, values=None):
    """(tag, scope) for a summary: the name scope `family/name` (uniquified) and its tag."""
    from engine.default_graph import get_default_graph
    from engine.graph import _get_graph_from_inputs
    name, family = clean_tag(name), clean_tag(family)
    graph = _get_graph_from_inputs(values) if values else get_default_graph()
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
    from engine.ops.convert import convert_to_tensor
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

def _text(value):
    value = np.asarray(value, dtype=object).item()
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _serialized(summary):
    return np.array(summary.SerializeToString(deterministic=True), dtype=object)


def _numbered(tag, kind, i, limit):
    # The tag depends on how many were asked for, not how many there are (TensorFlow's note).
    return f"{tag}/{kind}/{i}" if limit > 1 else f"{tag}/{kind}"


@register("HistogramSummary")
def histogram_summary(ctx, tag, values):
    flat = np.asarray(values).reshape(-1).astype(np.float64)
    bad = ~np.isfinite(flat)
    if bad.any():
        what = "Nan" if np.isnan(flat[np.argmax(bad)]) else "Infinity"
        raise invalid(ctx, f"{what} in summary histogram for: {ctx.name}")
    summary = summary_pb2.Summary()
    summary.value.add(tag=_text(tag), histo=histogram_proto(flat))
    return _serialized(summary)


def _float_image_to_uint8(image, bad_color):
    """TensorFlow's NormalizeFloatImage: scale into [0, 255], non-finite pixels bad_color."""
    dtype = image.dtype
    finite = np.isfinite(image).all(axis=-1)
    good = image[finite].astype(np.float32)
    low = good.min() if good.size else np.float32(np.inf)
    high = good.max() if good.size else np.float32(-np.inf)
    if low < 0:
        max_val = max(abs(low), abs(high))
        scale = dtype.type(0.0 if max_val < 1e-6 else np.float32(127.0) / max_val)
        offset = dtype.type(128.0)
    else:
        scale = dtype.type(0.0 if high < 1e-6 else np.float32(255.0) / high)
        offset = dtype.type(0.0)
    with np.errstate(invalid="ignore"):
        out = (image * scale + offset).astype(np.uint8)
    out[~finite] = bad_color[: image.shape[-1]]
    return out


@register("ImageSummary")
def image_summary(ctx, tag, tensor):
    tensor = np.asarray(tensor)
    if tensor.ndim != 4 or tensor.shape[-1] not in (1, 3, 4):
        raise invalid(ctx, "Tensor must be 4-D with last dim 1, 3, or 4, not "
                           f"[{','.join(str(d) for d in tensor.shape)}]")
    limit = ctx.attr("max_images", 3)
    bad_color = np.asarray(ctx.attr("bad_color"), dtype=np.uint8).reshape(-1)
    summary, tag = summary_pb2.Summary(), _text(tag)
    batch, height, width, depth = tensor.shape
    for i in range(min(limit, batch)):
        image = tensor[i]
        if image.dtype != np.uint8:
            image = _float_image_to_uint8(image, bad_color)
        value = summary.value.add(tag=_numbered(tag, "image", i, limit))
        value.image.height, value.image.width, value.image.colorspace = height, width, depth
        value.image.encoded_image_string = png_bytes(image)
    return _serialized(summary)


@register("AudioSummaryV2")
def audio_summary(ctx, tag, tensor, sample_rate):
    tensor = np.asarray(tensor, dtype=np.float32)
    if tensor.ndim not in (2, 3):
        raise invalid(ctx, "sample_rate must be a scalar"
                      if np.ndim(sample_rate) else "Tensor must be 3-D or 2-D, got: "
                      f"[{','.join(str(d) for d in tensor.shape)}]")
    if tensor.ndim == 2:
        tensor = tensor[:, :, None]
    limit = ctx.attr("max_outputs", 3)
    rate = float(np.asarray(sample_rate))
    summary, tag = summary_pb2.Summary(), _text(tag)
    for i in range(min(limit, tensor.shape[0])):
        value = summary.value.add(tag=_numbered(tag, "audio", i, limit))
        value.audio.sample_rate = rate
        value.audio.num_channels = tensor.shape[2]
        value.audio.length_frames = tensor.shape[1]
        value.audio.content_type = "audio/wav"
        value.audio.encoded_audio_string = wav_bytes(tensor[i], rate)
    return _serialized(summary)


@register("TensorSummaryV2")
def tensor_summary_v2(ctx, tag, tensor, serialized_summary_metadata):
    from engine.tensor_util import make_tensor_proto
    summary = summary_pb2.Summary()
    value = summary.value.add(tag=_text(tag))
    value.metadata.ParseFromString(bytes(np.asarray(serialized_summary_metadata,
                                                    dtype=object).item()))
    value.tensor.CopyFrom(make_tensor_proto(np.asarray(tensor)))
    return _serialized(summary)
