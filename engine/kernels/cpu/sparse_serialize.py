"""NumPy CPU kernels of SerializeSparse, SerializeManySparse and DeserializeManySparse: a
SparseTensor's three parts as serialized TensorProtos, the bytes TensorFlow's
AsProtoTensorContent writes (dtype, shape, tensor_content; strings as varint lengths then
their bytes), and back (serialize_sparse_op.cc, deserialize_sparse_string_op.cc)."""

import numpy as np

from engine.framework import dtypes, varint
from engine.kernels import register
from engine.kernels.common import datatype_string, invalid
from engine.kernels.cpu.sparse import _shape
from engine.proto import tensor_pb2


_varint = varint.encode


_read_varint = varint.decode  # (a VarintError is a ValueError)


def tensor_proto_bytes(array):
    """`array` as TensorFlow's Tensor::AsProtoTensorContent serializes it."""
    proto = tensor_pb2.TensorProto()
    dtype = dtypes.as_dtype(array.dtype if array.dtype != object else dtypes.string)
    proto.dtype = dtype.as_datatype_enum
    for size in array.shape:
        proto.tensor_shape.dim.add().size = size
    if array.dtype == object:
        items = [bytes(v) if not isinstance(v, str) else v.encode() for v in array.ravel()]
        if items:
            proto.tensor_content = (b"".join(_varint(len(v)) for v in items)
                                    + b"".join(items))
    elif array.size:
        proto.tensor_content = np.ascontiguousarray(array).astype(
            array.dtype.newbyteorder("<")).tobytes()
    return proto.SerializeToString()


def _tensor_from_proto(data):
    proto = tensor_pb2.TensorProto()
    proto.ParseFromString(data)
    dtype = dtypes.as_dtype(proto.dtype)
    shape = [d.size for d in proto.tensor_shape.dim]
    count = int(np.prod(shape))
    if dtype == dtypes.string:
        content, at, lengths = proto.tensor_content, 0, []
        if proto.string_val:
            items = list(proto.string_val)
        else:
            for _ in range(count):
                length, at = _read_varint(content, at)
                lengths.append(length)
            items = []
            for length in lengths:
                items.append(content[at:at + length])
                at += length
        array = np.empty(count, object)
        array[:] = items
        return dtype, array.reshape(shape)
    np_dtype = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
    if proto.tensor_content or not count:
        array = np.frombuffer(proto.tensor_content, np_dtype, count)
    else:
        field = {np.dtype(np.int64): proto.int64_val, np.dtype(np.float32): proto.float_val,
                 np.dtype(np.float64): proto.double_val}.get(np_dtype.newbyteorder("="),
                                                             proto.int_val)
        array = np.full(count, field[-1], np_dtype) if len(field) == 1 else \
            np.array(list(field), np_dtype)
    return dtype, array.astype(np_dtype.newbyteorder("=")).reshape(shape)


def _checks(ctx, indices, values, shape):
    if indices.ndim != 2:
        raise invalid(ctx, f"Input indices should be a matrix but received shape "
                           f"{_shape(indices)}")
    if values.ndim != 1:
        raise invalid(ctx, f"Input values should be a vector but received shape "
                           f"{_shape(values)}")
    if shape.ndim != 1:
        raise invalid(ctx, f"Input shape should be a vector but received shape "
                           f"{_shape(shape)}")


def _check_string_out(ctx):
    if ctx.attr("out_type", dtypes.string) not in (dtypes.string, "string"):
        raise invalid(ctx, "The engine serializes SparseTensors to strings only, not variants")


@register("SerializeSparse")
def serialize_sparse(ctx, sparse_indices, sparse_values, sparse_shape):
    """[indices, values, shape] as three serialized TensorProtos."""
    indices, values, shape = (np.asarray(x) for x in (sparse_indices, sparse_values,
                                                      sparse_shape))
    _checks(ctx, indices, values, shape)
    _check_string_out(ctx)
    out = np.empty(3, object)
    out[:] = [tensor_proto_bytes(indices.astype(np.int64)), tensor_proto_bytes(values),
              tensor_proto_bytes(shape.astype(np.int64))]
    return out


