"""tf.TFRecordReader and tf.TextLineReader as TF 1.x builds them (io_ops.ReaderBase): the
reader op and its read/read_up_to/num_records_produced/num_work_units_completed/reset ops,
each fed the reader's handle; read takes the queue of file names (a QueueBase or its
handle) that the reader dequeues from when it finishes a file."""

from engine.lib_io.tf_record import TFRecordOptions
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

_READER_OPS = ("TFRecordReaderV2", "TextLineReaderV2", "ReaderReadV2", "ReaderReadUpToV2",
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
