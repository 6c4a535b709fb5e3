"""Static shape inference: TensorFlow's shape functions for the ops the engine runs.

`infer_shapes(op_def, attrs, inputs)` gives the TensorShape of each output from the inputs'
static shapes and, where known, their constant values (a Const feeding Reshape's shape).
One table maps op types to shape functions; ops without one get unknown shapes. Shapes are
handled as lists of int-or-None (None for the whole list when the rank is unknown).
Incompatible static shapes raise ShapeError (a ValueError), as TensorFlow's graph building.
"""

from typing import NamedTuple

import numpy as np

from engine.kernels import slicing
from engine.kernels.cpu_nn import conv_output_size
from engine.tensor_shape import TensorShape


class InputInfo(NamedTuple):
    dtype: object
    shape: TensorShape
    value: object = None  # the statically known NumPy value, or None
    # A 1-D shape tensor's partially known value as dims (None where unknown): TensorFlow's
    # constant_value_as_shape (Shape of a partially known tensor, Pack, ConcatV2, ...).
    shape_value: object = None


class ShapeError(ValueError):
    """Static shapes TensorFlow would reject while building the graph."""


def _dims(info):
    shape = info.shape
    if shape is None or not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    return None if shape.ndims is None else shape.as_list()


def _value(info):
    return None if info.value is None else np.asarray(info.value)


def num_outputs(op_def, attrs):
    count = 0
    for arg in op_def.output_arg:
        if arg.number_attr:
            count += int(attrs.get(arg.number_attr, 0))
        elif arg.type_list_attr:
            count += len(attrs.get(arg.type_list_attr) or ())
        else:
            count += 1
    return count


def infer_shapes(op_def, attrs, inputs):
    """The static output shapes of a node of `op_def` with decoded `attrs` and InputInfos."""
    count = num_outputs(op_def, attrs)
    fn = SHAPE_FUNCTIONS.get(op_def.name)
    if fn is None:
        return [TensorShape(None) for _ in range(count)]
    try:
        result = fn(attrs, list(inputs))
    except slicing.SliceError as error:
        raise ShapeError(str(error)) from None
    if count == 1 or not isinstance(result, tuple):
        result = (result,) * count if isinstance(result, (list, type(None))) else result
    return [TensorShape(dims) for dims in result][:count] if count else []


# --- helpers on dims lists ---

def merge_dim(a, b):
    if a is None:
        return b
    if b is not None and a != b:
        raise ShapeError(f"Dimensions must be equal, but are {a} and {b}")
    return a


def merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeError(f"Shapes must be equal rank, but are {len(a)} and {len(b)}")
    return [merge_dim(x, y) for x, y in zip(a, b)]


def broadcast(a, b):
    """BroadcastBinaryOpOutputShapeFn on dims lists (None for unknown)."""
    if a is None or b is None:
        return None
    rank = max(len(a), len(b))
    a, b = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(y if x is None else x)
        elif x == y:
            out.append(x)
        else:
            raise ShapeError(f"Dimensions must be equal, but are {x} and {y}")
    return out


def _ints(info):
    value = _value(info)
    return None if value is None else value.reshape(-1).tolist()


def _unknown(rank):
    return None if rank is None else [None] * rank


def _attr_shape(attrs, name="shape"):
    shape = attrs.get(name)
    if shape is None:
        return None
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    return None if shape.ndims is None else shape.as_list()


def _from_value(info):
    """A shape given as a tensor (Fill's dims, Reshape's shape): known entries, -1 unknown."""
    values = _ints(info)
    if values is not None:
        return [None if v < 0 else v for v in values]
    if info.shape_value is not None:
        return list(info.shape_value)
    dims = _dims(info)
    if dims and dims[0] is not None:
        return [None] * dims[0]
    return None


# --- shape functions ---

def unchanged(attrs, inputs):
    return _dims(inputs[0])


def binary(attrs, inputs):
    return broadcast(_dims(inputs[0]), _dims(inputs[1]))


def add_n(attrs, inputs):
    result = None
    for info in inputs:
        result = merge(result, _dims(info))
    return result


def select(attrs, inputs):
    return merge(_dims(inputs[1]), _dims(inputs[2]))


def select_v2(attrs, inputs):
    return broadcast(broadcast(_dims(inputs[0]), _dims(inputs[1])), _dims(inputs[2]))


