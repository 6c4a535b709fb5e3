"""tf.strings' Unicode ops on dense tensors as TF 1.x builds them (gen_string_ops,
ragged_string_ops.py): unicode_script, unicode_transcode, unicode_encode,
unsorted_segment_join, and of a scalar string (a dense vector in TensorFlow too)
unicode_decode, unicode_split, their _with_offsets forms and bytes_split. Of a tensor of rank 1
or more these give a RaggedTensor, which the engine does not have: a ValueError says so.

unicode_encode of a dense tensor takes its last dimension as the characters of each string:
TensorFlow views the tensor as a RaggedTensor of uniform rows (RaggedFromTensor) and hands
the UnicodeEncode op its values and row splits; the engine builds the same splits without
the RaggedTensor (other node names, the same UnicodeEncode node).
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape


def unicode_script(input, name=None):  # noqa: A002  (TensorFlow's argument name)
    """ICU's script code (UScriptCode) of each int32 code point; -1 for an invalid one."""
    return apply_op("UnicodeScript", input=input, name=name)


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string decoded from `input_encoding` and encoded in `output_encoding`."""
    return apply_op("UnicodeTranscode", input=input, input_encoding=input_encoding,
                    output_encoding=output_encoding, errors=errors,
                    replacement_char=replacement_char,
                    replace_control_characters=replace_control_characters, name=name)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """The strings of each segment joined with `separator`, in the order they come."""
    return apply_op("UnsortedSegmentJoin", inputs=inputs, segment_ids=segment_ids,
                    num_segments=num_segments, separator=separator, name=name)


def _encode_op(values, splits, output_encoding, errors, replacement_char):
    with name_scope(None, "UnicodeEncode", [values, splits]):
        return apply_op("UnicodeEncode", input_values=values, input_splits=splits,
                        output_encoding=output_encoding, errors=errors,
                        replacement_char=replacement_char)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """The code points along the last dimension of `input` encoded as one string each: a
    vector gives a scalar, a [d0, ..., dn, k] tensor a [d0, ..., dn] one."""
    with name_scope(name, "UnicodeEncode", [input]):
        values = convert_to_tensor(input)
        rank = values.shape.ndims
        if rank is None:
            raise ValueError("Rank of input_tensor must be statically known.")
        if rank == 0:
            raise ValueError("input_tensor's rank must be at least 1.")
        if rank == 1:
            splits = array_ops.stack([0, _shape(values, out_type=dtypes.int32)[0]])
            encoded = _encode_op(values, splits, output_encoding, errors, replacement_char)
            return array_ops.reshape(encoded, [])
        dims = _shape(values, out_type=dtypes.int64)
        width = dims[-1]
        rows = math_ops.reduce_prod(dims[:-1])
        splits = math_ops.range(rows + 1, dtype=dtypes.int64) * width
        encoded = _encode_op(array_ops.reshape(values, [-1]), splits, output_encoding, errors,
                             replacement_char)
        if rank == 2:  # one string a row already, as TensorFlow's RaggedTensor path gives
            encoded.set_shape(values.shape[:-1])
            return encoded
        result = array_ops.reshape(encoded, dims[:-1])
        result.set_shape(values.shape[:-1])
        return result


def _scalar_only(api, tensor):
    rank = tensor.shape.ndims
    if rank is None:
        raise ValueError("Rank of `input` must be statically known.")
    if rank > 0:
        raise ValueError(f"tf.strings.{api} of a tensor of rank {rank} gives a RaggedTensor, "
                         "which the engine does not have (a scalar string gives a Tensor)")


def _decode_scalar(api, input, input_encoding, errors, replacement_char,  # noqa: A002
                   replace_control_characters, with_offsets):
    """TensorFlow's _unicode_decode of a scalar: the string as a vector of one, decoded."""
    values = convert_to_tensor(input, name="input")
    _scalar_only(api, values)
    op = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    outputs = apply_op(op, input=array_ops.reshape(values, [-1]), input_encoding=input_encoding,
                       errors=errors, replacement_char=replacement_char,
                       replace_control_characters=replace_control_characters)
    return (outputs[1], outputs[2]) if with_offsets else outputs[1]


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The code points (int32) of a scalar string in `input_encoding`."""
    with name_scope(name, "UnicodeDecode", [input]):
        return _decode_scalar("unicode_decode", input, input_encoding, errors,
                              replacement_char, replace_control_characters, False)


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, the byte offset in the string where each starts) of a scalar string."""
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _decode_scalar("unicode_decode_with_offsets", input, input_encoding, errors,
                              replacement_char, replace_control_characters, True)


def _split(api, input, input_encoding, errors, replacement_char, with_offsets):  # noqa: A002
    decoded = _decode_scalar(api, input, input_encoding, errors, replacement_char, False,
                             with_offsets)
    code_points = decoded[0] if with_offsets else decoded
    with name_scope(None, "RaggedExpandDims", [code_points]):
        columns = array_ops.expand_dims(code_points, -1)
    chars = unicode_encode(columns, output_encoding=input_encoding, errors=errors,
                           replacement_char=replacement_char)
    return (chars, decoded[1]) if with_offsets else chars


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """The characters of a scalar string, each encoded as a string of its own."""
    with name_scope(name, "UnicodeSplit", [input]):
        return _split("unicode_split", input, input_encoding, errors, replacement_char, False)


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """(the characters of a scalar string, the byte offset where each starts)."""
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        return _split("unicode_split_with_offsets", input, input_encoding, errors,
                      replacement_char, True)


def bytes_split(input, name=None):  # noqa: A002
    """The bytes of a scalar string, each a string of one byte."""
    with name_scope(name, "StringsByteSplit", [input]):
        values = convert_to_tensor(input, name="input", dtype=dtypes.string)
        rank = values.shape.ndims
        if rank is None:
            raise ValueError("input must have a statically-known rank.")
        _scalar_only("bytes_split", values)
        stacked = array_ops.stack([values])
        with name_scope(None, "StringsByteSplit", [stacked]):
            _, pieces, _ = apply_op("StringSplit", input=stacked, delimiter="",
                                    skip_empty=False)
        pieces.set_shape([None])
        return pieces
