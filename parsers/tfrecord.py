"""TFRecord framing, as TensorBoard event files use it: both CRCs checked, lengths bounded.

Each record is: uint64 length (little-endian), masked crc32c of those 8 bytes, the data, masked
crc32c of the data.
"""

from __future__ import annotations

import os
import struct

import google_crc32c

from parsers.regular_files import open_file

HEADER = 12
FOOTER = 4
_MASK_DELTA = 0xA282EAD8


class RecordError(Exception):
    """A TFRecord file that is not well framed: which record, at which byte, what is wrong."""


class TruncatedRecord(RecordError):
    """The file ends inside its last record (a writer still writing, or a copy cut short).

    Raised after every whole record before it was yielded; `index` is how many there were.
    """

    def __init__(self, message, index):
        super().__init__(message)
        self.index = index


def masked_crc(data):
    """TFRecord's masked CRC32C of `data`.

    >>> hex(masked_crc(b""))
    '0xa282ead8'
    """
    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def looks_like_tfrecord(head):
    """Whether `head` (a file's first 12 bytes or more) opens with a valid TFRecord header."""
    if len(head) < HEADER:
        return False
    (crc,) = struct.unpack_from("<I", head, 8)
    return masked_crc(bytes(head[:8])) == crc


def read_records(path):
    """Yield (index, byte offset, data) for each record; RecordError at the first bad one,
    TruncatedRecord when the file ends inside a record whose length header is sound.

    Reads record by record, and never allocates a declared length the file cannot hold.
    """
    size = os.path.getsize(path)
    with open_file(path) as stream:
        index = offset = 0
        while offset < size:
            where = f"record {index} (byte {offset})"
            header = stream.read(HEADER)
            if len(header) < HEADER:
                raise TruncatedRecord(f"{where}: cut off in its header, {len(header)} of {HEADER}"
                                      " bytes", index)
            (length,) = struct.unpack_from("<Q", header)
            (length_crc,) = struct.unpack_from("<I", header, 8)
            if masked_crc(header[:8]) != length_crc:
                raise RecordError(f"{where}: length CRC mismatch, header is corrupt")
            remaining = size - offset - HEADER
            if length + FOOTER > remaining:
                raise TruncatedRecord(
                    f"{where}: declares {length} data bytes but only"
                    f" {max(remaining - FOOTER, 0)} remain (cut off)",
                    index)
            data = stream.read(length)
            footer = stream.read(FOOTER)
            if len(data) < length or len(footer) < FOOTER:
                raise RecordError(f"{where}: file ended while reading (changed while read?)")
            if masked_crc(data) != struct.unpack("<I", footer)[0]:
                raise RecordError(f"{where}: data CRC mismatch, record is corrupt")
            yield index, offset, data
            index += 1
            offset += HEADER + length + FOOTER
