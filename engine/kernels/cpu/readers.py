"""NumPy CPU kernels of TF 1.x's readers (TFRecordReaderV2, TextLineReaderV2,
FixedLengthRecordReaderV2, WholeFileReaderV2) and the ops that drive one (ReaderReadV2,
ReaderReadUpToV2, ReaderNumRecordsProducedV2, ReaderNumWorkUnitsCompletedV2, ReaderResetV2),
as reader_base.cc runs them; and ReadFile, WriteFile, MatchingFiles.

A reader lives in the session's resources, made by the first run of its node. A read takes
the next record of the file it is on; at that file's end it counts a finished work unit and
dequeues the next file name from the queue it is given (blocking as a dequeue blocks), so the
queue's OutOfRangeError ends the reading. A file that fails to start (not there, shorter than
a fixed-length header) is left behind: the next read takes the next file. A read that fails
on a started file (a directory, a bad record, a stream that does not inflate) leaves the
reader on it, and every later read fails the same way until a reset, as TensorFlow's does.
read_up_to returns early at the end of a file it has read records from. Keys are
TensorFlow's: "file:offset" for a TFRecord, "file:line" (1-based, after the skipped header
lines) for a text line, "file:n" (from 0) for a fixed-length record, the file for a whole file.
"""

import os
import threading

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle
from engine.kernels.cpu import queues as queue_kernels
from engine.lib_io import file_io, tf_record
from engine.runtime.resources import ResourceHandle

_CREATE_LOCK = threading.Lock()


class _Reader:
    """One reader: how it starts a file, the records of the file it is on, its counters."""

    def __init__(self, name, start):
        self.name, self.start = name, start
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.records = None  # an iterator over the current file's (key, value), or None
        self.failed = None  # (error class, message) of the read that failed on this file
        self.produced, self.completed = 0, 0


def _started(path, node_def):
    """`path` opened for reading. Not being there fails the start (the file is skipped);
    other OS errors (a directory) come from the first read, as TensorFlow opens a directory
    and fails reading it."""
    try:
        return file_io.open_input(path, node_def)
    except errors.NotFoundError:
        raise
    except errors.OpError as error:
        return _Failing(error)


class _Failing:
    """A stream whose every read raises the error opening it gave."""

    def __init__(self, error):
        self.error = error

    def read(self, size=-1):
        raise type(self.error)(None, None, self.error.message)

    readline = read

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        pass


# In pieces: a huge record_bytes or length field allocates what the file has, no more.
_read_exactly = file_io.read_exactly


def _data_loss(records):
    """`records` with a bad record, or a stream that does not inflate, raising TensorFlow's
    error (DataLossError, but for a length the reader's int64 turns negative)."""
    try:
        yield from records
    except tf_record.NegativeReadSize:
        # The reader's input stream words it apart from tf_record_iterator's.
        raise errors.InvalidArgumentError(None, None,
                                          "Cannot read negative number of bytes") from None
    except tf_record.RecordError as error:
        raise error.error_class(None, None, str(error)) from None


def _tf_records(compression_type):
    def start(path, node_def):
        stream = _started(path, node_def)

        def records():
            offset = 0
            with stream:
                for data in tf_record.read_records(stream, compression_type):
                    yield f"{path}:{offset}".encode(), data
                    # A record's offset in the (uncompressed) stream: 12 bytes of length
                    # and its CRC before the data, a 4-byte CRC after.
                    offset += len(data) + 16
        return _data_loss(records())
    return start


def _text_lines(skip_header_lines):
    def start(path, node_def):
        stream = _started(path, node_def)

        def records():
            with stream:
                for number, line in enumerate(file_io.read_lines(stream, path, node_def=node_def), 1):
                    if number <= skip_header_lines:
                        continue
                    # InputBuffer::ReadLine drops the '\n' and a '\r' before it.
                    line = line[:-1] if line.endswith(b"\n") else line
                    line = line[:-1] if line.endswith(b"\r") else line
                    yield f"{path}:{number}".encode(), line
        return records()
    return start


