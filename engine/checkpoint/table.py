"""The sorted string table of a checkpoint's .index file (TensorFlow's copy of LevelDB's format).

A table is data blocks of prefix-compressed keys with restart points, an (empty) metaindex
block, an index block mapping a separator key to each data block's handle, and a 48-byte
footer ending in a magic number. Every block is followed by a type byte (0: uncompressed) and
the masked crc32c of block + type. TensorFlow writes bundles' indexes uncompressed.

>>> data = build_table([(b"", b"header"), (b"a", b"1"), (b"ab", b"2")])
>>> read_table(data, "x.index")
[(b'', b'header'), (b'a', b'1'), (b'ab', b'2')]
"""

import struct

import google_crc32c

from engine.framework import varint

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48  # two block handles padded to 40 bytes, then the 8-byte magic
BLOCK_TRAILER_SIZE = 5  # type byte + masked crc32c
BLOCK_SIZE = 262144  # TensorFlow's table::Options default
RESTART_INTERVAL = 16
_MASK_DELTA = 0xA282EAD8
_CRC_CHUNK = 4 << 20


class CorruptTable(Exception):
    """The table is not what TensorFlow writes; `what` says where and how."""


def mask(crc):
    """TensorFlow's crc32c::Mask: stored checksums are rotated and offset.

    >>> hex(mask(0))
    '0xa282ead8'
    """
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def crc32c(data, crc=0):
    """crc32c of `data` continuing from `crc`; a writable buffer is checksummed in read-only
    chunks (google_crc32c takes only bytes), so a big tensor is never copied whole."""
    if isinstance(data, bytes):
        return google_crc32c.extend(crc, data)
    view = memoryview(data).cast("B")
    for start in range(0, len(view), _CRC_CHUNK):
        crc = google_crc32c.extend(crc, bytes(view[start:start + _CRC_CHUNK]))
    return crc


def masked_crc32c(data):
    return mask(crc32c(data))


def unmask(masked):
    rotated = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF


def encode_varint(value):
    """LevelDB's varint (engine/framework/varint.py).

    >>> encode_varint(300)
    b'\\xac\\x02'
    """
    return varint.encode(value)


def decode_varint(data, pos, limit=None, max_bytes=10):
    """(value, position after it); CorruptTable if it runs past `limit` or is too long."""
    try:
        return varint.decode(data, pos, limit, max_bytes)
    except varint.VarintError as error:
        raise CorruptTable(str(error)) from None


class _BlockBuilder:
    """One block: prefix-compressed entries, a restart point every `restart_interval` keys."""

    def __init__(self, restart_interval):
        self.restart_interval = restart_interval
        self.buffer, self.restarts, self.count, self.last_key = bytearray(), [0], 0, b""

    def add(self, key, value):
        shared = 0
        if self.count % self.restart_interval == 0:
            if self.count:
                self.restarts.append(len(self.buffer))
        else:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        self.buffer += encode_varint(shared) + encode_varint(len(key) - shared)
        self.buffer += encode_varint(len(value)) + key[shared:] + value
        self.last_key, self.count = key, self.count + 1

    def size_estimate(self):
        return len(self.buffer) + 4 * len(self.restarts) + 4

    def finish(self):
        tail = b"".join(struct.pack("<I", offset) for offset in self.restarts)
        return bytes(self.buffer) + tail + struct.pack("<I", len(self.restarts))


def _shortest_separator(start, limit):
    """A short key k with start <= k < limit (LevelDB's bytewise FindShortestSeparator)."""
    common = 0
    while common < min(len(start), len(limit)) and start[common] == limit[common]:
        common += 1
    if common < min(len(start), len(limit)):
        byte = start[common]
        if byte < 0xFF and byte + 1 < limit[common]:
            return start[:common] + bytes([byte + 1])
    return start


def _short_successor(key):
    """A short key >= `key` (FindShortSuccessor): bump the first byte that is not 0xff."""
    for index, byte in enumerate(key):
        if byte != 0xFF:
            return key[:index] + bytes([byte + 1])
    return key


