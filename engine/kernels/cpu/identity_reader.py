"""The CPU kernel of IdentityReaderV2 (tf.IdentityReader): each work item the queue gives is
one record, its own key and value (TensorFlow's identity_reader_op.cc); the reads, counters
and resets are the other readers' (engine/kernels/cpu/readers.py)."""

from engine.kernels import register
from engine.kernels.cpu.readers import _create


def _work_item(work, node_def):
    record = work.encode()
    return iter([(record, record)])


@register("IdentityReaderV2")
def identity_reader_v2(ctx):
    return _create(ctx, _work_item)
