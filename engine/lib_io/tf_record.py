"""tf.python_io: TFRecordWriter, tf_record_iterator, TFRecordOptions, TFRecordCompressionType.

A TFRecord file is a sequence of records (uint64 length, masked CRC32C of the length, the
data, masked CRC32C of the data); with GZIP or ZLIB options the whole sequence is one deflate
stream (gzip or zlib header), as TensorFlow's ZlibOutputBuffer writes it: Python's zlib with
TensorFlow's settings (default level, 15 window bits, memory level 9) gives the same bytes.

Reading follows TensorFlow's RecordReader: a file ending inside a record's header ends the
iteration (a writer may still be appending); one ending inside the data, or a CRC that does
not match, is a DataLossError with TensorFlow's words ("corrupted record at N", N the offset
of the header or of the data that failed its check). A length is never allocated as claimed:
the data is read as it arrives, and an uncompressed file's length is checked against what
the file still holds before reading. Lengths TensorFlow's size_t and int64 arithmetic refuse
are refused with its words ("record size too large"; "Can't read a negative number of
bytes" for 2^63 and up, an InvalidArgumentError). tf.data.TFRecordDataset reads through the
same `read_records`.

>>> import io
>>> stream = io.BytesIO(frame(b"abc") + frame(b"")[:5])
>>> list(read_records(stream))
[b'abc']
>>> list(read_records(io.BytesIO(frame(b"abc")[:-1])))
Traceback (most recent call last):
...
engine.lib_io.tf_record.RecordError: truncated record at 0' failed with Read less bytes than requested
"""

import os
import re
import struct
import zlib

from engine.framework import errors
from engine.lib_io import file_io
from engine.summary.record_writer import frame, masked_crc32c

_HEADER = 12
_FOOTER = 4
_ZLIB_WINDOW_BITS = 15     # TensorFlow's ZlibCompressionOptions: MAX_WBITS,
_ZLIB_MEM_LEVEL = 9        # memory level 9,
_GZIP_EXTRA_BITS = 16      # and +16 window bits for a gzip header.
_CHUNK = 256 * 1024


class TFRecordCompressionType:
    NONE = 0
    ZLIB = 1
    GZIP = 2


_COMPRESSION_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
                      TFRecordCompressionType.GZIP: "GZIP"}


class TFRecordOptions:
    """How a TFRecord file is compressed: "", "ZLIB" or "GZIP", and zlib's settings."""

    compression_type_map = {name: kind for kind, name in _COMPRESSION_NAMES.items()}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        if compression_type is None:
            compression_type = ""
        if isinstance(compression_type, int):
            compression_type = self.get_compression_type_string(compression_type)
        if compression_type not in self.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{compression_type}"')
        self.compression_type = compression_type
        self.flush_mode, self.input_buffer_size = flush_mode, input_buffer_size
        self.output_buffer_size, self.window_bits = output_buffer_size, window_bits
        self.compression_level, self.compression_method = compression_level, compression_method
        self.mem_level, self.compression_strategy = mem_level, compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """"", "ZLIB" or "GZIP" for options given as TFRecordOptions, a name or a
        TFRecordCompressionType (None: no compression)."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        if isinstance(options, int) and options in _COMPRESSION_NAMES:
            return _COMPRESSION_NAMES[options]
        if isinstance(options, str) and options in cls.compression_type_map:
            return options
        raise ValueError(f'Not a valid compression_type: "{options}"')

    def _window_bits(self):
        bits = self.window_bits or _ZLIB_WINDOW_BITS
        return bits + _GZIP_EXTRA_BITS if self.compression_type == "GZIP" else bits


def _as_options(options):
    if isinstance(options, TFRecordOptions):
        return options
    return TFRecordOptions(TFRecordOptions.get_compression_type_string(options))


class TFRecordWriter:
    """Writes records to a TFRecord file (created, or emptied, at once)."""

    def __init__(self, path, options=None):
        self._path = os.fspath(path)
        self._options = _as_options(options)
        try:
            self._file = open(self._path, "wb")
        except OSError as error:
            raise file_io.os_error(error, self._path) from None
        self._deflate = None
        if self._options.compression_type:
            level = self._options.compression_level
            self._deflate = zlib.compressobj(
                zlib.Z_DEFAULT_COMPRESSION if level is None else level, zlib.DEFLATED,
                self._options._window_bits(), self._options.mem_level or _ZLIB_MEM_LEVEL,
                self._options.compression_strategy or zlib.Z_DEFAULT_STRATEGY)

    def _check_open(self):
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")

    def write(self, record):
        """Appends one record (bytes; a str is written as UTF-8)."""
        self._check_open()
        data = frame(record.encode() if isinstance(record, str) else bytes(record))
        with file_io.tf_errors(self._path):
            self._file.write(self._deflate.compress(data) if self._deflate else data)

    def flush(self):
        self._check_open()
        with file_io.tf_errors(self._path):
            if self._deflate:
                self._file.write(self._deflate.flush(zlib.Z_SYNC_FLUSH))
            self._file.flush()

    def close(self):
        if self._file is None:
            return
        file, self._file = self._file, None  # closed even when the last write fails
        with file_io.tf_errors(self._path):
            try:
                if self._deflate:
                    file.write(self._deflate.flush())
            finally:
                file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


class RecordError(ValueError):
    """A record that fails its framing or CRC; the message and `error_class` are
    TensorFlow's."""

    error_class = errors.DataLossError