def reduction(attrs, inputs):
    dims, axes = _dims(inputs[0]), _ints(inputs[1])
    keep = attrs.get("keep_dims", False)
    if dims is None:
        return None
    if axes is None:
        return _unknown(len(dims)) if keep else None
    rank = len(dims)
    for axis in axes:
        if not -rank <= axis < max(rank, 1):
            raise ShapeError(f"Invalid reduction dimension {axis} for input with {rank} "
                             f"dimensions.")
    axes = {a % rank for a in axes} if rank else set()
    return [1 if i in axes else d for i, d in enumerate(dims) if keep or i not in axes]


def arg_reduction(attrs, inputs):
    dims, axis = _dims(inputs[0]), _ints(inputs[1])
    if dims is None:
        return None
    if axis is None:
        return _unknown(len(dims) - 1)
    axis = axis[0] % len(dims)
    return dims[:axis] + dims[axis + 1:]


def mat_mul(attrs, inputs):
    a, b = _dims(inputs[0]), _dims(inputs[1])
    a = a if a is not None else [None, None]
    b = b if b is not None else [None, None]
    if attrs.get("transpose_a"):
        a = a[::-1]
    if attrs.get("transpose_b"):
        b = b[::-1]
    if a[1] is not None and b[0] is not None and a[1] != b[0]:
        raise ShapeError(f"Dimensions must be equal, but are {a[1]} and {b[0]}")
    return [a[0], b[1]]


def batch_mat_mul(attrs, inputs):
    x, y = _dims(inputs[0]), _dims(inputs[1])
    if x is None or y is None:
        return None
    if attrs.get("adj_x"):
        x = x[:-2] + [x[-1], x[-2]]
    if attrs.get("adj_y"):
        y = y[:-2] + [y[-1], y[-2]]
    merge_dim(x[-1], y[-2])
    return broadcast(x[:-2], y[:-2]) + [x[-2], y[-1]]


def _nhwc(attrs, dims):
    if attrs.get("data_format") == b"NCHW":
        return [dims[0], dims[2], dims[3], dims[1]]
    return dims


def _from_nhwc(attrs, dims):
    if attrs.get("data_format") == b"NCHW":
        return [dims[0], dims[3], dims[1], dims[2]]
    return dims


def _hw(attrs, values):
    values = values or [1, 1, 1, 1]
    return (values[2], values[3]) if attrs.get("data_format") == b"NCHW" \
        else (values[1], values[2])


def _spatial(attrs, dims, window, channels):
    if dims is None:
        return [None] * 4
    dims = _nhwc(attrs, dims)
    stride, dilation = _hw(attrs, attrs.get("strides")), _hw(attrs, attrs.get("dilations"))
    explicit = attrs.get("explicit_paddings") or [0] * 8
    pads = _hw(attrs, [tuple(explicit[i:i + 2]) for i in range(0, 8, 2)])
    out = [dims[0]]
    for i in range(2):
        size = dims[1 + i]
        out.append(None if size is None or window[i] is None else conv_output_size(
            size, window[i], stride[i], dilation[i], attrs.get("padding"), pads[i])[0])
    return _from_nhwc(attrs, out + [channels if channels is not None else dims[3]])


def conv2d(attrs, inputs):
    filters = _dims(inputs[1]) or [None] * 4
    return _spatial(attrs, _dims(inputs[0]), filters[:2], filters[3])


def pool(attrs, inputs):
    return _spatial(dict(attrs, dilations=None), _dims(inputs[0]),
                    _hw(attrs, attrs.get("ksize")), None)


def shape_of(attrs, inputs):
    dims = _dims(inputs[0])
    return [None if dims is None else len(dims)]


