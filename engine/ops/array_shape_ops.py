"""Small array and shape API of TF 1.x: tf.ensure_shape, parallel_stack, guarantee_const,
timestamp, fingerprint, count_up_to, edit_distance, and the tensor predicates and converters
(is_tensor, is_numeric_tensor, get_static_value, dimension_value, dimension_at_index,
convert_to_tensor_or_indexed_slices, convert_to_tensor_or_sparse_tensor)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import Dimension, TensorShape
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.proto import types_pb2

# TensorFlow's tensor_util NUMERIC_TYPES: is_numeric_tensor's dtypes (no ref dtypes).
NUMERIC_TYPES = frozenset([
    dtypes.float16, dtypes.float32, dtypes.float64, dtypes.bfloat16, dtypes.int8, dtypes.int16,
    dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64,
    dtypes.qint8, dtypes.DType(types_pb2.DT_QINT16), dtypes.qint32, dtypes.quint8,
    dtypes.DType(types_pb2.DT_QUINT16), dtypes.complex64, dtypes.complex128])


def ensure_shape(x, shape, name=None):
    """x, checked when run to have a shape compatible with `shape` (and given it statically)."""
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    return apply_op("EnsureShape", input=x, shape=shape, name=name)


def parallel_stack(values, name="parallel_stack"):
    """tf.stack along a new first axis through ParallelConcat; every shape fully known."""
    with name_scope(name):
        value_shape = convert_to_tensor(values[0]).get_shape()
        output_shape = TensorShape([len(values)]).concatenate(value_shape)
        return apply_op("ParallelConcat",
                        values=[array_ops.expand_dims(value, 0) for value in values],
                        shape=output_shape)


def guarantee_const(input, name=None):  # noqa: A002
    return apply_op("GuaranteeConst", input=input, name=name)


def timestamp(name=None):
    """The time the op runs, in seconds since the epoch (float64)."""
    return apply_op("Timestamp", name=name)


def fingerprint(data, method="farmhash64", name=None):
    """[rows, 8] uint8: the FarmHash Fingerprint64 of each row (first dimension) of `data`."""
    return apply_op("Fingerprint", data=data, method=method, name=name)


def count_up_to(ref, limit, name=None):
    """The variable's value, then the variable incremented; OutOfRangeError at `limit`
    (CountUpTo of a ref variable, ResourceCountUpTo of a resource variable's handle)."""
    if ref.dtype._is_ref_dtype:
        return apply_op("CountUpTo", ref=ref, limit=limit, name=name)
    return apply_op("ResourceCountUpTo", resource=ref.handle, limit=limit, T=ref.dtype,
                    name=name)


def _is_variable(x):
    from engine.ops.variables import Variable
    return isinstance(x, Variable)


def is_tensor(x):
    """True for the engine's tensor-likes: Tensor, SparseTensor, IndexedSlices, Variable."""
    return isinstance(x, (Tensor, SparseTensor, IndexedSlices)) or _is_variable(x)


def is_numeric_tensor(tensor):
    return isinstance(tensor, Tensor) and tensor.dtype in NUMERIC_TYPES


def get_static_value(tensor, partial=False):
    """The value of `tensor` where it is known while building the graph, else None; a value
    that is no tensor as it is."""
    if not is_tensor(tensor):
        return tensor
    if not isinstance(tensor, Tensor):
        return None
    return constant_value(tensor, partial=partial)


def dimension_value(dimension):
    return dimension.value if isinstance(dimension, Dimension) else dimension


def dimension_at_index(shape, index):
    assert isinstance(shape, TensorShape)
    return Dimension(None) if shape.ndims is None else shape.dims[index]


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    if isinstance(value, (IndexedSlices, SparseTensor)):
        if dtype and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(
                "Incompatible tensor conversion requested to `dtype` "
                f"{dtypes.as_dtype(dtype).name} for `value` ({value}) with dtype "
                f"{value.dtype.name}.")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor(value.indices, value.values, value.dense_shape)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError(f"Sparse dtype mismatch. Requested: {dtype.name},  "
                               f"Actual: {value.dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between the sequences (the last dimension) of two
    SparseTensors, per index of the others; divided by the truth's length where `normalize`."""
    if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, (SparseTensor, SparseTensorValue)):
        raise TypeError("Truth must be a SparseTensor.")
    return apply_op("EditDistance", hypothesis_indices=hypothesis.indices,
                    hypothesis_values=hypothesis.values, hypothesis_shape=hypothesis.dense_shape,
                    truth_indices=truth.indices, truth_values=truth.values,
                    truth_shape=truth.dense_shape, normalize=normalize, name=name)
