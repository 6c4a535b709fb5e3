"""tf.train.summary_iterator: the Event protos of an event file, in order, CRCs checked.

The engine's own TFRecord reading (parsers/ has the readers for users; the engine imports
nothing of ours). A truncated last record ends the iteration, as TensorFlow's reader does
for a file still being written.
"""

import struct

from engine import errors
from engine.proto import event_pb2
from engine.summary.record_writer import masked_crc32c


def _records(path):
    with open(path, "rb") as f:
        while True:
            header = f.read(12)
            if len(header) < 12:
                return
            length, length_crc = struct.unpack("<QI", header)
            if masked_crc32c(header[:8]) != length_crc:
                raise errors.DataLossError(None, None, f"corrupted record in {path}")
            data, footer = f.read(length), f.read(4)
            if len(data) < length or len(footer) < 4:
                return
            if masked_crc32c(data) != struct.unpack("<I", footer)[0]:
                raise errors.DataLossError(None, None, f"corrupted record in {path}")
            yield data


def summary_iterator(path):
    """Yields each Event of the event file at `path`."""
    for data in _records(path):
        yield event_pb2.Event.FromString(data)
