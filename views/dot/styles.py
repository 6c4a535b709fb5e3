"""Colours: op families, devices, and time/memory scales, each with the legend entries it needs."""

from __future__ import annotations

import math

from engine.framework import op_families

# Family -> ops. Names matter more than this table for two families: gradient (ops ending in
# Grad, nodes under gradients/) and training (Apply*); see op_family.
FAMILY_OPS = {
    "math": {
        "Add", "AddV2", "AddN", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Neg",
        "MatMul", "BatchMatMul", "BatchMatMulV2", "Sum", "Mean", "Prod", "Max", "Min", "ArgMax",
        "ArgMin", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Pow", "Abs", "Sign",
        "Maximum", "Minimum", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
        "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Cast", "Reciprocal", "Tanh",
        "Sigmoid", "SquaredDifference", "Cumsum", "Floor", "Ceil", "Round", "Select",
        "SelectV2", "Range", "Sin", "Cos", "BiasAdd", "Mod", "Inv",
    },
    "array": {
        "Const", "Identity", "IdentityN", "Reshape", "Shape", "ShapeN", "Size", "Rank",
        "Fill", "ZerosLike", "OnesLike", "Concat", "ConcatV2", "ConcatOffset", "Split",
        "SplitV", "Slice", "StridedSlice", "Squeeze", "ExpandDims", "Tile", "Transpose",
        "Pack", "Unpack", "Gather", "GatherV2", "GatherNd", "Pad", "PadV2", "OneHot",
        "BroadcastTo", "BroadcastGradientArgs", "StopGradient", "Placeholder",
        "PlaceholderWithDefault", "PreventGradient", "DynamicStitch", "Where", "Unique",
        "InvertPermutation", "ReverseV2", "_Arg", "_Retval", "Snapshot", "CheckNumerics",
    },
    "nn": {
        "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softmax", "LogSoftmax", "Conv2D",
        "DepthwiseConv2dNative", "MaxPool", "AvgPool", "FusedBatchNorm", "FusedBatchNormV3",
        "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "LRN",
        "L2Loss", "InTopK", "InTopKV2", "TopKV2", "Dropout", "LeakyRelu",
    },
    "state": {
        "Variable", "VariableV2", "VarHandleOp", "ReadVariableOp", "AssignVariableOp",
        "AssignAddVariableOp", "AssignSubVariableOp", "VarIsInitializedOp", "Assign",
        "AssignAdd", "AssignSub", "IsVariableInitialized", "TemporaryVariable",
        "DestroyTemporaryVariable", "ScatterUpdate", "ScatterAdd", "ScatterSub", "CountUpTo",
        "ResourceGather", "ResourceScatterAdd", "ResourceScatterUpdate",
    },
    # Control flow v1 and v2 (functional ops), and the no-ops that only order others.
    "control": op_families.CONTROL_FLOW | op_families.FUNCTIONAL | {"NoOp", "_SwitchN"},
    "random": {
        "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal",
        "RandomShuffle", "Multinomial", "RandomGamma", "RandomPoisson",
        "StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
    },
    "io": {
        "SaveV2", "RestoreV2", "MergeV2Checkpoints", "ShardedFilename", "StringJoin",
        "ReadFile", "WriteFile", "Print", "PrintV2", "ScalarSummary", "HistogramSummary",
        "MergeSummary", "ImageSummary", "Assert", "StringFormat", "DecodeRaw", "TFRecordReaderV2",
        "ReaderReadV2", "FIFOQueueV2", "QueueEnqueueV2", "QueueDequeueV2", "QueueDequeueManyV2",
        "IteratorGetNext", "IteratorV2", "MakeIterator",
    },
    "sendrecv": op_families.SEND_RECV | {"Send", "Recv"},
}
_FAMILY_OF_OP = {op: family for family, ops in FAMILY_OPS.items() for op in ops}

# Pastel fills, one per family, readable under black text.
FAMILY_COLOURS = {
    "math": "#a6cee3", "array": "#e0e0e0", "nn": "#b2df8a", "state": "#fdbf6f",
    "control": "#cab2d6", "random": "#ffff99", "io": "#d9d9d9", "sendrecv": "#fb9a99",
    "gradient": "#ccebc5", "training": "#fccde5", "other": "#ffffff",
}
FAMILY_ORDER = list(FAMILY_COLOURS)

# One colour per device, in sorted device order; cluster backgrounds use the light twin.
DEVICE_COLOURS = ["#1f78b4", "#e31a1c", "#33a02c", "#ff7f00", "#6a3d9a", "#b15928",
                  "#a6761d", "#666666"]
