"""Shape functions of the formatting, encoding and Unicode string ops (TensorFlow's
core/ops/string_ops.cc, logging_ops.cc, parsing_ops.cc)."""

from engine.shape_inference.dims import ShapeError, _dims
from engine.shape_inference.elementwise import scalar, unchanged
from engine.shape_inference.linalg import unsorted_segment


def _text(value):
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value


def string_format(attrs, inputs):
    """A scalar, once the template has a placeholder for every input."""
    from engine.kernels.cpu.string_format import split_template
    pieces = split_template(_text(attrs.get("template", "%s")),
                            _text(attrs.get("placeholder", "%s")))
    if len(pieces) - 1 != len(inputs):
        raise ShapeError("num placeholders in template and num inputs must match: "
                         f"{len(pieces) - 1} vs. {len(inputs)}")
    return []


def print_v2(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is not None and dims != []:
        raise ShapeError(f"input must be a scalar, but has rank: {len(dims)}")
    return ()


def unicode_encode(attrs, inputs):
    """One string per row: [len(input_splits) - 1], the values and splits vectors."""
    values, splits = _dims(inputs[0]), _dims(inputs[1])
    for dims in (values, splits):
        if dims is not None and len(dims) != 1:
            raise ShapeError(f"Shape must be rank 1 but is rank {len(dims)}")
    return [splits[0] - 1 if splits and splits[0] is not None else None]


def unicode_decode(attrs, inputs):
    """Row splits [n + 1] for n strings, then the code points (and offsets) [?]."""
    dims = _dims(inputs[0])
    count = None
    if dims is not None and all(d is not None for d in dims):
        count = 1
        for d in dims:
            count *= d
    return ([None if count is None else count + 1], [None], [None])


SHAPE_FUNCTIONS = {
    "StringFormat": string_format, "PrintV2": print_v2,
    # The encodings (kernels/cpu/encoding.py): string for string, or a scalar's TensorProto.
    **{op: unchanged for op in ("EncodeBase64", "DecodeBase64", "DecodeCompressed",
                                "DecodeJSONExample")},
    "SerializeTensor": scalar, "ParseTensor": lambda attrs, inputs: None,
    # The Unicode ops (kernels/cpu/unicode.py).
    "UnicodeScript": unchanged, "UnicodeTranscode": unchanged, "UnicodeEncode": unicode_encode,
    "UnsortedSegmentJoin": unsorted_segment,
    "StringNGrams": lambda attrs, inputs: ([None], _dims(inputs[1])),
    "UnicodeDecode": unicode_decode, "UnicodeDecodeWithOffsets": unicode_decode,
}
