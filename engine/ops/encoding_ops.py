"""tf.io's encodings as TF 1.x builds them (gen_string_ops, gen_parsing_ops, io_ops.py): one
op each, named as the op: encode_base64, decode_base64, decode_compressed, serialize_tensor,
parse_tensor and decode_json_example (also top-level names in TF 1.x)."""

from engine.framework import dtypes
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op


def encode_base64(input, pad=False, name=None):  # noqa: A002  (TensorFlow's argument name)
    """Web-safe base64 of each string, `=`-padded when `pad`."""
    return apply_op("EncodeBase64", input=input, pad=pad, name=name)


def decode_base64(input, name=None):  # noqa: A002
    """Each web-safe base64 string (padded or not) decoded."""
    return apply_op("DecodeBase64", input=input, name=name)


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002
    """Each string inflated as ZLIB or GZIP data, or as it is for ""."""
    return apply_op("DecodeCompressed", bytes=bytes, compression_type=compression_type,
                    name=name)


def serialize_tensor(tensor, name=None):
    """A scalar string: the TensorProto of `tensor`, serialized."""
    return apply_op("SerializeTensor", tensor=tensor, name=name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized TensorProto holds; its dtype must be `out_type`."""
    return apply_op("ParseTensor", serialized=serialized, out_type=dtypes.as_dtype(out_type),
                    name=name)


def decode_json_example(json_examples, name=None):
    """Each JSON text of a tf.train.Example as the Example's binary serialization."""
    return apply_op("DecodeJSONExample", json_examples=json_examples, name=name)


for _op in ("EncodeBase64", "DecodeBase64", "ParseTensor", "SerializeTensor"):
    NotDifferentiable(_op)