class NegativeReadSize(RecordError):
    """A length of 2^63 or more: TensorFlow's int64 read size turns negative. `size` is it."""

    error_class = errors.InvalidArgumentError

    def __init__(self, size):
        super().__init__(f"Can't read a negative number of bytes: {size}")
        self.size = size


class _Inflating:
    """A readable stream of the deflated (gzip or zlib) `raw` stream's bytes."""

    def __init__(self, raw, window_bits):
        self._raw, self._inflate, self._buffer = raw, zlib.decompressobj(window_bits), b""

    def read(self, size):
        while len(self._buffer) < size and not self._inflate.eof:
            chunk = self._raw.read(_CHUNK)
            try:
                self._buffer += (self._inflate.decompress(chunk) if chunk
                                 else self._inflate.flush())
            except zlib.error as error:
                raise RecordError(_inflate_message(error)) from None
            if not chunk:
                break
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data


def _inflate_message(error):
    """zlib's error as TensorFlow words it: "inflate() failed with error -3: ..."."""
    match = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(error))
    if match:
        return f"inflate() failed with error {match.group(1)}: {match.group(2)}"
    return f"inflate() failed: {error}"


def _checked(data, crc_bytes, offset):
    if masked_crc32c(data) != struct.unpack("<I", crc_bytes)[0]:
        raise RecordError(f"corrupted record at {offset}")


def inflated(stream, compression_type):
    """The bytes of `stream` inflated when compression_type is "GZIP" or "ZLIB" (a read of a
    stream that is not one raises RecordError with zlib's words as TensorFlow's); any other
    type reads the stream as it is, as TensorFlow's readers do."""
    if compression_type not in ("GZIP", "ZLIB"):
        return stream
    bits = _ZLIB_WINDOW_BITS + (_GZIP_EXTRA_BITS if compression_type == "GZIP" else 0)
    return _Inflating(stream, bits)


_SIZE_MAX = 2**64 - 1
_INT64_LIMIT = 2**63


def _truncated(offset):
    return RecordError(f"truncated record at {offset}' failed with Read less bytes than "
                       f"requested")


def read_records(stream, compression_type=""):
    """Yields each record's data from the binary `stream` (RecordError on a bad record)."""
    plain = compression_type not in ("GZIP", "ZLIB")
    stream = inflated(stream, compression_type)
    offset = 0
    while True:
        header = stream.read(_HEADER)
        if len(header) < _HEADER:
            return  # nothing, or a header still being written: the end, as TensorFlow's
        try:
            _checked(header[:8], header[8:], offset)
        except RecordError as error:
            raise RecordError(f"{error} (Is this even a TFRecord file?)" if offset == 0
                              else str(error)) from None
        length = struct.unpack("<Q", header[:8])[0]
        # RecordReader::ReadChecksummed: n >= SIZE_MAX - 4 is refused, and n + 4 is read as
        # an int64, negative from 2^63 on.
        if length >= _SIZE_MAX - _FOOTER:
            raise RecordError("record size too large")
        if length + _FOOTER >= _INT64_LIMIT:
            raise NegativeReadSize(length + _FOOTER - 2**64)
        left = file_io.remaining_bytes(stream) if plain else None
        if left is not None and length + _FOOTER > left:
            raise _truncated(offset)
        data = file_io.read_exactly(stream, length)
        footer = stream.read(_FOOTER)
        if len(data) < length or len(footer) < _FOOTER:
            raise _truncated(offset)
        _checked(data, footer, offset + _HEADER)
        yield data
        offset += _HEADER + length + _FOOTER


def tf_record_iterator(path, options=None):
    """Yields the records of the TFRecord file at `path` as bytes; a bad record raises
    DataLossError with TensorFlow's message and the file's name."""
    path = os.fspath(path)
    compression_type = TFRecordOptions.get_compression_type_string(options)
    with file_io.open_input(path) as stream:
        try:
            yield from read_records(stream, compression_type)
        except RecordError as error:
            raise error.error_class(None, None, f"{error} (in {path})") from None