def _fixed_length(record_bytes, header_bytes, footer_bytes, hop_bytes, encoding):
    """FixedLengthRecordReader: record n starts header_bytes + n * (hop_bytes or record_bytes)
    into the (inflated) file and is read when record_bytes + footer_bytes follow from there;
    what is left after the last such record (a record cut short, the footer) is skipped."""
    step = hop_bytes or record_bytes

    def start(path, node_def):
        raw = _started(path, node_def)
        stream = tf_record.inflated(raw, encoding)
        try:
            header = _read_exactly(stream, header_bytes)
        except tf_record.RecordError as error:
            raw.close()
            raise errors.DataLossError(None, None, str(error)) from None
        if len(header) < header_bytes:
            raw.close()
            # TensorFlow's SkipNBytes past the end: the file fails to start, unnamed.
            raise errors.OutOfRangeError(None, None, "reached end of file")

        def records():
            ahead, number = b"", 0  # bytes read from the current record's start on
            with raw:
                while True:
                    if number:
                        if step > len(ahead):
                            skipped = _read_exactly(stream, step - len(ahead))
                            if len(skipped) < step - len(ahead):
                                return
                            ahead = b""
                        else:
                            ahead = ahead[step:]
                    ahead += _read_exactly(stream, record_bytes + footer_bytes - len(ahead))
                    if len(ahead) < record_bytes + footer_bytes:
                        return
                    yield f"{path}:{number}".encode(), ahead[:record_bytes]
                    number += 1
        return _data_loss(records())
    return start


def _whole_files(path, node_def):
    """WholeFileReader: one record per file, read at the read (errors then stay)."""
    def records():
        with file_io.open_input(path, node_def) as stream:
            data = stream.read()
        yield path.encode(), data
    return records()


def _create(ctx, start):
    readers = ctx.resources.table("readers")
    with _CREATE_LOCK:
        reader = readers.get(ctx.name)
        if reader is None:
            reader = readers[ctx.name] = _Reader(
                ctx.resources.resource_name(ctx.name, _text_attr(ctx, "shared_name")), start)
            ctx.resources.table("readers_by_name")[reader.name] = reader
    return ResourceHandle("", reader.name, ctx.device, None, ())


def _lookup(ctx, handle):
    handle = resource_handle(handle)
    reader = ctx.resources.table("readers_by_name").get(handle.name)
    if reader is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource localhost/{handle.name} does not exist.")
    return reader


def _text_attr(ctx, name):
    value = ctx.attr(name, b"")
    return value.decode() if isinstance(value, bytes) else value


@register("TFRecordReaderV2")
def tf_record_reader_v2(ctx):
    return _create(ctx, _tf_records(_text_attr(ctx, "compression_type")))


@register("TextLineReaderV2")
def text_line_reader_v2(ctx):
    skip = int(ctx.attr("skip_header_lines", 0))
    if skip < 0:
        raise invalid(ctx, f"skip_header_lines must be >= 0 not {skip}")
    return _create(ctx, _text_lines(skip))


@register("FixedLengthRecordReaderV2")
def fixed_length_record_reader_v2(ctx):
    sizes = {}
    for name in ("header_bytes", "record_bytes", "footer_bytes", "hop_bytes"):
        sizes[name] = int(ctx.attr(name, 0))
        if sizes[name] < 0:
            raise invalid(ctx, f"{name} must be >= 0 not {sizes[name]}")
    return _create(ctx, _fixed_length(sizes["record_bytes"], sizes["header_bytes"],
                                      sizes["footer_bytes"], sizes["hop_bytes"],
                                      _text_attr(ctx, "encoding")))


@register("WholeFileReaderV2")
def whole_file_reader_v2(ctx):
    return _create(ctx, _whole_files)


def _next_work(ctx, queue_handle):
    """The next file name from the queue (ReaderBase::GetNextWorkLocked)."""
    queue = queue_kernels.lookup(ctx, queue_handle)
    (element,) = queue_kernels.dequeue(ctx, queue, 1)
    work = np.asarray(element[0]).item()
    return work.decode() if isinstance(work, bytes) else str(work)


