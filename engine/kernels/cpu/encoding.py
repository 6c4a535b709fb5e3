"""CPU kernels of tf.io's encodings: EncodeBase64, DecodeBase64 (base64_ops.cc, tsl's
base64.cc), DecodeCompressed (decode_compressed_op.cc), SerializeTensor and ParseTensor
(parse_tensor_op.cc), DecodeJSONExample (decode_json_example_op.cc); their errors in
TensorFlow's words (tests/fixtures/encoding/encoding.json).

Base64 is the web-safe alphabet (`-` and `_`), padded with `=` only when asked; decoding
takes either form and ignores the unused bits of the last character, as TensorFlow does.
"""

import base64
import json
import re
import zlib

import numpy as np
from google.protobuf import json_format, text_format
from google.protobuf.message import DecodeError

from engine.framework import dtypes, varint
from engine.framework.errors import DataLossError
from engine.framework.tensor_util import MakeNdarray
from engine.kernels import register
from engine.kernels.common import datatype_string, invalid, shape_str
from engine.proto import example_pb2, tensor_pb2

_WEB_SAFE = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_SIX_BITS = {code: value for value, code in enumerate(_WEB_SAFE)}


def _bytes(value):
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def _map_strings(values, fn):
    values = np.asarray(values, dtype=object)
    out = np.empty(values.shape, dtype=object)
    for index, value in np.ndenumerate(values):
        out[index] = fn(_bytes(value))
    return out


@register("EncodeBase64")
def encode_base64(ctx, values):
    pad = ctx.attr("pad", False)
    return _map_strings(values, lambda data: base64.urlsafe_b64encode(data) if pad
                        else base64.urlsafe_b64encode(data).rstrip(b"="))


def _decode_four(ctx, codes):
    packed = 0
    for code in codes:
        value = _SIX_BITS.get(code)
        if value is None:
            raise invalid(ctx, "Invalid character found in base64.")
        packed = (packed << 6) | value
    return packed.to_bytes(3, "big")


def _base64_decode(ctx, data):
    """tsl::Base64Decode: blocks of four; a final block may end in one or two `=`."""
    if not data:
        return b""
    out = []
    at, end = 0, len(data)
    while end - at > 4:
        out.append(_decode_four(ctx, data[at:at + 4]))
        at += 4
    if end - at == 4:
        if data[at + 2:at + 4] == b"==":
            end -= 2
        elif data[at + 3:at + 4] == b"=":
            end -= 1
    remain = end - at
    if remain == 1:
        raise invalid(ctx, "Base64 string length cannot be 1 modulo 4.")
    tail = data[at:end] + b"A" * (4 - remain)
    out.append(_decode_four(ctx, tail)[:remain - 1])
    return b"".join(out)


@register("DecodeBase64")
def decode_base64(ctx, values):
    return _map_strings(values, lambda data: _base64_decode(ctx, data))


_WINDOW_BITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": zlib.MAX_WBITS + 16}
_ZLIB_ERROR = re.compile(r"Error (-?\d+) while (?:decompressing data|preparing to decompress "
                         r"data): (.*)")


def _inflate(ctx, data, window_bits):
    """What zlib's inflate gives of `data`, as TensorFlow's ZlibInputStream reads it to its
    end: a stream cut short gives what it held; after a GZIP member another may follow (a
    ZLIB stream's end is the end)."""
    out = []
    try:
        while True:
            stream = zlib.decompressobj(window_bits)
            out.append(stream.decompress(data) + stream.flush())
            if not (window_bits == _WINDOW_BITS["GZIP"] and stream.eof and stream.unused_data):
                return b"".join(out)
            data = stream.unused_data
    except zlib.error as error:
        found = _ZLIB_ERROR.match(str(error))
        words = f"inflate() failed with error {found[1]}: {found[2]}" if found else str(error)
        raise DataLossError(ctx.node_def, None, words) from None


@register("DecodeCompressed")
def decode_compressed(ctx, values):
    kind = ctx.attr("compression_type", b"")
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind not in ("", "ZLIB", "GZIP", "ZSTD"):
        raise invalid(ctx, "Only ZLIB, ZSTD, GZIP or NONE are supported compressions")
    if kind == "":
        return _map_strings(values, lambda data: data)
    if kind == "ZSTD":
        raise invalid(ctx, "ZSTD decompression is not supported by the engine yet")
    return _map_strings(values, lambda data: _inflate(ctx, data, _WINDOW_BITS[kind]))