@register("SerializeManySparse")
def serialize_many_sparse(ctx, sparse_indices, sparse_values, sparse_shape):
    """Each minibatch entry (the first dimension) serialized as SerializeSparse does, its
    indices without the first column: an [N, 3] string matrix. The indices must be sorted."""
    indices, values, shape = (np.asarray(x) for x in (sparse_indices, sparse_values,
                                                      sparse_shape))
    _checks(ctx, indices, values, shape)
    _check_string_out(ctx)
    rank = shape.size
    if rank <= 1:
        raise invalid(ctx, "Rank of input SparseTensor should be > 1, but saw rank: "
                           f"{rank}")
    indices = indices.astype(np.int64)
    for n in range(1, indices.shape[0]):
        earlier, row = indices[n - 1].tolist(), indices[n].tolist()
        if row < earlier:
            raise invalid(ctx, f"indices[{n}] = [{','.join(map(str, row))}] is out of order. "
                               "Many sparse ops require sorted indices.\n    Use "
                               "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
        if row == earlier:
            raise invalid(ctx, f"indices[{n}] = [{','.join(map(str, row))}] is repeated")
    batch = int(shape[0])
    inner_shape = tensor_proto_bytes(shape[1:].astype(np.int64))
    out = np.empty((batch, 3), object)
    for b in range(batch):
        mine = indices[:, 0] == b
        out[b] = [tensor_proto_bytes(np.ascontiguousarray(indices[mine][:, 1:])),
                  tensor_proto_bytes(values[mine]), inner_shape]
    return out


@register("DeserializeManySparse")
def deserialize_many_sparse(ctx, serialized_sparse):
    """The serialized SparseTensors of [..., 3] strings stacked along new leading dimensions,
    the output shape the largest of each dimension."""
    serialized = np.asarray(serialized_sparse)
    if serialized.ndim < 1 or serialized.shape[-1] != 3:
        raise invalid(ctx, "Serialized sparse should have 3 as the last dimension "
                           f"{_shape(serialized)}")
    lead = serialized.shape[:-1]
    count = int(np.prod(lead)) if lead else 1
    if count == 0:
        raise invalid(ctx, "Serialized sparse should have at least 1 serialized tensor, but "
                           f"has a zero dimension {_shape(serialized)}")
    wanted = dtypes.as_dtype(ctx.attr("dtype"))
    flat = serialized.reshape(count, 3)
    parts, rank, largest = [], None, None
    for n in range(count):
        try:
            decoded = [_tensor_from_proto(bytes(flat[n, k])) for k in range(3)]
        except Exception:
            raise invalid(ctx, "Could not parse serialized proto") from None
        (_, indices), (values_dtype, values), (_, shape) = decoded
        if values_dtype != wanted:
            raise invalid(ctx, f"Requested SparseTensor of type {datatype_string(wanted)} but "
                               f"SparseTensor[{n}].values.dtype() == "
                               f"{datatype_string(values_dtype)}")
        if rank is None:
            rank, largest = shape.size, shape.astype(np.int64)
        elif shape.size != rank:
            raise invalid(ctx, "Inconsistent shape across SparseTensors: rank prior to "
                               f"SparseTensor[{n}] was: {rank} but rank of "
                               f"SparseTensor[{n}] is: {shape.size}")
        else:
            largest = np.maximum(largest, shape)
        parts.append((indices.reshape(-1, rank), values))
    positions = np.array(np.unravel_index(np.arange(count), lead)).T if lead else \
        np.zeros((1, 0), np.int64)
    out_indices = [np.concatenate([np.repeat(positions[n][None], len(v), 0), i], axis=1)
                   for n, (i, v) in enumerate(parts)]
    out_values = np.concatenate([v for _, v in parts]).astype(wanted.as_numpy_dtype)
    return (np.concatenate(out_indices).astype(np.int64).reshape(-1, len(lead) + rank),
            out_values, np.array(list(lead) + largest.tolist(), np.int64))
