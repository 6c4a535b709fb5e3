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