def build_table(entries, block_size=BLOCK_SIZE):
    """The bytes TensorFlow's TableBuilder writes for sorted (key, value) pairs."""
    out = bytearray()

    def write_block(contents):
        handle = encode_varint(len(out)) + encode_varint(len(contents))
        out.extend(contents + b"\x00" + struct.pack("<I", masked_crc32c(contents + b"\x00")))
        return handle

    index_block, block = _BlockBuilder(1), _BlockBuilder(RESTART_INTERVAL)
    pending = None  # (last key of the flushed block, its handle), waiting for the next key
    for key, value in entries:
        if pending is not None:
            index_block.add(_shortest_separator(pending[0], key), pending[1])
            pending = None
        block.add(key, value)
        if block.size_estimate() >= block_size:
            pending = (key, write_block(block.finish()))
            block = _BlockBuilder(RESTART_INTERVAL)
    if block.count:
        pending = (block.last_key, write_block(block.finish()))
    if pending is not None:
        index_block.add(_short_successor(pending[0]), pending[1])
    metaindex_handle = write_block(_BlockBuilder(RESTART_INTERVAL).finish())
    index_handle = write_block(index_block.finish())
    footer = (metaindex_handle + index_handle).ljust(40, b"\x00") + struct.pack("<Q", MAGIC)
    return bytes(out + footer)


def _read_handle(data, pos, limit):
    offset, pos = decode_varint(data, pos, limit)
    size, pos = decode_varint(data, pos, limit)
    return offset, size, pos


def _block(data, offset, size, what):
    """A block's contents after checking its place in the file, its type and its checksum."""
    end = offset + size + BLOCK_TRAILER_SIZE
    if end > len(data) - FOOTER_SIZE:
        raise CorruptTable(f"{what} (+{size} bytes) runs past the end of the file "
                           f"({len(data)} bytes; truncated?)")
    contents = data[offset:offset + size]
    block_type = data[offset + size]
    stored = struct.unpack_from("<I", data, offset + size + 1)[0]
    if masked_crc32c(data[offset:offset + size + 1]) != stored:
        raise CorruptTable(f"{what}: crc32c mismatch (stored {stored:#010x})")
    if block_type != 0:
        raise CorruptTable(f"{what}: compressed block (type {block_type}); "
                           "TensorFlow writes checkpoint indexes uncompressed")
    return contents


def _block_entries(block, what):
    """Every (key, value) of one block, keys rebuilt from their shared prefixes."""
    if len(block) < 4:
        raise CorruptTable(f"{what}: {len(block)} bytes, too short for its restart count")
    num_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    limit = len(block) - 4 - 4 * num_restarts
    if num_restarts == 0 or limit < 0:
        raise CorruptTable(f"{what}: restart count {num_restarts} does not fit its {len(block)} bytes")
    entries, pos, key = [], 0, b""
    while pos < limit:
        shared, pos = decode_varint(block, pos, limit, 5)
        unshared, pos = decode_varint(block, pos, limit, 5)
        value_length, pos = decode_varint(block, pos, limit, 5)
        if shared > len(key) or pos + unshared + value_length > limit:
            raise CorruptTable(f"{what}: entry {len(entries)} at byte {pos} runs past its block")
        key = key[:shared] + block[pos:pos + unshared]
        pos += unshared
        entries.append((key, block[pos:pos + value_length]))
        pos += value_length
    return entries


def read_table(data, name="table"):
    """Every (key, value) in a table's bytes, in order; CorruptTable says what is wrong."""
    data = memoryview(data).tobytes() if not isinstance(data, bytes) else data
    if len(data) < FOOTER_SIZE:
        raise CorruptTable(f"{len(data)} bytes, shorter than the {FOOTER_SIZE}-byte footer (truncated?)")
    magic = struct.unpack_from("<Q", data, len(data) - 8)[0]
    if magic != MAGIC:
        raise CorruptTable(f"bad magic number {magic:#018x} in the footer (not a checkpoint index, "
                           "or truncated)")
    footer = len(data) - FOOTER_SIZE
    try:
        _, _, pos = _read_handle(data, footer, len(data) - 8)
        index_offset, index_size, _ = _read_handle(data, pos, len(data) - 8)
    except CorruptTable as error:
        raise CorruptTable(f"footer: {error}") from None
    entries, last_key = [], None
    index_what = f"index block at byte {index_offset}"
    for separator, handle in _block_entries(_block(data, index_offset, index_size, index_what),
                                            index_what):
        try:
            offset, size, _ = _read_handle(handle, 0, len(handle))
        except CorruptTable as error:
            raise CorruptTable(f"{index_what}: handle for {separator!r}: {error}") from None
        what = f"data block at byte {offset}"
        for key, value in _block_entries(_block(data, offset, size, what), what):
            if last_key is not None and key <= last_key:
                raise CorruptTable(f"{what}: key {key!r} out of order after {last_key!r}")
            if key > separator:
                raise CorruptTable(f"{what}: key {key!r} beyond its index separator {separator!r}")
            entries.append((key, value))
            last_key = key
    return entries
