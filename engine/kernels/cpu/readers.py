"""NumPy CPU kernels of TF 1.x's readers (TFRecordReaderV2, TextLineReaderV2) and the ops that
drive one (ReaderReadV2, ReaderReadUpToV2, ReaderNumRecordsProducedV2,
ReaderNumWorkUnitsCompletedV2, ReaderResetV2), as reader_base.cc runs them.

A reader lives in the session's resources, made by the first run of its node. A read takes
the next record of the file it is on; at that file's end it counts a finished work unit and
dequeues the next file name from the queue it is given (blocking as a dequeue blocks), so the
queue's OutOfRangeError ends the reading. Keys are TensorFlow's: "file:offset" for a
TFRecord, "file:line" (1-based, after the skipped header lines) for a text line.
"""

import threading

import numpy as np

from engine import errors
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle
from engine.kernels.cpu import queues as queue_kernels
from engine.lib_io import file_io, tf_record
from engine.resources import ResourceHandle

_CREATE_LOCK = threading.Lock()


class _Reader:
    """One reader: the file it is on (a generator of (key, value)) and its two counters."""

    def __init__(self, name, records_of):
        self.name, self.records_of = name, records_of
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.work, self.records = None, None
        self.produced, self.completed = 0, 0


def _tf_records(ctx, compression_type):
    def records_of(path):
        offset = 0
        try:
            with file_io.open_input(path, ctx.node_def) as stream:
                for data in tf_record.read_records(stream, compression_type):
                    yield f"{path}:{offset}".encode(), data
                    # A record's offset in the (uncompressed) stream: 12 bytes of length
                    # and its CRC before the data, a 4-byte CRC after.
                    offset += len(data) + 16
        except tf_record.RecordError as error:
            raise errors.DataLossError(ctx.node_def, None, str(error)) from None
    return records_of


def _text_lines(ctx, skip_header_lines):
    def records_of(path):
        with file_io.open_input(path, ctx.node_def) as stream:
            for number, line in enumerate(stream, 1):
                if number <= skip_header_lines:
                    continue
                # InputBuffer::ReadLine drops the '\n' and a '\r' before it.
                line = line[:-1] if line.endswith(b"\n") else line
                line = line[:-1] if line.endswith(b"\r") else line
                yield f"{path}:{number}".encode(), line
    return records_of


def _create(ctx, records_of):
    readers = ctx.resources.table("readers")
    with _CREATE_LOCK:
        reader = readers.get(ctx.name)
        if reader is None:
            shared = ctx.attr("shared_name", b"")
            shared = shared.decode() if isinstance(shared, bytes) else shared
            reader = readers[ctx.name] = _Reader(shared or ctx.name, records_of)
            ctx.resources.table("readers_by_name")[reader.name] = reader
    return ResourceHandle("", reader.name, ctx.device, None, ())


def _lookup(ctx, handle):
    handle = resource_handle(handle)
    reader = ctx.resources.table("readers_by_name").get(handle.name)
    if reader is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource localhost/{handle.name} does not exist.")
    return reader


@register("TFRecordReaderV2")
def tf_record_reader_v2(ctx):
    compression_type = ctx.attr("compression_type", b"")
    if isinstance(compression_type, bytes):
        compression_type = compression_type.decode()
    return _create(ctx, _tf_records(ctx, compression_type))


@register("TextLineReaderV2")
def text_line_reader_v2(ctx):
    skip = int(ctx.attr("skip_header_lines", 0))
    if skip < 0:
        raise invalid(ctx, f"skip_header_lines must be >= 0 not {skip}")
    return _create(ctx, _text_lines(ctx, skip))


def _next_work(ctx, reader, queue_handle):
    """The next file name from the queue (ReaderBase::GetNextWorkLocked)."""
    queue = queue_kernels.lookup(ctx, queue_handle)
    (element,) = queue_kernels.dequeue(ctx, queue, 1)
    work = np.asarray(element[0]).item()
    return work.decode() if isinstance(work, bytes) else str(work)


def _read(ctx, reader, queue_handle):
    """The next (key, value), moving to the queue's next file at each file's end."""
    while True:
        if reader.records is None:
            reader.work = _next_work(ctx, reader, queue_handle)
            reader.records = reader.records_of(reader.work)
        record = next(reader.records, None)
        if record is not None:
            reader.produced += 1
            return record
        reader.records, reader.work = None, None
        reader.completed += 1


@register("ReaderReadV2")
def reader_read_v2(ctx, reader_handle, queue_handle):
    reader = _lookup(ctx, reader_handle)
    with reader.lock:
        key, value = _read(ctx, reader, queue_handle)
    return np.array(key, dtype=object), np.array(value, dtype=object)


@register("ReaderReadUpToV2")
def reader_read_up_to_v2(ctx, reader_handle, queue_handle, num_records):
    count = int(num_records)
    if count <= 0:
        raise invalid(ctx, f"num_records ({count}) must be > 0")
    reader = _lookup(ctx, reader_handle)
    keys, values = [], []
    with reader.lock:
        while len(keys) < count:
            try:
                key, value = _read(ctx, reader, queue_handle)
            except errors.OutOfRangeError:
                if keys:
                    break  # what it has read before the queue ran out
                raise
            keys.append(key)
            values.append(value)
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
