"""Shape functions of the tf.data ops (TensorFlow's dataset_ops.cc): a dataset or an iterator
is a scalar handle; IteratorGetNext's outputs have the shapes its output_shapes attr names.
Also TF 1.x's readers, ReadFile, MatchingFiles, DecodeRaw and DecodeCSV."""

from engine.shape_inference.dims import ShapeError, _dims

DATASET_OPS = frozenset({
    "TensorSliceDataset", "TensorDataset", "RangeDataset", "MapDataset", "ParallelMapDatasetV2",
    "FlatMapDataset", "BatchDatasetV2", "ShuffleDataset", "RepeatDataset", "TakeDataset",
    "SkipDataset", "PrefetchDataset", "ZipDataset", "TextLineDataset", "TFRecordDataset",
    "FilterDataset", "CacheDataset", "PaddedBatchDatasetV2", "InterleaveDataset",
    "ConcatenateDataset", "GeneratorDataset", "FixedLengthRecordDatasetV2",
})
ITERATOR_HANDLES = frozenset({"OneShotIterator", "IteratorV2", "IteratorToStringHandle",
                              "IteratorFromStringHandleV2"})


def scalar_handle(attrs, inputs):
    return []


def iterator_get_next(attrs, inputs):
    """Each output: the shape output_shapes gives it (TensorFlow's DatasetIteratorShape)."""
    shapes = attrs.get("output_shapes") or ()
    return tuple(None if shape.ndims is None else list(shape.as_list()) for shape in shapes)


def decode_raw(attrs, inputs):
    """The input's shape and one more, unknown dimension (the numbers in each string)."""
    dims = _dims(inputs[0])
    return None if dims is None else dims + [None]


def decode_csv(attrs, inputs):
    """Each output has the records' shape; a default is a scalar or a vector of at most one."""
    for info in inputs[1:]:
        dims = _dims(info)
        if dims is None:
            continue
        if len(dims) > 1:
            raise ShapeError(f"Shape must be at most rank 1 but is rank {len(dims)}")
        if dims and dims[0] is not None and dims[0] > 1:
            raise ShapeError("Shape of a default must be a length-0 or length-1 vector, or a "
                             "scalar.")
    return tuple(_dims(inputs[0]) for _ in attrs.get("OUT_TYPE") or ())


def read_file(attrs, inputs):
    """The contents of one file: a scalar, from a scalar file name (WriteFile: scalars in,
    nothing out)."""
    for info in inputs:
        dims = _dims(info)
        if dims is not None and dims:
            raise ShapeError(f"Shape must be rank 0 but is rank {len(dims)}")
    return []


def matching_files(attrs, inputs):
    """The matched names: a vector of unknown length, from a scalar or vector of patterns."""
    dims = _dims(inputs[0])
    if dims is not None and len(dims) > 1:
        raise ShapeError(f"Shape must be at most rank 1 but is rank {len(dims)}")
    return [None]


# TF 1.x's readers (kernels/cpu/readers.py): a scalar handle; a read gives a scalar key and
# value, read_up_to a vector of each; the counters are scalars (a reset has no output).
READER_HANDLES = frozenset({"TFRecordReaderV2", "TextLineReaderV2",
                            "FixedLengthRecordReaderV2", "WholeFileReaderV2"})

SHAPE_FUNCTIONS = {
    **{op: scalar_handle for op in DATASET_OPS | ITERATOR_HANDLES | READER_HANDLES},
    "IteratorGetNext": iterator_get_next,
    "ReaderReadV2": lambda attrs, inputs: ([], []),
    "ReaderReadUpToV2": lambda attrs, inputs: ([None], [None]),
    "ReaderNumRecordsProducedV2": scalar_handle,
    "ReaderNumWorkUnitsCompletedV2": scalar_handle,
    "DecodeRaw": decode_raw,
    "DecodeCSV": decode_csv,
    "ReadFile": read_file,
    "WriteFile": read_file,
    "MatchingFiles": matching_files,
}
