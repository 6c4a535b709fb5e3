"""Issue 15's TF1 APIs: debug ops and asserts, (later) everyday ops, optimizers, queues.

engine/api.py star-imports this module (`__all__` below) and adds TRAIN_BREADTH to tf.train.
"""

from engine.framework.api_namespace import Namespace
from engine.ops import check_ops as _check_ops, debug_ops as _debug_ops
from engine.ops.functional_ops import foldl, foldr, map_fn, scan
from engine.ops import linalg_ops as _linalg, nn_extra_ops as _nn_extra
from engine.ops import nn_conv_norm_ops as _nn_conv_norm
from engine.ops import optimizers_tf1 as _optimizers_tf1
from engine.ops import io_ops as _io_ops, string_ops as _string_ops
from engine.ops import queue_ops as _queue_ops, segment_ops as _segment
from engine.ops.shuffle_ops import random_shuffle
from engine.lib_io import tf_record as _tf_record
from engine.ops import parsing_ops as _parsing_ops
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.proto import example_pb2 as _example_pb2, feature_pb2 as _feature_pb2
from engine.training import coordinator as _coordinator, input as _input
from engine.training import moving_averages as _moving_averages
from engine.training import queue_runner as _queue_runner
from engine.ops.logging_ops import Assert as _Assert
from engine.ops.math_ops import is_finite as _is_finite, is_inf as _is_inf, is_nan as _is_nan

Print = _debug_ops.Print
check_numerics = _debug_ops.check_numerics
verify_tensor_all_finite = _debug_ops.verify_tensor_all_finite
add_check_numerics_ops = _debug_ops.add_check_numerics_ops
py_func = _debug_ops.py_func

_ASSERTS = {name: getattr(_check_ops, name) for name in _check_ops.ASSERTS}
globals().update(_ASSERTS)

debugging = Namespace("tf.debugging", Assert=_Assert, check_numerics=check_numerics,
                      assert_all_finite=verify_tensor_all_finite, is_finite=_is_finite,
                      is_inf=_is_inf, is_nan=_is_nan, **_ASSERTS)

_LINALG = ("matrix_inverse", "matrix_determinant", "cholesky", "einsum", "tensordot", "trace",
           "diag", "diag_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag",
           "matrix_band_part")
_SEGMENT = ("segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
            "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
            "unsorted_segment_prod", "unique", "setdiff1d", "scatter_nd", "sequence_mask",
            "meshgrid", "linspace")
globals().update({name: getattr(_linalg, name) for name in _LINALG})
globals().update({name: getattr(_segment, name) for name in _SEGMENT})
lin_space = linspace  # noqa: F821  (TF 1.x's name, set just above)
bincount = _segment.bincount_v1

# tf.nn and tf.losses members, added to those namespaces by engine/api.py.
NN_BREADTH = {"top_k": _segment.top_k, "xw_plus_b": _nn_extra.xw_plus_b,
              "conv1d": _nn_extra.conv1d, "conv2d_transpose": _nn_extra.conv2d_transpose,
              "crelu": _nn_extra.crelu,
              "weighted_cross_entropy_with_logits": _nn_extra.weighted_cross_entropy_with_logits,
              **{name: getattr(_nn_conv_norm, name) for name in (
                  "depthwise_conv2d", "depthwise_conv2d_native", "lrn",
                  "local_response_normalization")}}
space_to_batch_nd = _nn_conv_norm.space_to_batch_nd
batch_to_space_nd = _nn_conv_norm.batch_to_space_nd
LOSSES_BREADTH = {"huber_loss": _nn_extra.huber_loss,
                  "get_total_loss": _nn_extra.get_total_loss,
                  "get_regularization_losses": _nn_extra.get_regularization_losses}
LINALG_BREADTH = Namespace("tf.linalg", inv=_linalg.matrix_inverse,
                           det=_linalg.matrix_determinant, cholesky=_linalg.cholesky,
                           einsum=_linalg.einsum, tensordot=_linalg.tensordot,
                           trace=_linalg.trace, diag=_linalg.matrix_diag,
                           diag_part=_linalg.matrix_diag_part,
                           set_diag=_linalg.matrix_set_diag,
                           band_part=_linalg.matrix_band_part)

