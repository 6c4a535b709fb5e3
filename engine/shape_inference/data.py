"""Shape functions of the tf.data ops (TensorFlow's dataset_ops.cc): a dataset or an iterator
is a scalar handle; IteratorGetNext's outputs have the shapes its output_shapes attr names."""

DATASET_OPS = frozenset({
    "TensorSliceDataset", "TensorDataset", "RangeDataset", "MapDataset", "ParallelMapDatasetV2",
    "FlatMapDataset", "BatchDatasetV2", "ShuffleDataset", "RepeatDataset", "TakeDataset",
    "SkipDataset", "PrefetchDataset", "ZipDataset", "TextLineDataset", "TFRecordDataset",
    "FilterDataset", "CacheDataset", "PaddedBatchDatasetV2", "InterleaveDataset",
    "ConcatenateDataset",
})
ITERATOR_HANDLES = frozenset({"OneShotIterator", "IteratorV2", "IteratorToStringHandle"})


def scalar_handle(attrs, inputs):
    return []


def iterator_get_next(attrs, inputs):
    """Each output: the shape output_shapes gives it (TensorFlow's DatasetIteratorShape)."""
    shapes = attrs.get("output_shapes") or ()
    return tuple(None if shape.ndims is None else list(shape.as_list()) for shape in shapes)


SHAPE_FUNCTIONS = {
    **{op: scalar_handle for op in DATASET_OPS | ITERATOR_HANDLES},
    "IteratorGetNext": iterator_get_next,
}
