"""tf.train.summary_iterator: the Event protos of an event file, in order, CRCs checked.

As TensorFlow's, it reads through tf_record_iterator (engine/lib_io/tf_record.py): a header
cut short ends the iteration (a file still being written), a record cut short or a CRC that
does not match is a DataLossError naming the file.
"""

from engine.lib_io.tf_record import tf_record_iterator
from engine.proto import event_pb2


def summary_iterator(path):
    """Yields each Event of the event file at `path`."""
    for data in tf_record_iterator(path):
        yield event_pb2.Event.FromString(data)
