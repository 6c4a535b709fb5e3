"""TFRecord framing for writing event files: length, masked CRC32C of the length, data, CRC.

The engine writes; parsers/tfrecord.py reads. The two are kept apart on purpose (the engine
imports nothing of ours), and each is checked against the other and against TensorBoard.

>>> hex(masked_crc32c(b""))
'0xa282ead8'
>>> frame(b"abc")[:8], len(frame(b"abc"))
(b'\\x03\\x00\\x00\\x00\\x00\\x00\\x00\\x00', 19)
"""

from __future__ import annotations

import struct

import google_crc32c

_MASK_DELTA = 0xA282EAD8


def masked_crc32c(data: bytes) -> int:
    """TFRecord's mask over CRC32C: rotate right by 15 bits, add a constant."""
    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One record: uint64 length, its masked CRC, the data, the data's masked CRC."""
    length = struct.pack("<Q", len(data))
    return b"".join((length, struct.pack("<I", masked_crc32c(length)), data,
                     struct.pack("<I", masked_crc32c(data))))


class RecordWriter:
    """Appends records to a binary stream; flush and close pass through."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data: bytes) -> None:
        self._stream.write(frame(data))

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self._stream.close()

    @property
    def closed(self) -> bool:
        return self._stream.closed