def reshape(attrs, inputs):
    target = _ints(inputs[1])
    if target is None:
        return _from_value(inputs[1])
    dims = _dims(inputs[0])
    if -1 in target and dims is not None and None not in dims:
        known = int(np.prod([d for d in target if d != -1]))
        size = int(np.prod(dims))
        if known and size % known == 0:
            return [size // known if d == -1 else d for d in target]
        raise ShapeError(f"Cannot reshape a tensor with {size} elements to shape {target}")
    if -1 not in target and dims is not None and None not in dims \
            and int(np.prod(dims)) != int(np.prod(target)):
        raise ShapeError(f"Cannot reshape a tensor with {int(np.prod(dims))} elements to "
                         f"shape {target} ({int(np.prod(target))} elements)")
    return [None if d == -1 else d for d in target]


def transpose(attrs, inputs):
    dims, perm = _dims(inputs[0]), _ints(inputs[1])
    if perm is None:
        return _unknown(len(dims)) if dims is not None else _from_value_rank(inputs[1])
    if dims is None:
        return [None] * len(perm)
    return [dims[p] for p in perm]


def _from_value_rank(info):
    dims = _dims(info)
    return [None] * dims[0] if dims and dims[0] is not None else None


def _concat(values, axis_info):
    shapes = [_dims(v) for v in values]
    axis = _ints(axis_info)
    rank = next((len(s) for s in shapes if s is not None), None)
    if rank is None:
        return None
    if axis is None:
        return [None] * rank
    axis = axis[0] % rank
    out = None
    total = 0
    for shape in shapes:
        if shape is None:
            total = None
            continue
        if len(shape) != rank:
            raise ShapeError(f"Shape must be rank {rank} but is rank {len(shape)}")
        rest = shape[:axis] + [None] + shape[axis + 1:]
        out = merge(out, rest)
        total = None if total is None or shape[axis] is None else total + shape[axis]
    out[axis] = total
    return out


def pack(attrs, inputs):
    merged = add_n(attrs, inputs)
    if merged is None:
        return None
    axis = attrs.get("axis", 0) % (len(merged) + 1)
    return merged[:axis] + [len(inputs)] + merged[axis:]


def unpack(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is None:
        return None
    axis = attrs.get("axis", 0) % len(dims)
    return dims[:axis] + dims[axis + 1:]


def split(attrs, inputs):
    axis, dims = _ints(inputs[0]), _dims(inputs[1])
    num = attrs["num_split"]
    if dims is None:
        return None
    if axis is None:
        return [None] * len(dims)
    axis = axis[0] % len(dims)
    size = dims[axis]
    if size is not None and size % num:
        raise ShapeError(f"Dimension size must be evenly divisible by {num} but is {size}")
    return dims[:axis] + [None if size is None else size // num] + dims[axis + 1:]


def split_v(attrs, inputs):
    dims, sizes, axis = _dims(inputs[0]), _ints(inputs[1]), _ints(inputs[2])
    num = attrs["num_split"]
    if dims is None or axis is None or sizes is None:
        return tuple([None] * len(dims) if dims is not None else None for _ in range(num))
    axis = axis[0] % len(dims)
    if -1 in sizes and dims[axis] is not None:
        sizes[sizes.index(-1)] = dims[axis] - sum(s for s in sizes if s != -1)
    return tuple(dims[:axis] + [None if s == -1 else s] + dims[axis + 1:] for s in sizes)


def slice_(attrs, inputs):
    dims, begin, size = _dims(inputs[0]), _ints(inputs[1]), _ints(inputs[2])
    if size is None:
        return _unknown(len(dims)) if dims is not None else _from_value_rank(inputs[2])
    out = []
    for i, s in enumerate(size):
        if s != -1:
            out.append(s)
        elif begin is not None and dims is not None and dims[i] is not None:
            out.append(dims[i] - begin[i])
        else:
            out.append(None)
    return out


def strided_slice(attrs, inputs):
    """As TensorFlow's: known strides suffice; a dim sliced by an unknown begin or end is
    unknown, a shrunk one drops out (x[i] of a (4, 5) x is (5,) for any i)."""
    dims = _dims(inputs[0])
    begin, end, strides = (_value(info) for info in inputs[1:4])
    if dims is None or strides is None:
        return None
    spec = {key: attrs.get(key, 0) for key in (
        "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")}
    if begin is None or end is None:
        dims = _unknown_slice_dims(dims, begin, end, strides, spec)
        zeros = np.zeros(np.size(strides), np.int64)
        begin = zeros if begin is None else begin
        end = zeros if end is None else end
    return slicing.strided_slice_shape(dims, begin=begin, end=end, strides=strides, **spec)


def _unknown_slice_dims(dims, begin, end, strides, spec):
    """`dims` with None for every input dim a slice with an unknown bound reads."""
    count = np.size(strides)
    index = slicing.strided_slice_index(len(dims), np.zeros(count, np.int64),
                                        np.zeros(count, np.int64), strides, **spec)
    explicit = sum(1 for item in index if item is not None and item is not Ellipsis)
    dims, dim = list(dims), 0
    for i, item in enumerate(index):
        if item is Ellipsis:
            dim += len(dims) - explicit
        elif item is not None:
            unknown_begin = begin is None and not spec["begin_mask"] >> i & 1
            unknown_end = end is None and not spec["end_mask"] >> i & 1
            if type(item) is not tuple and (unknown_begin or unknown_end):
                dims[dim] = None
            dim += 1
    return dims


def squeeze(attrs, inputs):
    dims = _dims(inputs[0])
    axes = attrs.get("squeeze_dims") or []
    if dims is None:
        return None
    if not axes:
        if None in dims:
            return None
        return [d for d in dims if d != 1]
    axes = {a % len(dims) for a in axes}
    for a in axes:
        if dims[a] not in (None, 1):
            raise ShapeError(f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                             f"{dims[a]}")
    return [d for i, d in enumerate(dims) if i not in axes]


def expand_dims(attrs, inputs):
    dims, axis = _dims(inputs[0]), _ints(inputs[1])
    if dims is None or axis is None:
        return None
    axis = axis[0] if axis[0] >= 0 else axis[0] + len(dims) + 1
    return dims[:axis] + [1] + dims[axis:]


def tile(attrs, inputs):
    dims, multiples = _dims(inputs[0]), _ints(inputs[1])
    if multiples is None:
        return _unknown(len(dims)) if dims is not None else _from_value_rank(inputs[1])
    if dims is None:
        dims = [None] * len(multiples)
    return [None if d is None else d * m for d, m in zip(dims, multiples)]


def pad(attrs, inputs):
    dims, paddings = _dims(inputs[0]), _value(inputs[1])
    if paddings is None:
        rank = len(dims) if dims is not None else (_dims(inputs[1]) or [None])[0]
        return _unknown(rank)
    paddings = paddings.reshape(-1, 2).tolist()
    if dims is None:
        dims = [None] * len(paddings)
    return [None if d is None else d + lo + hi for d, (lo, hi) in zip(dims, paddings)]


def fill(attrs, inputs):
    return _from_value(inputs[0])


def range_(attrs, inputs):
    start, limit, delta = (_value(info) for info in inputs)
    if start is None or limit is None or delta is None:
        return [None]
    start, limit, delta = start.item(), limit.item(), delta.item()
    if isinstance(start, int) and isinstance(limit, int) and isinstance(delta, int):
        return [max(0, (abs(limit - start) + abs(delta) - 1) // abs(delta))]
    return [max(0, int(np.ceil(abs((limit - start) / delta))))]


def gather_v2(attrs, inputs):
    params, indices, axis = _dims(inputs[0]), _dims(inputs[1]), _ints(inputs[2])
    if params is None or indices is None or axis is None:
        return None
    axis = axis[0] % len(params)
    batch_dims = attrs.get("batch_dims", 0) % (len(indices) + 1 if indices else 1)
    return params[:axis] + indices[batch_dims:] + params[axis + 1:]


def one_hot(attrs, inputs):
    dims, depth = _dims(inputs[0]), _ints(inputs[1])
    if dims is None:
        return None
    depth = None if depth is None else depth[0]
    axis = attrs.get("axis", -1)
    axis = len(dims) if axis == -1 else axis
    return dims[:axis] + [depth] + dims[axis:]


def const(attrs, inputs):
    return list(np.shape(attrs["value"]))


def placeholder_with_default(attrs, inputs):
    given = _attr_shape(attrs)
    return given if given is not None else _dims(inputs[0])


def random(attrs, inputs):
    return _from_value(inputs[0])


def identity_n(attrs, inputs):
    return tuple(_dims(info) for info in inputs)


def softmax_cross_entropy(attrs, inputs):
    logits = broadcast(_dims(inputs[0]), _dims(inputs[1])) or [None, None]
    return ([logits[0]], logits)


def sparse_softmax_cross_entropy(attrs, inputs):
    logits = _dims(inputs[0]) or [None, None]
    return (logits[:-1], logits)


def broadcast_to(attrs, inputs):
    return _from_value(inputs[1])


def scalar(attrs, inputs):
    return []


def where(attrs, inputs):
    dims = _dims(inputs[0])
    return [None, None if dims is None else len(dims)]


def concat_offset(attrs, inputs):
    return tuple(_dims(info) for info in inputs[1:])


UNARY = ("Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin",
         "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Erf", "Erfc",
         "Sigmoid", "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "Sign", "Round",
         "Floor", "Ceil", "Reciprocal", "Inv", "IsNan", "IsInf", "IsFinite", "LogicalNot",
         "LeakyRelu", "Cast", "Identity", "StopGradient", "PreventGradient", "Snapshot",
         "CheckNumerics", "ZerosLike", "OnesLike", "Softmax", "LogSoftmax", "BiasAdd",
         "BiasAddV1", "ReverseV2", "Cumsum", "Cumprod", "ClipByValue", "Assign", "AssignAdd",
         "AssignSub", "InvertPermutation", "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad",
         "TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
         "SoftplusGrad", "SoftsignGrad", "LeakyReluGrad", "RandomShuffle")
BINARY = ("Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Mod",
          "TruncateDiv", "TruncateMod", "DivNoNan", "Maximum", "Minimum", "Pow",
          "SquaredDifference", "Atan2", "Less", "LessEqual", "Greater", "GreaterEqual",
          "Equal", "NotEqual", "LogicalAnd", "LogicalOr")
REDUCTIONS = ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any")
SCALARS = ("Size", "Rank", "L2Loss", "IsVariableInitialized", "VarIsInitializedOp",
           "VarHandleOp")

SHAPE_FUNCTIONS = {
    **{op: unchanged for op in UNARY},
    **{op: binary for op in BINARY},
    **{op: reduction for op in REDUCTIONS},
    **{op: scalar for op in SCALARS},
    "AddN": add_n, "Select": select, "SelectV2": select_v2,
    "ArgMax": arg_reduction, "ArgMin": arg_reduction,
    "MatMul": mat_mul, "BatchMatMul": batch_mat_mul, "BatchMatMulV2": batch_mat_mul,
    "BatchMatMulV3": batch_mat_mul,
    "Conv2D": conv2d, "MaxPool": pool, "AvgPool": pool,
    "Shape": shape_of, "ShapeN": lambda attrs, inputs: tuple(shape_of(attrs, [i])
                                                             for i in inputs),
    "Reshape": reshape, "Transpose": transpose,
    "ConcatV2": lambda attrs, inputs: _concat(inputs[:-1], inputs[-1]),
    "Concat": lambda attrs, inputs: _concat(inputs[1:], inputs[0]),
    "Pack": pack, "Unpack": unpack, "Split": split, "SplitV": split_v,
    "Slice": slice_, "StridedSlice": strided_slice, "Squeeze": squeeze,
    "ExpandDims": expand_dims, "Tile": tile, "Pad": pad, "PadV2": pad, "MirrorPad": pad,
    "Fill": fill, "Range": range_, "GatherV2": gather_v2,
    "Gather": lambda attrs, inputs: gather_v2(attrs, inputs + [InputInfo(None, [], 0)]),
    "OneHot": one_hot, "Const": const,
    "Placeholder": lambda attrs, inputs: _attr_shape(attrs),
    "PlaceholderV2": lambda attrs, inputs: _attr_shape(attrs),
    "PlaceholderWithDefault": placeholder_with_default,
    "Variable": lambda attrs, inputs: _attr_shape(attrs),
    "VariableV2": lambda attrs, inputs: _attr_shape(attrs),
    "RandomUniform": random, "RandomStandardNormal": random, "TruncatedNormal": random,
    "RandomUniformInt": random, "IdentityN": identity_n, "Where": where,
    "BroadcastTo": broadcast_to, "SoftmaxCrossEntropyWithLogits": softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": sparse_softmax_cross_entropy,
    "StackV2": lambda attrs, inputs: [2],  # TensorFlow's TwoElementOutput, from the ref Stack
    "StackPushV2": lambda attrs, inputs: _dims(inputs[1]),
}

# The gradient and training ops' shape functions live in their own module.
from engine.shape_inference_training import SHAPE_FUNCTIONS as _TRAINING  # noqa: E402

SHAPE_FUNCTIONS.update(_TRAINING)
