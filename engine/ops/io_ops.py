"""tf.TFRecordReader, tf.TextLineReader, tf.FixedLengthRecordReader and tf.WholeFileReader as
TF 1.x builds them (io_ops.ReaderBase): the reader op and its read/read_up_to/
num_records_produced/num_work_units_completed/reset ops, each fed the reader's handle; read
takes the queue of file names (a QueueBase or its handle) that the reader dequeues from when
it finishes a file. Also tf.read_file and tf.write_file (whole files, ReadFile/WriteFile) and
tf.io.matching_files (MatchingFiles)."""

from engine.lib_io.tf_record import TFRecordOptions
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

_READER_OPS = ("TFRecordReaderV2", "TextLineReaderV2", "FixedLengthRecordReaderV2",
               "WholeFileReaderV2", "IdentityReaderV2", "ReaderReadV2", "ReaderReadUpToV2",
               "ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2", "ReaderResetV2")
for _op_type in _READER_OPS:
    NotDifferentiable(_op_type)


def _queue_ref(queue):
    return getattr(queue, "queue_ref", queue)


class ReaderBase:
    """A reader's handle and the ops that use it (TensorFlow's io_ops.ReaderBase)."""

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return self._supports_serialize

    def read(self, queue, name=None):
        """(key, value): the next record, from the file the queue gives when one ends."""
        return tuple(apply_op("ReaderReadV2", reader_handle=self._reader_ref,
                              queue_handle=_queue_ref(queue), name=name))

    def read_up_to(self, queue, num_records, name=None):
        return tuple(apply_op("ReaderReadUpToV2", reader_handle=self._reader_ref,
                              queue_handle=_queue_ref(queue), num_records=num_records,
                              name=name))

    def num_records_produced(self, name=None):
        return apply_op("ReaderNumRecordsProducedV2", reader_handle=self._reader_ref,
                        name=name)

    def num_work_units_completed(self, name=None):
        return apply_op("ReaderNumWorkUnitsCompletedV2", reader_handle=self._reader_ref,
                        name=name)

    def reset(self, name=None):
        return apply_op("ReaderResetV2", reader_handle=self._reader_ref, name=name)


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files; options names their compression."""

    def __init__(self, name=None, options=None):
        compression_type = TFRecordOptions.get_compression_type_string(options)
        super().__init__(apply_op("TFRecordReaderV2", compression_type=compression_type,
                                  name=name))


class TextLineReader(ReaderBase):
    """Reads the lines of text files, without their line ends, after skip_header_lines."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(apply_op("TextLineReaderV2", skip_header_lines=skip_header_lines or 0,
                                  name=name))


class FixedLengthRecordReader(ReaderBase):
    """Reads records of record_bytes bytes after header_bytes, hop_bytes apart when given
    (records may overlap), from files whose last footer_bytes are no record; encoding "GZIP"
    or "ZLIB" reads compressed files. A record cut short at a file's end is dropped."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
                 name=None, encoding=None):
        super().__init__(apply_op("FixedLengthRecordReaderV2", record_bytes=record_bytes,
                                  header_bytes=header_bytes or 0,
                                  footer_bytes=footer_bytes or 0, hop_bytes=hop_bytes or 0,
                                  encoding=encoding or "", name=name))


class WholeFileReader(ReaderBase):
    """Reads each file whole: the key is its name, the value its contents."""

    def __init__(self, name=None):
        super().__init__(apply_op("WholeFileReaderV2", name=name), supports_serialize=True)


class IdentityReader(ReaderBase):
    """Outputs each work item the queue gives as both key and value."""

    def __init__(self, name=None):
        super().__init__(apply_op("IdentityReaderV2", name=name), supports_serialize=True)


def matching_files(pattern, name=None):
    """The files matching a glob pattern (or a vector of them), sorted: a vector of names."""
    return apply_op("MatchingFiles", pattern=pattern, name=name)


def read_file(filename, name=None):
    """The contents of the file `filename` names (a scalar string)."""
    return apply_op("ReadFile", filename=filename, name=name)


def write_file(filename, contents, name=None):
    """An op writing `contents` to `filename`, making the directories above it."""
    return apply_op("WriteFile", filename=filename, contents=contents, name=name)
