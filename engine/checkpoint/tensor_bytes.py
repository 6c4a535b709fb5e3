"""A tensor's bytes in a checkpoint's .data shard, and their crc32c, as TensorFlow's bundle writes them.

Numbers are their little-endian bytes, bool one byte each, bfloat16 the top half of a float32.
A string tensor is every element's length as a varint, the masked crc32c of those lengths
(each taken as a uint32), then the elements' bytes; its checksum covers lengths, length
checksum and bytes.

>>> import numpy as np
>>> data, crc = encode(np.array([b"ab", b""], object), DT_STRING)
>>> data
b"\\x02\\x00x'\\x0b4ab"
>>> decode(data, DT_STRING, [2], crc, "t").tolist()
[b'ab', b'']
"""

import struct

import numpy as np

from engine.checkpoint.table import CorruptTable, crc32c, decode_varint, encode_varint, mask
from engine.proto import types_pb2

DT_STRING = types_pb2.DT_STRING
DT_BFLOAT16 = types_pb2.DT_BFLOAT16

# The NumPy type of each fixed-size dtype, little-endian as TensorFlow writes them.
NUMPY_TYPES = {
    types_pb2.DT_FLOAT: "<f4", types_pb2.DT_DOUBLE: "<f8", types_pb2.DT_HALF: "<f2",
    types_pb2.DT_INT8: "i1", types_pb2.DT_INT16: "<i2", types_pb2.DT_INT32: "<i4",
    types_pb2.DT_INT64: "<i8", types_pb2.DT_UINT8: "u1", types_pb2.DT_UINT16: "<u2",
    types_pb2.DT_UINT32: "<u4", types_pb2.DT_UINT64: "<u8", types_pb2.DT_BOOL: "?",
    types_pb2.DT_COMPLEX64: "<c8", types_pb2.DT_COMPLEX128: "<c16",
    types_pb2.DT_QINT8: "i1", types_pb2.DT_QUINT8: "u1", types_pb2.DT_QINT16: "<i2",
    types_pb2.DT_QUINT16: "<u2", types_pb2.DT_QINT32: "<i4",
}


def item_size(dtype):
    """Bytes per element of a fixed-size dtype (bfloat16: 2); None for strings and unknown types."""
    if dtype == DT_BFLOAT16:
        return 2
    numpy_type = NUMPY_TYPES.get(dtype)
    return np.dtype(numpy_type).itemsize if numpy_type else None


def encode(array, dtype):
    """(bytes, masked crc32c) of one tensor as the .data shard holds it."""
    if dtype == DT_STRING:
        elements = [item if isinstance(item, bytes) else str(item).encode()
                    for item in np.asarray(array, dtype=object).ravel()]
        lengths = b"".join(encode_varint(len(item)) for item in elements)
        crc = 0
        for item in elements:
            crc = crc32c(struct.pack("<I", len(item) & 0xFFFFFFFF), crc)
        length_checksum = struct.pack("<I", mask(crc))
        crc = crc32c(length_checksum, crc)
        body = b"".join(elements)
        crc = crc32c(body, crc)
        return lengths + length_checksum + body, mask(crc)
    if dtype == DT_BFLOAT16:
        data = (np.ascontiguousarray(array, "<f4").view("<u4") >> 16).astype("<u2").tobytes()
    else:
        data = np.ascontiguousarray(array, NUMPY_TYPES[dtype]).tobytes()
    return data, mask(crc32c(data))


def decode(data, dtype, shape, stored_crc, what):
    """The array stored in `data`, after checking its checksum and its size against the shape."""
    count = int(np.prod(shape, dtype=object)) if shape else 1
    if dtype == DT_STRING:
        return _decode_strings(data, count, shape, stored_crc, what)
    _check_crc(mask(crc32c(data)), stored_crc, what)
    size = item_size(dtype)
    if size is None:
        raise CorruptTable(f"{what}: dtype {types_pb2.DataType.Name(dtype)} cannot be read")
    if count * size != len(data):
        raise CorruptTable(f"{what}: {len(data)} bytes for {count} elements of {size} bytes")
    if dtype == DT_BFLOAT16:
        return (np.frombuffer(data, "<u2").astype("<u4") << 16).view("<f4").reshape(shape)
    # Over a bytearray the array is writable and shares the buffer: no second copy.
    return np.frombuffer(data, NUMPY_TYPES[dtype]).reshape(shape)


def _check_crc(actual, stored, what):
    if actual != stored:
        raise CorruptTable(f"{what}: crc32c mismatch (stored {stored:#010x}, data has {actual:#010x})")


def _decode_strings(data, count, shape, stored_crc, what):
    if count > len(data):  # every element has at least its one-byte length
        raise CorruptTable(f"{what}: {count} strings cannot fit in {len(data)} bytes")
    lengths, pos = [], 0
    try:
        for _ in range(count):
            length, pos = decode_varint(data, pos)
            lengths.append(length)
    except CorruptTable as error:
        raise CorruptTable(f"{what}: string lengths: {error}") from None
    if pos + 4 + sum(lengths) != len(data):
        raise CorruptTable(f"{what}: string lengths add up to {pos + 4 + sum(lengths)} bytes, "
                           f"the entry holds {len(data)}")
    crc = 0
    for length in lengths:
        crc = crc32c(struct.pack("<I", length & 0xFFFFFFFF), crc)
    _check_crc(mask(crc32c(data[pos:], crc)), stored_crc, what)
    pos += 4  # the lengths' own checksum, covered by the tensor's
    out = np.empty(count, dtype=object)
    for index, length in enumerate(lengths):
        out[index] = bytes(data[pos:pos + length])
        pos += length
    return out.reshape(shape)
