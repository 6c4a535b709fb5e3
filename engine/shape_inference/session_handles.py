"""Shape functions of the session-handle ops, the sparse conditional accumulator,
OptionsDataset, IdentityReaderV2, Fact, CheckNumericsV2, CheckPinned and BatchFunction
(TensorFlow's data_flow_ops.cc, dataset_ops.cc, io_ops.cc, user_ops.cc, array_ops.cc,
batch_ops.cc). Ops without outputs (DeleteSessionTensor, the accumulators' apply and
set-step) need none; `unknown` is TensorFlow's UnknownShape."""

from engine.shape_inference.control_flow import unknown
from engine.shape_inference.elementwise import unchanged


def _scalar(attrs, inputs):
    return []


SHAPE_FUNCTIONS = {
    "OptionsDataset": _scalar,
    "GetSessionHandle": _scalar,
    "GetSessionHandleV2": _scalar,
    "GetSessionTensor": unknown,
    "SparseConditionalAccumulator": lambda attrs, inputs: [2],
    "AccumulatorNumAccumulated": _scalar,
    "SparseAccumulatorTakeGradient": unknown,
    "IdentityReaderV2": _scalar,
    "Fact": unknown,
    "CheckNumericsV2": unchanged,
    "CheckPinned": unchanged,
    "BatchFunction": unknown,
}