DEVICE_FILLS = ["#d6e6f4", "#f9d1d1", "#d6ecd2", "#ffe5cc", "#e1d8ea", "#efdccf",
                "#ede3d1", "#e6e6e6"]

# Sequential scale (ColorBrewer YlOrRd), light = cheap, dark = costly; NO_STATS for no record.
SCALE_COLOURS = ["#ffffb2", "#fed976", "#feb24c", "#fd8d3c", "#f03b20", "#bd0026"]
NO_STATS = "#f2f2f2"
DARK_FROM = 4  # scale colours from here on take white text


# A graph diff (views/graph_diff.py): what happened to the nodes a node or box stands for.
DIFF_COLOURS = {"added": "#b2df8a", "removed": "#fb9a99", "changed": "#fdbf6f",
                "unchanged": "#f2f2f2"}


def diff_status(statuses):
    """The diff colour of a box of nodes with these statuses (None: unchanged): all added,
    all removed, else changed when any node differs.

    >>> diff_status(["added", "added"]), diff_status([None, "added"]), diff_status([None])
    ('added', 'changed', 'unchanged')
    """
    found = set(statuses)
    if found == {"added"} or found == {"removed"}:
        return found.pop()
    return "unchanged" if found <= {None} else "changed"


def op_family(op, name=""):
    """The family of an op (and node name: gradients are recognised by name too).

    >>> op_family("MatMul"), op_family("ApplyAdam"), op_family("ReluGrad")
    ('math', 'training', 'gradient')
    >>> op_family("MatMul", "gradients/dense/MatMul_grad/MatMul"), op_family("Foo")
    ('gradient', 'other')
    """
    if op in FAMILY_OPS["sendrecv"]:
        return "sendrecv"
    if op.startswith(("Apply", "ResourceApply", "SparseApply", "ResourceSparseApply")):
        return "training"
    if op.endswith("Grad") or ("gradients" in name
                               and any(_is_gradients_scope(p) for p in name.split("/")[:-1])):
        return "gradient"
    return _FAMILY_OF_OP.get(op, "other")


def _is_gradients_scope(part):
    """tf.gradients' scope, uniquified or not: gradients, gradients_1, ..."""
    return part == "gradients" or part.startswith("gradients_") and part[10:].isdigit()


def device_palette(devices):
    """Device -> (line colour, fill colour), by sorted device name.

    >>> device_palette(["/cpu:1", "/cpu:0"])["/cpu:1"]
    ('#e31a1c', '#f9d1d1')
    """
    return {device: (DEVICE_COLOURS[number % len(DEVICE_COLOURS)],
                     DEVICE_FILLS[number % len(DEVICE_FILLS)])
            for number, device in enumerate(sorted(devices))}


def short_device(device):
    """A device string without its job/replica/task, as a label.

    >>> short_device("/job:localhost/replica:0/task:0/device:CPU:1"), short_device("/cpu:0")
    ('CPU:1', '/cpu:0')
    """
    return device.rpartition("device:")[2] if "device:" in device else device


def scale_bin(value, maximum):
    """Which colour of SCALE_COLOURS a value gets: log-scaled against the largest value.

    >>> [scale_bin(v, 1000) for v in (0, 1, 10, 100, 1000)]
    [0, 0, 2, 4, 5]
    """
    if value <= 0 or maximum <= 0:
        return 0
    ratio = math.log1p(value) / math.log1p(maximum)
    return min(len(SCALE_COLOURS) - 1, int(ratio * len(SCALE_COLOURS)))


def scale_edges(maximum):
    """The lowest value of each colour bin, for the legend (the inverse of scale_bin).

    >>> [round(edge) for edge in scale_edges(1000)]
    [0, 2, 9, 31, 99, 315]
    """
    return [math.expm1(math.log1p(maximum) * number / len(SCALE_COLOURS))
            for number in range(len(SCALE_COLOURS))]


def format_time(micros):
    """A duration in microseconds, short.

    >>> format_time(3), format_time(1500), format_time(2_500_000)
    ('3 us', '1.5 ms', '2.5 s')
    """
    if micros >= 1_000_000:
        return f"{micros / 1_000_000:.3g} s"
    if micros >= 1000:
        return f"{micros / 1000:.3g} ms"
    return f"{micros:.3g} us"


def format_bytes(count):
    """A byte count, short.

    >>> format_bytes(8), format_bytes(4096), format_bytes(3 * 2**20)
    ('8 B', '4 KiB', '3 MiB')
    """
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:.0f} B"
