"""Shape functions of the elementwise ops: unary ops keep their input's shape, binary ones
broadcast, AddN and Select merge; scalar-valued ops."""

from engine.framework import op_families
from engine.kernels.fused_chain import Chain
from engine.shape_inference.dims import ShapeError, _dims, broadcast, merge, merge_dim
from engine.shape_inference.partial_values import _from_value, _ints


def unchanged(attrs, inputs):
    return _dims(inputs[0])


def binary(attrs, inputs):
    return broadcast(_dims(inputs[0]), _dims(inputs[1]))


def fused_elementwise(attrs, inputs):
    """_FusedElementwise: every input broadcast together, as its chain of elementwise ops; a
    source's (RandomUniform's, Fill's) shape input counts as the shape it asks for (its value,
    where known); a chain ending in a Sum (keep_dims false) loses the dims its axes name."""
    try:
        chain = Chain.of_attrs(attrs)
    except (KeyError, TypeError, ValueError):
        return None  # a damaged chain: its kernel says what is wrong when it runs
    result = []
    for index, info in enumerate(inputs):
        if index != chain.axes_input:
            result = broadcast(result, _from_value(info) if index in chain.shape_inputs
                               else _dims(info))
    if not chain.reduces:
        return result
    axes = _ints(inputs[chain.axes_input])
    if result is None or axes is None:
        return None
    rank = len(result)
    removed = {a % rank for a in axes} if rank else set()
    return [d for i, d in enumerate(result) if i not in removed]


def add_n(attrs, inputs):
    """The inputs merged from the last one back, as TensorFlow's AddN shape function, which
    names the input that failed ("From merging shape 1 with other shapes.")."""
    if not inputs:
        return None
    result = _dims(inputs[-1])
    for i in range(len(inputs) - 2, -1, -1):
        try:
            result = merge(_dims(inputs[i]), result)
        except ShapeError as error:
            raise ShapeError(f"{error}\n\tFrom merging shape {i} with other shapes.") from None
    return result


def select(attrs, inputs):
    """t and e merged; a condition of rank > 1 (or with scalar t and e) merged in too, as
    TensorFlow's shape function does (tf.where of a tiled mask gets the mask's shape)."""
    data = merge(_dims(inputs[1]), _dims(inputs[2]))
    cond = _dims(inputs[0])
    if cond is None or data is None or len(cond) == 0:
        return data
    if len(cond) != 1 or len(data) == 0:
        return merge(data, cond)
    merge(cond, data[:1])
    return data


def select_v2(attrs, inputs):
    return broadcast(broadcast(_dims(inputs[0]), _dims(inputs[1])), _dims(inputs[2]))


def scalar(attrs, inputs):
    return []


# Ops whose one output has the shape of their first input: the elementwise unary ops and
# activation gradients, and these.
UNARY = op_families.UNARY | op_families.ACTIVATION_GRADS | {
    "LeakyRelu", "Cast", "Identity", "StopGradient", "PreventGradient", "Snapshot",
    "CheckNumerics", "ZerosLike", "OnesLike", "Softmax", "LogSoftmax", "BiasAdd", "BiasAddV1",
    "ReverseV2", "Cumsum", "Cumprod", "CumulativeLogsumexp", "ClipByValue", "Assign", "AssignAdd", "AssignSub",
    "RandomShuffle", "BesselI0", "BesselI1", "BesselK0", "BesselK0e",
    "BesselK1", "BesselK1e", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1",
    "Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence"}

BINARY = op_families.BINARY

SCALARS = ("Size", "Rank", "L2Loss", "IsVariableInitialized", "VarIsInitializedOp",
           "ResourceCountUpTo", "MutexV2", "MutexLock",
           "VarHandleOp", "ScalarSummary", "MergeSummary", "HistogramSummary", "ImageSummary",
           "AudioSummaryV2", "TensorSummaryV2")


def bias_add(attrs, inputs):
    """BiasAdd: the value's shape, its channel dim (last, or 1 in NCHW) merged with the bias's."""
    dims, bias = _dims(inputs[0]), _dims(inputs[1])
    if dims is None or bias is None or not dims:
        return dims
    channel = 1 if attrs.get("data_format") in (b"NCHW", "NCHW") and len(dims) > 2 else -1
    dims = list(dims)
    dims[channel] = merge_dim(dims[channel], bias[0] if bias else None)
    return dims


def assign(attrs, inputs):
    """Assign: the ref's and value's shapes merged when validate_shape, else the value's."""
    if attrs.get("validate_shape", True):
        return merge(_dims(inputs[0]), _dims(inputs[1]))
    return _dims(inputs[1])


# Ops of UNARY's shape that TensorFlow also checks against a second input.
CHECKED_SHAPE_FUNCTIONS = {"BiasAdd": bias_add, "Assign": assign}
