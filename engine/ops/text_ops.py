"""tf.string_split, tf.strings.split, tf.substr (tf.strings.substr), tf.as_string
(tf.strings.as_string) and tf.string_to_number (tf.strings.to_number) as TF 1.x builds them."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op


def _sparse(indices, values, shape):
    indices.set_shape([None, 2])
    values.set_shape([None])
    shape.set_shape([2])
    return SparseTensor(indices, values, shape)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor",
                 name=None):
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'SparseTensor': the engine has no RaggedTensor")
    with name_scope(name, "StringSplit", [source]):
        delimiter = deprecated_argument_lookup("sep", sep, "delimiter", delimiter)
        if delimiter is None:
            delimiter = " "
        delimiter = convert_to_tensor(delimiter, dtype=dtypes.string)
        source = convert_to_tensor(source, dtype=dtypes.string)
        return _sparse(*apply_op("StringSplit", input=source, delimiter=delimiter,
                                 skip_empty=skip_empty))


def strings_split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor",  # noqa: A002
                  source=None, name=None):
    """tf.strings.split as tf.compat.v1 has it: a SparseTensor of a vector's tokens."""
    input = deprecated_argument_lookup("input", input, "source", source)  # noqa: A001
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'SparseTensor': the engine has no RaggedTensor")
    with name_scope(name, "StringSplit", [input]):
        input = convert_to_tensor(input, dtype=dtypes.string, name="input")  # noqa: A001
        if input.shape.ndims == 0:
            input = array_ops.expand_dims(input, 0)  # noqa: A001
        if input.shape.ndims not in (None, 1):
            raise ValueError("tf.strings.split of a tensor of rank > 1 gives a RaggedTensor, "
                             "which the engine does not have")
        if sep is None:
            sep = ""
        sep = convert_to_tensor(sep, dtype=dtypes.string)
        source = convert_to_tensor(input, dtype=dtypes.string)
        return _sparse(*apply_op("StringSplitV2", input=source, sep=sep, maxsplit=maxsplit))


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
