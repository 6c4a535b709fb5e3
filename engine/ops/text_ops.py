"""tf.strings.ngrams, tf.string_split, tf.strings.split (SparseTensor or RaggedTensor
results), tf.substr (tf.strings.substr), tf.as_string (tf.strings.as_string),
tf.string_to_number (tf.strings.to_number), tf.reduce_join, tf.regex_replace, tf.string_strip
and tf.strings' length, lower, upper and regex_full_match as TF 1.x builds them."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, math_ops, shape_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.ragged_ops import convert_to_tensor_or_ragged_tensor
from engine.ops.ragged.ragged_tensor import RaggedTensor


def _sparse(indices, values, shape):
    indices.set_shape([None, 2])
    values.set_shape([None])
    shape.set_shape([2])
    return SparseTensor(indices, values, shape)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor",
                 name=None):
    """tf.string_split: a vector's tokens as a SparseTensor, or as a RaggedTensor."""
    with name_scope(name, "StringSplit", [source]):
        sparse_result = _string_split_sparse(source, sep=sep, skip_empty=skip_empty,
                                             delimiter=delimiter)
        if result_type == "SparseTensor":
            return sparse_result
        if result_type == "RaggedTensor":
            return RaggedTensor.from_value_rowids(
                values=sparse_result.values, value_rowids=sparse_result.indices[:, 0],
                nrows=sparse_result.dense_shape[0], validate=False)
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def _string_split_sparse(source, sep=None, skip_empty=True, delimiter=None):
    """string_ops.string_split: the StringSplit op in the caller's scope."""
    delimiter = deprecated_argument_lookup("sep", sep, "delimiter", delimiter)
    if delimiter is None:
        delimiter = " "
    delimiter = convert_to_tensor(delimiter, dtype=dtypes.string)
    source = convert_to_tensor(source, dtype=dtypes.string)
    return _sparse(*apply_op("StringSplit", input=source, delimiter=delimiter,
                             skip_empty=skip_empty))


def _string_split_v2_sparse(source, sep=None, maxsplit=-1):
    if sep is None:
        sep = ""
    sep = convert_to_tensor(sep, dtype=dtypes.string)
    source = convert_to_tensor(source, dtype=dtypes.string)
    return _sparse(*apply_op("StringSplitV2", input=source, sep=sep, maxsplit=maxsplit))


def string_split_v2(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """ragged_string_ops.string_split_v2: each string's tokens as a RaggedTensor row."""
    with name_scope(name, "StringSplit", [input]):
        input = convert_to_tensor_or_ragged_tensor(input, dtype=dtypes.string,  # noqa: A001
                                                   name="input")
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(string_split_v2(input.flat_values, sep, maxsplit))
        rank = input.shape.ndims
        if rank == 0:
            return string_split_v2(array_ops.stack([input]), sep, maxsplit)[0]
        if rank == 1 or rank is None:
            sparse_result = _string_split_v2_sparse(input, sep=sep, maxsplit=maxsplit)
            return RaggedTensor.from_value_rowids(
                values=sparse_result.values, value_rowids=sparse_result.indices[:, 0],
                nrows=sparse_result.dense_shape[0], validate=False)
        return string_split_v2(RaggedTensor.from_tensor(input), sep, maxsplit)


def strings_split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor",  # noqa: A002
                  source=None, name=None):
    """tf.strings.split as tf.compat.v1 has it: each string's tokens as a SparseTensor (rank
    one more than the input's) or a RaggedTensor."""
    input = deprecated_argument_lookup("input", input, "source", source)  # noqa: A001
    with name_scope(name, "StringSplit", [input]):
        input = convert_to_tensor_or_ragged_tensor(input, dtype=dtypes.string,  # noqa: A001
                                                   name="input")
        if input.shape.rank == 0:
            input = array_ops.expand_dims(input, 0)  # noqa: A001
        if result_type == "SparseTensor":
            if input.shape.rank == 1:
                return _string_split_v2_sparse(input, sep=sep, maxsplit=maxsplit)
            return string_split_v2(input, sep=sep, maxsplit=maxsplit).to_sparse()
        if result_type == "RaggedTensor":
            return string_split_v2(input, sep=sep, maxsplit=maxsplit)
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002
    return apply_op("Substr", input=input, pos=pos, len=len, unit=unit, name=name)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
              fill="", name=None):
    return apply_op("AsString", input=input, precision=precision, scientific=scientific,
                    shortest=shortest, width=width, fill=fill, name=name)


def string_to_number(string_tensor=None, out_type=dtypes.float32, name=None, input=None):  # noqa: A002
    string_tensor = deprecated_argument_lookup("input", input, "string_tensor", string_tensor)
    return apply_op("StringToNumber", string_tensor=string_tensor,
                    out_type=dtypes.as_dtype(out_type), name=name)


for _op in ("StringSplit", "AsString", "StringToNumber"):
    NotDifferentiable(_op)