def _next_record(reader):
    """The current file's next (key, value), None at its end; a failed read stays failed."""
    if reader.failed is not None:
        cls, message = reader.failed
        raise cls(None, None, message)
    try:
        return next(reader.records, None)
    except errors.OpError as error:
        reader.failed = (type(error), error.message)
        raise type(error)(None, None, error.message) from None


def _read_up_to(ctx, reader, queue_handle, count):
    """Up to `count` records (ReaderBase::ReadUpTo): fewer where a file ends after at least
    one; the queue's OutOfRangeError when it is closed and empty before the first."""
    keys, values = [], []
    while len(keys) < count:
        if reader.records is None:
            reader.records = reader.start(_next_work(ctx, queue_handle), ctx.node_def)
        record = _next_record(reader)
        if record is None:
            reader.records = None
            reader.completed += 1
            if keys:
                break
            continue
        reader.produced += 1
        keys.append(record[0])
        values.append(record[1])
    return keys, values


@register("ReaderReadV2")
def reader_read_v2(ctx, reader_handle, queue_handle):
    reader = _lookup(ctx, reader_handle)
    with reader.lock:
        (key,), (value,) = _read_up_to(ctx, reader, queue_handle, 1)
    return np.array(key, dtype=object), np.array(value, dtype=object)


@register("ReaderReadUpToV2")
def reader_read_up_to_v2(ctx, reader_handle, queue_handle, num_records):
    count = int(num_records)
    if count < 0:  # TensorFlow's kernel aborts the process reserving a negative count
        raise invalid(ctx, f"num_records ({count}) must be >= 0")
    reader = _lookup(ctx, reader_handle)
    with reader.lock:
        keys, values = _read_up_to(ctx, reader, queue_handle, count)
    return np.array(keys, dtype=object), np.array(values, dtype=object)


@register("ReaderNumRecordsProducedV2")
def reader_num_records_produced_v2(ctx, reader_handle):
    return np.array(_lookup(ctx, reader_handle).produced, np.int64)


@register("ReaderNumWorkUnitsCompletedV2")
def reader_num_work_units_completed_v2(ctx, reader_handle):
    return np.array(_lookup(ctx, reader_handle).completed, np.int64)


@register("ReaderResetV2")
def reader_reset_v2(ctx, reader_handle):
    reader = _lookup(ctx, reader_handle)
    with reader.lock:
        reader.reset()


def _path(value):
    value = np.asarray(value, dtype=object).item()
    return value.decode() if isinstance(value, bytes) else str(value)


@register("ReadFile")
def read_file(ctx, filename):
    path = _path(filename)
    with file_io.open_input(path, ctx.node_def) as stream:
        return np.array(stream.read(), dtype=object)


@register("WriteFile")
def write_file(ctx, filename, contents):
    """The contents written whole, the directories above made (as TensorFlow's WriteFile)."""
    path = _path(filename)
    if "\x00" in path:  # no file can have the name: as a read of it, NotFound
        raise errors.NotFoundError(ctx.node_def, None, f"{path!r}; No such file or directory")
    contents = np.asarray(contents, dtype=object).item()
    directory = os.path.dirname(path)
    if directory and os.path.exists(directory) and not os.path.isdir(directory):
        # TensorFlow opens the file and fails there; makedirs would say "File exists".
        raise file_io.os_error(NotADirectoryError(20, "Not a directory"), path, ctx.node_def)
    file_io.write_atomically(path, contents if isinstance(contents, (bytes, str))
                             else bytes(contents), ctx.node_def)


@register("MatchingFiles")
def matching_files(ctx, pattern):
    """Every pattern's matches together, sorted (matching_files_op.cc)."""
    patterns = np.asarray(pattern, dtype=object)
    if patterns.ndim > 1:
        raise invalid(ctx, "Input patterns tensor must be scalar or vector, but had shape: "
                           f"[{','.join(str(d) for d in patterns.shape)}]")
    names = [file_io.get_matching_paths(_path(p)) for p in patterns.reshape(-1)]
    found = sorted(name.encode() for group in names for name in group)
    return np.array(found, dtype=object).reshape(len(found))
