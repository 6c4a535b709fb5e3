"""tf.strings' Unicode ops as TF 1.x builds them (gen_string_ops, ragged_string_ops.py):
unicode_script, unicode_transcode, unsorted_segment_join, and unicode_encode, unicode_decode,
unicode_split, their _with_offsets forms and bytes_split, which take and give RaggedTensors
(engine/ops/ragged/) where TensorFlow's do: a scalar string decodes to a vector, a tensor of
rank 1 or more to a RaggedTensor with one more (ragged) dimension.
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.ragged_ops import convert_to_tensor_or_ragged_tensor, expand_dims
from engine.ops.ragged.ragged_tensor import RaggedTensor
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


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """The code points along the innermost (ragged or dense) dimension of `input` encoded as
    one string each: a vector gives a scalar, a [d0, ..., dn, k] tensor a [d0, ..., dn] one."""
    with name_scope(name, "UnicodeEncode", [input]):
        return _encode(input, output_encoding, errors, replacement_char)


def _encode(input, output_encoding, errors, replacement_char):  # noqa: A002
    tensor = convert_to_tensor_or_ragged_tensor(input)
    if tensor.shape.ndims is None:
        raise ValueError("Rank of input_tensor must be statically known.")
    if isinstance(tensor, RaggedTensor):
        if tensor.flat_values.shape.ndims > 1:
            return tensor.with_flat_values(unicode_encode(
                tensor.flat_values, output_encoding, errors, replacement_char))
        if tensor.ragged_rank > 1:
            return tensor.with_values(unicode_encode(
                tensor.values, output_encoding, errors, replacement_char))
        return apply_op("UnicodeEncode", input_values=tensor.values,
                        input_splits=tensor.row_splits, output_encoding=output_encoding,
                        errors=errors, replacement_char=replacement_char)
    if tensor.shape.ndims == 2:
        return unicode_encode(RaggedTensor.from_tensor(tensor), output_encoding, errors,
                              replacement_char)
    if tensor.shape.ndims > 2:
        flat = array_ops.reshape(tensor, array_ops.stack([-1, _shape(tensor)[-1]]))
        flat_output = unicode_encode(flat, output_encoding, errors, replacement_char)
        return array_ops.reshape(flat_output, tensor.shape[:-1])
    if tensor.shape.ndims == 0:
        raise ValueError("input_tensor's rank must be at least 1.")
    ragged = RaggedTensor.from_row_splits(
        tensor, array_ops.stack([0, _shape(tensor, out_type=dtypes.int32)[0]]),
        validate=False)
    output = unicode_encode(ragged, output_encoding, errors, replacement_char)
    return array_ops.reshape(output, [])


def _unicode_decode(input, input_encoding, errors, replacement_char,  # noqa: A002
                    replace_control_characters, with_offsets):
    input = convert_to_tensor_or_ragged_tensor(input, name="input")  # noqa: A001
    input_ndims = input.shape.ndims
    if input_ndims is None:
        raise ValueError("Rank of `input` must be statically known.")
    if input_ndims > 1:
        if not isinstance(input, RaggedTensor):
            input = RaggedTensor.from_tensor(input, ragged_rank=input_ndims - 1)  # noqa: A001
        elif input.ragged_rank < input_ndims - 1:
            input = input.with_flat_values(RaggedTensor.from_tensor(  # noqa: A001
                input.flat_values, ragged_rank=input_ndims - input.ragged_rank - 1))
    if isinstance(input, RaggedTensor):
        flat_input = array_ops.reshape(input.flat_values, [-1])
    else:
        flat_input = array_ops.reshape(input, [-1])
    op = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    outputs = apply_op(op, input=flat_input, input_encoding=input_encoding, errors=errors,
                       replacement_char=replacement_char,
                       replace_control_characters=replace_control_characters)
    row_splits, char_values = outputs[0], outputs[1]
    if input_ndims == 0:
        codepoints = char_values
        offsets = outputs[2] if with_offsets else None
    else:
        codepoints = RaggedTensor.from_row_splits(char_values, row_splits, validate=False)
        if input_ndims > 1:
            codepoints = input.with_flat_values(codepoints)
        offsets = None
        if with_offsets:
            offsets = RaggedTensor.from_row_splits(outputs[2], row_splits, validate=False)
            if input_ndims > 1:
                offsets = input.with_flat_values(offsets)
    return (codepoints, offsets) if with_offsets else codepoints


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The code points (int32) of each string in `input_encoding`: a scalar's as a vector,
    a tensor's as a RaggedTensor of one more dimension."""
    with name_scope(name, "UnicodeDecode", [input]):
        return _unicode_decode(input, input_encoding, errors, replacement_char,
                               replace_control_characters, False)


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, the byte offset in the string where each starts)."""
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _unicode_decode(input, input_encoding, errors, replacement_char,
                               replace_control_characters, True)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """The characters of each string, each encoded as a string of its own."""
    with name_scope(name, "UnicodeSplit", [input]):
        codepoints = _unicode_decode(input, input_encoding, errors, replacement_char, False,
                                     with_offsets=False)
        return unicode_encode(expand_dims(codepoints, -1), output_encoding=input_encoding,
                              errors=errors, replacement_char=replacement_char)


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """(the characters of each string, the byte offset where each starts)."""
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        codepoints, offsets = _unicode_decode(input, input_encoding, errors, replacement_char,
                                              False, with_offsets=True)
        chars = unicode_encode(expand_dims(codepoints, -1), output_encoding=input_encoding,
                               errors=errors, replacement_char=replacement_char)
        return chars, offsets


def bytes_split(input, name=None):  # noqa: A002
    """The bytes of each string, each a string of one byte (string_bytes_split)."""
    with name_scope(name, "StringsByteSplit", [input]):
        input = convert_to_tensor_or_ragged_tensor(input, name="input")  # noqa: A001
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(bytes_split(input.flat_values))
        rank = input.shape.ndims
        if rank is None:
            raise ValueError("input must have a statically-known rank.")
        if rank == 0:
            return bytes_split(array_ops.stack([input]))[0]
        if rank == 1:
            indices, values, shape = apply_op("StringSplit", input=input, delimiter="",
                                              skip_empty=False)
            return RaggedTensor.from_value_rowids(values=values, value_rowids=indices[:, 0],
                                                  nrows=shape[0], validate=False)
        return bytes_split(RaggedTensor.from_tensor(input))
