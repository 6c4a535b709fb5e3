"""Index keys of a partitioned variable's slices (TensorFlow's EncodeTensorNameSlice, OrderedCode).

A slice of tensor `name` is stored under 0, name, the rank, then each dimension's start and
length (-1 for a whole dimension), in OrderedCode's order-preserving encoding. The full
tensor's own entry lists its slices, so readers compute these keys rather than parse them.

>>> encode_tensor_name_slice("embedding", [(0, 4), (0, 3)])
b'\\x00embedding\\x00\\x01\\x01\\x02\\x80\\x84\\x80\\x83'
>>> encode_tensor_name_slice("wide", [(100, 100), (0, -1)])[-6:]
b'\\xc0d\\xc0d\\x80\\x7f'
"""

# Header bits of a signed number's first two bytes, by encoded length (OrderedCode).
_LENGTH_HEADER = [(0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0),
                  (0xFE, 0), (0xFF, 0), (0xFF, 0x80), (0xFF, 0xC0)]


def write_num_increasing(value):
    """An unsigned number: its byte count, then its bytes big-endian."""
    body = value.to_bytes((value.bit_length() + 7) // 8, "big") if value else b""
    return bytes([len(body)]) + body


def write_string(text):
    """A string with 0x00 and 0xff escaped, ended by 0x00 0x01."""
    escapes = {0x00: b"\x00\xff", 0xFF: b"\xff\x00"}
    return b"".join(escapes.get(byte, bytes([byte])) for byte in text) + b"\x00\x01"


def write_signed_num_increasing(value):
    """A signed number in 1 to 10 bytes whose leading bits say the length.

    >>> [write_signed_num_increasing(v).hex() for v in (0, -1, 63, 64, -65)]
    ['80', '7f', 'bf', 'c040', '3fbf']
    """
    magnitude = ~value if value < 0 else value
    length = min(magnitude.bit_length() // 7 + 1, 10)
    if length == 1:
        return bytes([(0x80 ^ value) & 0xFF])
    encoded = bytearray((value & (2 ** (8 * length) - 1)).to_bytes(length, "big"))
    encoded[0] ^= _LENGTH_HEADER[length][0]
    encoded[1] ^= _LENGTH_HEADER[length][1]
    return bytes(encoded)


def encode_tensor_name_slice(name, extents):
    """The index key of one slice: extents are (start, length) per dimension, length -1 = all."""
    name = name.encode() if isinstance(name, str) else name
    key = write_num_increasing(0) + write_string(name) + write_num_increasing(len(extents))
    for start, length in extents:
        key += write_signed_num_increasing(start) + write_signed_num_increasing(length)
    return key


def slice_extents(slice_proto):
    """(start, length) per dimension of a TensorSliceProto; a missing length means the whole dim."""
    return [(extent.start, extent.length if extent.HasField("length") else -1)
            for extent in slice_proto.extent]
