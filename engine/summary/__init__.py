"""tf.summary: FileWriter (TensorBoard event files) and the summary ops.

>>> import engine as tf
>>> tf.summary.FileWriter is tf.train.SummaryWriter
True
"""

from engine.proto.event_pb2 import Event, SessionLog, TaggedRunMetadata  # noqa: F401
from engine.proto.summary_pb2 import Summary, SummaryDescription, SummaryMetadata  # noqa: F401
from engine.summary.media import audio, histogram, image, tensor_summary, text  # noqa: F401
from engine.summary.ops import merge, merge_all, scalar  # noqa: F401
from engine.summary.v2_graph_helpers import (all_v2_summary_ops,  # noqa: F401
                                             get_summary_description, initialize)
from engine.summary.writer import FileWriter, SummaryWriter  # noqa: F401
from engine.summary.writer_cache import FileWriterCache  # noqa: F401

from engine.framework.api_namespace import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("tf.summary")
