"""Files and pipelines: tf.io, tf.python_io, tf.gfile, readers and queues, parsing of
tf.train.Example, tf.strings, tf.data, tf.saved_model and tf.summary (with the TF 0.x summary
functions)."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine import data  # noqa: F401  (tf.data, tf.compat.v1.data)
from engine import summary  # noqa: F401  (tf.summary: FileWriter, scalar, merge, merge_all)
from engine.lib_io import tf_record as _tf_record
from engine.ops import encoding_ops as _encoding_ops, text_ops as _text_ops
from engine.ops import unicode_ops as _unicode_ops
from engine.ops import io_ops as _io_ops, parsing_ops as _parsing_ops
from engine.ops import queue_ops as _queue_ops, string_ops as _string_ops, train as _train
from engine.ops.accumulator_ops import ConditionalAccumulator  # noqa: F401
from engine.platform import gfile as _gfile
from engine.training import input as _input
from engine.proto.event_pb2 import Event, LogMessage, SessionLog  # noqa: F401
from engine.proto.histogram_pb2 import HistogramProto  # noqa: F401
from engine.proto.meta_graph_pb2 import TensorInfo  # noqa: F401
from engine.proto.summary_pb2 import Summary, SummaryMetadata  # noqa: F401
from engine.savedmodel import SAVED_MODEL as saved_model  # noqa: F401 (tf.saved_model, TF 1.x's)
from engine.summary.legacy import (audio_summary, histogram_summary,  # noqa: F401
                                   image_summary, scalar_summary)

# Queue-based input pipelines (TF 1.0-1.3).
FIFOQueue = _queue_ops.FIFOQueue
RandomShuffleQueue = _queue_ops.RandomShuffleQueue
PaddingFIFOQueue = _queue_ops.PaddingFIFOQueue
PriorityQueue = _queue_ops.PriorityQueue
QueueBase = _queue_ops.QueueBase
queue = _Namespace("tf.queue", FIFOQueue=FIFOQueue, RandomShuffleQueue=RandomShuffleQueue,
                   PaddingFIFOQueue=PaddingFIFOQueue, PriorityQueue=PriorityQueue,
                parse_sequence_example=_parsing_ops.parse_sequence_example,
                   QueueBase=QueueBase)

# Readers of the queue pipelines: records of the files a queue of names gives.
ReaderBase = _io_ops.ReaderBase
TFRecordReader = _io_ops.TFRecordReader
TextLineReader = _io_ops.TextLineReader
FixedLengthRecordReader = _io_ops.FixedLengthRecordReader
WholeFileReader = _io_ops.WholeFileReader
read_file = _io_ops.read_file
matching_files = _io_ops.matching_files
write_file = _io_ops.write_file
string_join = _string_ops.string_join
strings = _Namespace("tf.strings", join=string_join, format=_string_ops.string_format,
                     **{name: getattr(_unicode_ops, name) for name in (
                         "unicode_script", "unicode_transcode", "unicode_encode",
                         "unsorted_segment_join", "unicode_decode",
                         "unicode_decode_with_offsets", "unicode_split",
                         "unicode_split_with_offsets", "bytes_split")}, ngrams=_text_ops.ngrams)

# tf.parse_example and its feature configurations, also under tf.io.
_PARSING = {name: getattr(_parsing_ops, name) for name in (
    "parse_example", "parse_single_example", "FixedLenFeature", "VarLenFeature",
    "FixedLenSequenceFeature", "SparseFeature", "parse_single_sequence_example", "decode_raw",
    "decode_csv")}
globals().update(_PARSING)

# TFRecord files: tf.python_io, and the same names in tf.io.
_TF_RECORD = {name: getattr(_tf_record, name) for name in (
    "TFRecordWriter", "tf_record_iterator", "TFRecordOptions", "TFRecordCompressionType")}
python_io = _Namespace("tf.python_io", **_TF_RECORD)
# The encodings: tf.io.encode_base64, ..., and their top-level names (engine/api/aliases.py).
_ENCODINGS = {name: getattr(_encoding_ops, name) for name in (
    "encode_base64", "decode_base64", "decode_compressed", "serialize_tensor", "parse_tensor",
    "decode_json_example")}
io = _Namespace("tf.io", write_graph=_train.write_graph, read_file=read_file,
                PaddingFIFOQueue=PaddingFIFOQueue, PriorityQueue=PriorityQueue,
                parse_sequence_example=_parsing_ops.parse_sequence_example,
                write_file=write_file, matching_files=matching_files,
                match_filenames_once=_input.match_filenames_once, **_TF_RECORD, **_PARSING,
                **_ENCODINGS)

gfile = _Namespace("tf.gfile", **{name: getattr(_gfile, name) for name in (
    "Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory",
    "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk")})