def _reduce_join_reduction_dims(x, axis):
    """`axis`, or every axis from the last to the first (joining in row-major order)."""
    if axis is not None:
        return axis
    if x.shape.ndims is not None:
        return convert_to_tensor(np.arange(x.shape.ndims - 1, -1, -1, dtype=np.int32),
                                 dtypes.int32)
    return math_ops.range(array_ops.rank(x) - 1, -1, -1)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
    """tf.reduce_join (tf.strings.reduce_join): strings joined along `axis` (all by default)."""
    keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    with name_scope(None, "ReduceJoin", [inputs, axis]):
        inputs = convert_to_tensor(inputs)
        axis = _reduce_join_reduction_dims(inputs, axis)
        return apply_op("ReduceJoin", inputs=inputs, reduction_indices=axis,
                        keep_dims=bool(keepdims), separator=separator, name=name)


def string_length(input, name=None, unit="BYTE"):  # noqa: A002
    return apply_op("StringLength", input=input, unit=unit, name=name)


def string_lower(input, encoding="", name=None):  # noqa: A002
    return apply_op("StringLower", input=input, encoding=encoding, name=name)


def string_upper(input, encoding="", name=None):  # noqa: A002
    return apply_op("StringUpper", input=input, encoding=encoding, name=name)


def string_strip(input, name=None):  # noqa: A002
    return apply_op("StringStrip", input=input, name=name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """A constant pattern and rewrite make StaticRegexReplace, tensors RegexReplace."""
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return apply_op("StaticRegexReplace", input=input, pattern=pattern, rewrite=rewrite,
                        replace_global=replace_global, name=name)
    return apply_op("RegexReplace", input=input, pattern=pattern, rewrite=rewrite,
                    replace_global=replace_global, name=name)


def regex_full_match(input, pattern, name=None):  # noqa: A002
    if isinstance(pattern, (str, bytes)):
        return apply_op("StaticRegexFullMatch", input=input, pattern=pattern, name=name)
    return apply_op("RegexFullMatch", input=input, pattern=pattern, name=name)


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    return apply_op("StringToHashBucketFast", input=input, num_buckets=num_buckets, name=name)


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    return apply_op("StringToHashBucketStrong", input=input, num_buckets=num_buckets, key=key,
                    name=name)


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None,
                          input=None):  # noqa: A002
    string_tensor = deprecated_argument_lookup("input", input, "string_tensor", string_tensor)
    return apply_op("StringToHashBucket", string_tensor=string_tensor, num_buckets=num_buckets,
                    name=name)


for _op in ("ReduceJoin", "RegexReplace", "StringToHashBucketFast", "StringToHashBucketStrong",
            "StringToHashBucket"):
    NotDifferentiable(_op)


def _ngram_pads(pad_values, padding_width):
    if pad_values is None:
        left_pad = right_pad = ""
    elif isinstance(pad_values, (list, tuple)):
        if not all(isinstance(v, (bytes, str)) for v in pad_values[:2]):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        left_pad, right_pad = pad_values[0], pad_values[1]
    elif isinstance(pad_values, (bytes, str)):
        left_pad = right_pad = pad_values
    else:
        raise TypeError("pad_values must be a string, tuple of strings, or None.")
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    return left_pad, right_pad


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """tf.strings.ngrams: the n-grams along the innermost dimension; a dense tensor's as a
    dense tensor (a vector's as a vector), a RaggedTensor's as a RaggedTensor."""
    with name_scope(name, "StringNGrams", [data]):
        left_pad, right_pad = _ngram_pads(pad_values, padding_width)
        data = convert_to_tensor_or_ragged_tensor(data, name="data", dtype=dtypes.string)
        to_tensor = False
        if not isinstance(data, RaggedTensor):
            dense_shape = array_ops.concat([shape_ops.shape(data)[:-1], [-1]], axis=0)
            to_tensor = True
            if data.shape.ndims is None:
                raise ValueError("Rank of data must be known.")
            if data.shape.ndims == 0:
                raise ValueError("Data must have rank>0")
            if data.shape.ndims == 1:
                rt = RaggedTensor.from_row_starts(data, [0], validate=False)
                return ngrams(rt, ngram_width, separator, pad_values, padding_width,
                              preserve_short_sequences, name)[0]
            data = RaggedTensor.from_tensor(data, ragged_rank=data.shape.ndims - 1)
        if data.ragged_rank > 1:
            output = data.with_values(ngrams(data.values, ngram_width, separator, pad_values,
                                             padding_width, preserve_short_sequences, name))
            return array_ops.reshape(output.flat_values, dense_shape) if to_tensor else output
        if pad_values is None:
            padding_width = 0
        if pad_values is not None and padding_width is None:
            padding_width = -1
        widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
        for width in widths:
            if width < 1:
                raise ValueError("All ngram_widths must be greater than 0. Got %s" % ngram_width)
        output, output_splits = apply_op(
            "StringNGrams", data=data.flat_values, data_splits=data.row_splits,
            separator=separator, ngram_widths=widths, left_pad=left_pad, right_pad=right_pad,
            pad_width=padding_width, preserve_short_sequences=preserve_short_sequences)
        output = RaggedTensor.from_row_splits(values=output, row_splits=output_splits,
                                              validate=False)
        return array_ops.reshape(output.flat_values, dense_shape) if to_tensor else output