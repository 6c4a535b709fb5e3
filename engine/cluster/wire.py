"""What a cluster step's messages carry, packed into one msgpack body.

A step's messages (its call to each task, the tensors pushed between tasks, a task's answer)
are mostly small tensors. Handed to Dask as they are, each costs more than the step's own
work: Dask sizes every object of a message recursively (to decide whether to serialize it
on a thread), serializes each array as a header and a frame of its own, and writes that
frame with a send of its own, so the receiver wakes twice. Packed here, a message is one
bytes object Dask sizes at once and writes in one send: a numeric array of at most
INLINE_MAX_BYTES is its dtype, shape and bytes inside the body; anything else (a larger
array, whose frames Dask sends without a copy; an array of objects; a Python object) is
left to Dask's serializers beside the body, and the body names it by its index there.

>>> import numpy as np
>>> body, extra = pack([np.arange(3, dtype=np.int64), np.float32(0.5), "key", None])
>>> extra
[]
>>> unpack(body, extra)
(array([0, 1, 2]), np.float32(0.5), 'key', None)
>>> unpack(*pack([np.array([True, False]), np.uint8(7), np.zeros((2, 0), np.float32)]))
(array([ True, False]), np.uint8(7), array([], shape=(2, 0), dtype=float32))
>>> unpack(*pack({"a": (1, [2, 3])}))  # sequences come back as tuples, as from Dask
{'a': (1, (2, 3))}
"""

import struct

import msgpack
import numpy as np

# Arrays up to this size are copied into the body: two copies of 256 KiB cost less than
# Dask's serialization of one array; larger ones go as Dask frames, without a copy.
INLINE_MAX_BYTES = 256 * 1024

_ARRAY, _SCALAR, _EXTRA = 1, 2, 3
_HEADER_SIZE = struct.Struct("<H")
_EXTRA_INDEX = struct.Struct("<I")  # a step may push more than 65,535 string tensors
_INLINE_KINDS = frozenset("biufc")
_headers = {}  # dtype -> its header prefix in the body ("<f4;"), None where not inlined


def _dtype_header(dtype):
    header = _headers.get(dtype)
    if header is None and dtype not in _headers:
        # A dtype NumPy rebuilds from its string alone (not bfloat16's "<V2", nor objects).
        # ";" ends it: one-byte dtypes' strings begin with "|" ("|b1", "|i1").
        if dtype.kind in _INLINE_KINDS and np.dtype(dtype.str) == dtype:
            header = dtype.str + ";"
        _headers[dtype] = header
    return header


def pack(obj):
    """(body bytes, [values left to Dask's serializers]) of `obj`."""
    extra = []

    def encode(value):
        if isinstance(value, (np.ndarray, np.generic)):
            header = _dtype_header(value.dtype)
            if header is not None and value.nbytes <= INLINE_MAX_BYTES:
                head = (header + ",".join(map(str, value.shape))).encode()
                code = _ARRAY if isinstance(value, np.ndarray) else _SCALAR
                return msgpack.ExtType(code, _HEADER_SIZE.pack(len(head)) + head +
                                       value.tobytes())
        extra.append(value)
        return msgpack.ExtType(_EXTRA, _EXTRA_INDEX.pack(len(extra) - 1))

    return msgpack.packb(obj, default=encode, use_bin_type=True), extra


def unpack(body, extra=()):
    """The object `pack` gave (body, extra) for; its arrays are writable copies."""

    def decode(code, data):
        if code == _EXTRA:
            return extra[_EXTRA_INDEX.unpack_from(data)[0]]
        size = _HEADER_SIZE.unpack_from(data)[0]
        dtype, _, shape = data[2:2 + size].decode().partition(";")
        shape = tuple(int(d) for d in shape.split(",")) if shape else ()
        array = np.frombuffer(data, dtype, offset=2 + size).reshape(shape).copy()
        return array if code == _ARRAY else array[()]

    return msgpack.unpackb(body, ext_hook=decode, use_list=False, raw=False,
                           strict_map_key=False)


def message(obj):
    """A handler's keyword arguments carrying `obj`: its body, and Dask-serialized extras
    where it has any."""
    body, extra = pack(obj)
    if not extra:
        return {"body": body}
    from distributed.protocol import to_serialize
    return {"body": body, "extra": [to_serialize(value) for value in extra]}


def opened(body, extra=None):
    """The object a `message` carried."""
    return unpack(body, extra or ())
