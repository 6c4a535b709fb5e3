"""NumPy CPU kernels of the summary ops (scalar, merge, histogram, image, audio, tensor):
serialized Summary protos, as TensorFlow's summary kernels write them (a 0-d string tensor)."""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.proto import summary_pb2
from engine.kernels.cpu import png_codec
from engine.summary.encoders import wav_bytes
from engine.summary.histogram_buckets import histogram_proto
from engine.framework.tensor_util import make_tensor_proto


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


def _tag_text(value):
    value = np.asarray(value, dtype=object).item()
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


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
    summary.value.add(tag=_tag_text(tag), histo=histogram_proto(flat))
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
    summary, tag = summary_pb2.Summary(), _tag_text(tag)
    batch, height, width, depth = tensor.shape
    for i in range(min(limit, batch)):
        image = tensor[i]
        if image.dtype != np.uint8:
            image = _float_image_to_uint8(image, bad_color)
        value = summary.value.add(tag=_numbered(tag, "image", i, limit))
        value.image.height, value.image.width, value.image.colorspace = height, width, depth
        # TensorFlow's png::WriteImageToBuffer at compression -1, as EncodePng's
        value.image.encoded_image_string = png_codec.encode(image, -1)
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
    summary, tag = summary_pb2.Summary(), _tag_text(tag)
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
    summary = summary_pb2.Summary()
    value = summary.value.add(tag=_tag_text(tag))
    value.metadata.ParseFromString(bytes(np.asarray(serialized_summary_metadata,
                                                    dtype=object).item()))
    value.tensor.CopyFrom(make_tensor_proto(np.asarray(tensor)))
    return _serialized(summary)
