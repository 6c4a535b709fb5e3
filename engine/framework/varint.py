"""The varint of protocol buffers' wire format and of LevelDB's tables: 7 bits a byte, the
low ones first, the high bit set on every byte but the last. One reader and one writer for the
engine's parsers and writers of wire bytes (checkpoint tables, Example and TensorProto bytes,
tf.io.decode_proto/encode_proto, tf.data options, serialized sparse tensors).

>>> encode(300)
b'\\xac\\x02'
>>> decode(b'\\xac\\x02', 0)
(300, 2)
>>> len(encode(-1))  # a negative int32 or int64 as protobuf writes it: its 64-bit two's complement
10
"""


class VarintError(ValueError):
    """Bytes that hold no varint where one was read: cut short, or too long."""


def encode(value):
    """`value` as a varint; a negative one as its 64-bit two's complement (ten bytes)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def decode(data, pos, limit=None, max_bytes=10):
    """(value, position after it) of the varint at data[pos]; VarintError where it runs past
    `limit` (the end of data by default) or over max_bytes bytes. The value is as read (a
    caller that wants 64 bits masks it)."""
    limit = len(data) if limit is None else limit
    result = shift = 0
    for _ in range(max_bytes):
        if pos >= limit:
            raise VarintError("varint runs past the end")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
    raise VarintError(f"varint longer than {max_bytes} bytes")
