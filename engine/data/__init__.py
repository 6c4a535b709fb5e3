"""tf.data (and tf.compat.v1.data) as TensorFlow 1.x graph code used it: datasets are graph ops
(engine.data.dataset_ops), iterators too (engine.data.iterator_ops), files through
TextLineDataset, TFRecordDataset and FixedLengthRecordDataset (engine.data.readers)."""

from engine.framework.api_namespace import Namespace, module_getattr
from engine.data.dataset_ops import Dataset, DatasetV1
from engine.data.iterator_ops import (Iterator, get_output_classes, get_output_shapes,
                                      get_output_types, make_initializable_iterator,
                                      make_one_shot_iterator)
from engine.data.readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset
from engine.data.dataset_spec import DatasetSpec, NumpyIterator, get_structure
from engine.data.options import Options, ThreadingOptions

# tf.data's constants (tf.data.experimental's too): AUTOTUNE asks a transformation to pick
# its own parallelism or buffer (the engine runs them one element at a time); cardinality()
# answers with the other two.
AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2

experimental = Namespace("tf.data.experimental", get_structure=get_structure)

__all__ = ["AUTOTUNE", "DatasetSpec", "NumpyIterator", "Options", "ThreadingOptions",
           "experimental", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Dataset", "DatasetV1",
           "FixedLengthRecordDataset", "Iterator", "TextLineDataset", "TFRecordDataset",
           "get_output_classes", "get_output_shapes", "get_output_types",
           "make_initializable_iterator", "make_one_shot_iterator"]

__getattr__ = module_getattr("tf.data")
