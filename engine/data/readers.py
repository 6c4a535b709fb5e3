"""tf.data.TextLineDataset and tf.data.TFRecordDataset as TensorFlow builds them: the file
names as a TensorSliceDataset (is_files) flat-mapped through a function that reads one file
with the TextLineDataset / TFRecordDataset op (TextLineDataset: compression "" only)."""

from engine.framework import dtypes
from engine.data.dataset_ops import DatasetV1
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.framework.tensor_shape import TensorShape

_TEXT_LINE_BUFFER = 256 * 1024  # TextLineDataset's default buffer size in TensorFlow


def _file_dataset(filenames):
    names = convert_to_tensor(filenames, dtypes.string)
    flat = apply_op("Reshape", tensor=names, shape=[-1], name="flat_filenames")
    with get_default_graph().name_scope("normalize_element"):
        pass  # TensorFlow normalizes the (already tensor) names here: the scope name is used
    variant = apply_op("TensorSliceDataset", components=[flat], output_shapes=[TensorShape([])],
                       is_files=True)
    return DatasetV1(variant, None, [(dtypes.string, TensorShape([]))])


def _reader(op_type, buffer_size, compression_type):
    def read_one_file(filename):
        compression = convert_to_tensor(compression_type or "", dtypes.string,
                                        name="compression_type")
        size = convert_to_tensor(buffer_size, dtypes.int64, name="buffer_size")
        variant = apply_op(op_type, filenames=filename, compression_type=compression,
                           buffer_size=size)
        return DatasetV1(variant, None, [(dtypes.string, TensorShape([]))])
    return read_one_file


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                    name=None):
    """The lines of each file, in order, without their line ends."""
    size = _TEXT_LINE_BUFFER if buffer_size is None else buffer_size
    return _file_dataset(filenames).flat_map(_reader("TextLineDataset", size, compression_type))


def TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                    name=None):
    """The records of each TFRecord file, in order."""
    size = -1 if buffer_size is None else buffer_size
    return _file_dataset(filenames).flat_map(_reader("TFRecordDataset", size, compression_type))


_FIXED_LENGTH_BUFFER = 256 * 1024  # TensorFlow's _DEFAULT_READER_BUFFER_SIZE_BYTES


def FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None, footer_bytes=None,
                             buffer_size=None, compression_type=None, num_parallel_reads=None,
                             name=None):
    """The records of `record_bytes` bytes of each file, after its header_bytes and before its
    footer_bytes (files plain, GZIP or ZLIB)."""
    def read_one_file(filename):
        record = convert_to_tensor(record_bytes, dtypes.int64, name="record_bytes")
        header = convert_to_tensor(0 if header_bytes is None else header_bytes, dtypes.int64,
                                   name="header_bytes")
        footer = convert_to_tensor(0 if footer_bytes is None else footer_bytes, dtypes.int64,
                                   name="footer_bytes")
        size = convert_to_tensor(_FIXED_LENGTH_BUFFER if buffer_size is None else buffer_size,
                                 dtypes.int64, name="buffer_size")
        compression = convert_to_tensor(compression_type or "", dtypes.string,
                                        name="compression_type")
        variant = apply_op("FixedLengthRecordDatasetV2", filenames=filename,
                           header_bytes=header, record_bytes=record, footer_bytes=footer,
                           buffer_size=size, compression_type=compression)
        return DatasetV1(variant, None, [(dtypes.string, TensorShape([]))])
    return _file_dataset(filenames).flat_map(read_one_file)