# Queue-based input pipelines (TF 1.0-1.3).
FIFOQueue = _queue_ops.FIFOQueue
RandomShuffleQueue = _queue_ops.RandomShuffleQueue
QueueBase = _queue_ops.QueueBase
queue = Namespace("tf.queue", FIFOQueue=FIFOQueue, RandomShuffleQueue=RandomShuffleQueue,
                  QueueBase=QueueBase)

# Readers of the queue pipelines: records of the files a queue of names gives.
ReaderBase = _io_ops.ReaderBase
TFRecordReader = _io_ops.TFRecordReader
TextLineReader = _io_ops.TextLineReader
FixedLengthRecordReader = _io_ops.FixedLengthRecordReader
WholeFileReader = _io_ops.WholeFileReader
read_file = _io_ops.read_file
write_file = _io_ops.write_file
string_join = _string_ops.string_join
strings = Namespace("tf.strings", join=string_join)

# TFRecord files: tf.python_io, and the same names in tf.io (added by engine/api.py).
IO_BREADTH = {name: getattr(_tf_record, name) for name in (
    "TFRecordWriter", "tf_record_iterator", "TFRecordOptions", "TFRecordCompressionType")}
python_io = Namespace("tf.python_io", **IO_BREADTH)
# tf.parse_example and its feature configurations, also under tf.io.
_PARSING = {name: getattr(_parsing_ops, name) for name in (
    "parse_example", "parse_single_example", "FixedLenFeature", "VarLenFeature", "decode_raw",
    "decode_csv")}
globals().update(_PARSING)
IO_BREADTH.update(_PARSING, read_file=read_file, write_file=write_file)
# tf.train.Example and its parts: the protocol messages (engine/proto/example.proto).
_EXAMPLE_MESSAGES = {
    **{name: getattr(_example_pb2, name) for name in ("Example", "SequenceExample")},
    **{name: getattr(_feature_pb2, name) for name in (
        "Features", "Feature", "FeatureList", "FeatureLists", "BytesList", "FloatList",
        "Int64List")}}

# Added to tf.train by engine/api.py.
TRAIN_BREADTH = {
    **_EXAMPLE_MESSAGES,
    "Coordinator": _coordinator.Coordinator, "QueueRunner": _queue_runner.QueueRunner,
    "add_queue_runner": _queue_runner.add_queue_runner,
    "start_queue_runners": _queue_runner.start_queue_runners,
    "queue_runner": Namespace("tf.train.queue_runner", QueueRunner=_queue_runner.QueueRunner,
                              add_queue_runner=_queue_runner.add_queue_runner,
                              start_queue_runners=_queue_runner.start_queue_runners),
    "ExponentialMovingAverage": _moving_averages.ExponentialMovingAverage,
    **{name: getattr(_optimizers_tf1, name) for name in (
        "AdadeltaOptimizer", "FtrlOptimizer", "ProximalGradientDescentOptimizer")},
    **{name: getattr(_input, name) for name in (
        "limit_epochs", "input_producer", "string_input_producer", "range_input_producer",
        "slice_input_producer", "batch", "shuffle_batch")},
}

__all__ = ["space_to_batch_nd", "batch_to_space_nd", "python_io", "IO_BREADTH", *_PARSING,
           "SparseTensor", "SparseTensorValue", "Print", "check_numerics",
           "verify_tensor_all_finite", "add_check_numerics_ops", "py_func", "debugging",
           "TRAIN_BREADTH", "NN_BREADTH", "LOSSES_BREADTH",
           "lin_space", "bincount", "FIFOQueue", "RandomShuffleQueue", "QueueBase", "queue",
           "ReaderBase", "TFRecordReader", "TextLineReader", "FixedLengthRecordReader",
           "WholeFileReader", "read_file", "write_file", "string_join", "strings",
           "random_shuffle", "map_fn", "scan", "foldl", "foldr",
           *_ASSERTS, *_LINALG, *_SEGMENT]