@register("SerializeTensor")
def serialize_tensor(ctx, tensor):
    """The TensorProto TensorFlow writes: dtype, shape, then the raw little-endian bytes
    (AsProtoTensorContent), or one string_val per element of a string tensor (AsProtoField)."""
    dtype = dtypes.as_dtype(ctx.attr("T"))
    values = np.asarray(tensor, dtype=object if dtype == dtypes.string else None)
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for size in values.shape:
        proto.tensor_shape.dim.add(size=size)
    if dtype == dtypes.string:
        proto.string_val.extend(_bytes(v) for v in values.ravel().tolist())
    else:
        data = np.ascontiguousarray(values, dtype=dtype.as_numpy_dtype)
        proto.tensor_content = data.astype(data.dtype.newbyteorder("<"), copy=False).tobytes()
    return np.array(proto.SerializeToString(), dtype=object)


def _valid_tensor_proto(proto):
    """Whether Tensor::FromProto would take `proto`: a known dtype, dims of zero or more, and
    tensor_content (when set) of exactly the shape's bytes."""
    try:
        dtype = dtypes.as_dtype(proto.dtype)
        numpy_dtype = dtype.as_numpy_dtype
    except (TypeError, KeyError, ValueError):
        return False
    if proto.dtype == 0 or dtype._is_ref_dtype or dtype in (dtypes.resource, dtypes.variant):
        return False
    sizes = [dim.size for dim in proto.tensor_shape.dim]
    if proto.tensor_shape.unknown_rank or any(size < 0 for size in sizes):
        return False
    if proto.tensor_content and dtype != dtypes.string:
        count = int(np.prod(sizes, dtype=np.int64))
        return len(proto.tensor_content) == count * np.dtype(numpy_dtype).itemsize
    return True


@register("ParseTensor")
def parse_tensor(ctx, serialized):
    serialized = np.asarray(serialized, dtype=object)
    if serialized.ndim != 0:
        raise invalid(ctx, "Expected `serialized` to be a scalar, got shape: "
                           f"{shape_str(serialized.shape)}")
    data = _bytes(serialized.item())
    try:
        proto = tensor_pb2.TensorProto.FromString(data)
    except DecodeError:
        raise invalid(ctx, "Could not parse `serialized` as TensorProto, base64: "
                           + base64.b64encode(data).decode()) from None
    if not _valid_tensor_proto(proto):
        raise invalid(ctx, "Cannot parse tensor from proto: " + text_format.MessageToString(proto))
    value = MakeNdarray(proto)
    parsed, wanted = dtypes.as_dtype(proto.dtype), dtypes.as_dtype(ctx.attr("out_type"))
    if parsed != wanted:
        raise invalid(ctx, f"Type mismatch between parsed tensor ({datatype_string(parsed)}) "
                           f"and dtype ({datatype_string(wanted)})")
    return value


_varint = varint.encode


def _field(number, payload):
    """A length-delimited field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _feature_bytes(feature):
    """A Feature as protobuf's JSON stream writer emits it: repeated numbers unpacked."""
    kind = feature.WhichOneof("kind")
    if kind == "bytes_list":
        return _field(1, b"".join(_field(1, v) for v in feature.bytes_list.value))
    if kind == "float_list":
        return _field(2, b"".join(b"\x0d" + np.float32(v).tobytes()
                                  for v in feature.float_list.value))
    if kind == "int64_list":
        return _field(3, b"".join(b"\x08" + _varint(v) for v in feature.int64_list.value))
    return b""


def _json_to_example(ctx, text):
    """The Example of a JSON text, serialized as TensorFlow's JsonToBinaryString writes it:
    fields as the JSON gives them (features in their JSON order), numbers unpacked."""
    example = example_pb2.Example()
    text = text.decode("utf-8", "replace")
    try:
        json_format.Parse(text, example)
    except json_format.ParseError as error:
        words = " ".join(str(error).split())
        raise invalid(ctx, f"Error while parsing JSON: {words}") from None
    tree = json.loads(text, object_pairs_hook=lambda pairs: pairs)
    features = dict(tree).get("features") if isinstance(tree, list) else None
    if features is None:
        return b""
    entries = []
    for key, _ in dict(features).get("feature") or []:
        value = _feature_bytes(example.features.feature[key])
        entries.append(_field(1, _field(1, key.encode("utf-8")) + _field(2, value)))
    return _field(1, b"".join(entries))


@register("DecodeJSONExample")
def decode_json_example(ctx, values):
    return _map_strings(values, lambda text: _json_to_example(ctx, text))
