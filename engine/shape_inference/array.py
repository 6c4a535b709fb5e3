"""Shape functions of the array ops: shapes, reshapes, concatenation and splitting, slicing,
padding, gathering, and the ops whose shape is given (Const, Placeholder, Fill, random)."""

import numpy as np

from engine.kernels import slicing
from engine.shape_inference.dims import ShapeError, _attr_shape, _dims, _unknown, merge
from engine.shape_inference.elementwise import add_n
from engine.shape_inference.partial_values import _from_value, _from_value_rank, _ints, _value


def shape_of(attrs, inputs):
    dims = _dims(inputs[0])
    return [None if dims is None else len(dims)]


def reshape(attrs, inputs):
    """TensorFlow's SetOutputShapeForReshape: the shape tensor read as a partial shape, one
    unknown output dimension inferred from the input's elements (or one unknown input dimension
    checked against the output's), element counts compared when both are known."""
    out = _from_value(inputs[1])
    try:
        return _reshaped(_dims(inputs[0]), out)
    except ShapeError as error:
        error.partial_shapes = {1: out}  # TensorFlow's "input tensors computed as partial shapes"
        raise


def _known_elements(dims):
    """InferenceContext::NumElements: 0 if any dim is 0, else the product, None if unknown."""
    if 0 in dims:
        return 0
    return None if None in dims else int(np.prod(dims, dtype=np.int64))


def _reshaped(dims, out):
    if out is None or dims is None:
        return out
    out = list(out)

    def known_and_unknown(shape):
        total = _known_elements(shape)
        if total is not None:
            return total, -1, False
        total, unknown = 1, -1
        for i, d in enumerate(shape):
            if d is None:
                if unknown >= 0:
                    return total, unknown, True
                unknown = i
            else:
                total *= d
        return total, unknown, False

    out_elems, out_unknown, too_many_out = known_and_unknown(out)
    in_elems, in_unknown, too_many_in = known_and_unknown(dims)
    if too_many_out or too_many_in:
        return out
    if in_unknown < 0 and out_unknown < 0:
        if in_elems != out_elems:
            raise ShapeError(f"Cannot reshape a tensor with {in_elems} elements to shape "
                             f"{_shape_text(out)} ({out_elems} elements)")
    elif in_unknown < 0 <= out_unknown and out_elems > 0:
        if in_elems % out_elems:
            raise ShapeError(f"Dimension size must be evenly divisible by {out_elems} but is "
                             f"{in_elems}")
        out[out_unknown] = in_elems // out_elems
    elif out_unknown < 0 <= in_unknown and in_elems != 0:
        if out_elems % in_elems:
            raise ShapeError(f"Dimension size must be evenly divisible by {in_elems} but is "
                             f"{out_elems}")
    elif in_unknown >= 0 and out_unknown >= 0 and in_elems == out_elems:
        out[out_unknown] = dims[in_unknown]
    return out


def _shape_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def transpose(attrs, inputs):
    dims, perm = _dims(inputs[0]), _ints(inputs[1])
    if perm is None:
        return _unknown(len(dims)) if dims is not None else _from_value_rank(inputs[1])
    if dims is None:
        return [None] * len(perm)
    if len(perm) != len(dims):
        error = ShapeError(f"Dimension must be {len(dims)} but is {len(perm)}")
        error.before_input_tensors = True  # TensorFlow checks the length before reading perm
        raise error
    for p in perm:
        if not -len(dims) <= p < len(dims):
            raise ShapeError(f"perm dim {p} is out of range of input rank {len(dims)}")
    return [dims[p] for p in perm]


def _concat(values, axis_info):
    shapes = [_dims(v) for v in values]
    axis = _ints(axis_info)
    rank = next((len(s) for s in shapes if s is not None), None)
    if rank is None:
        return None
    if axis is None:
        return [None] * rank
    for shape in shapes:
        if shape is not None and len(shape) != rank:
            error = ShapeError(f"Shape must be rank {rank} but is rank {len(shape)}")
            error.before_input_tensors = True  # as TensorFlow's words: no axis value shown
            raise error
    axis = axis[0] % rank
    before = after = None
    total = 0
    for shape in shapes:  # TensorFlow merges the dims before and after the axis apart
        if shape is None:
            total = None
            continue
        before = merge(before, shape[:axis])
        total = None if total is None or shape[axis] is None else total + shape[axis]
        after = merge(after, shape[axis + 1:])
    return list(before) + [total] + list(after)


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
        raise ShapeError(f"Dimension size must be evenly divisible by {num} but is {size}\n\t"
                         f"Number of ways to split should evenly divide the split dimension")
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
    rank = len(dims)
    if not -rank - 1 <= axis[0] <= rank:
        raise ShapeError(f"dim {axis[0]} not in the interval [{-rank - 1}, {rank}].")
    axis = axis[0] if axis[0] >= 0 else axis[0] + rank + 1
    return dims[:axis] + [1] + dims[axis:]


def tile(attrs, inputs):
    # multiples as a partially known shape (TensorFlow's MakeShapeFromShapeTensor): a Pack of
    # known and unknown counts still gives the dims the known ones multiply.
    dims, multiples = _dims(inputs[0]), _from_value(inputs[1])
    if multiples is None:
        # Multiples known in part (a Pack of constants and a shape's dim): those dims known.
        multiples = _from_value(inputs[1])
    if multiples is None:
        return _unknown(len(dims)) if dims is not None else _from_value_rank(inputs[1])
    if dims is None:
        dims = [None] * len(multiples)
    if len(multiples) != len(dims):
        raise ShapeError(f"Shape must be rank {len(dims)} but is rank {len(multiples)}")
    return [None if d is None or m is None else d * m for d, m in zip(dims, multiples)]


def pad(attrs, inputs):
    dims, paddings = _dims(inputs[0]), _value(inputs[1])
    if paddings is None:
        rank = len(dims) if dims is not None else (_dims(inputs[1]) or [None])[0]
        return _unknown(rank)
    rows = np.asarray(paddings).shape[0] if np.ndim(paddings) else 0
    if dims is not None and len(dims) != rows:
        raise ShapeError(f"Shape must be rank {rows} but is rank {len(dims)}")
    paddings = paddings.reshape(-1, 2).tolist()
    if dims is None:
        dims = [None] * len(paddings)
    return [None if d is None else d + lo + hi for d, (lo, hi) in zip(dims, paddings)]


def fill(attrs, inputs):
    """The dims as a shape; a constant's negative size refused as TensorFlow's Fill shape
    function refuses it: below -1 by MakeShapeFromShapeTensor (its bare message), -1 (an
    unknown size to a shape tensor) as "Fill dimensions must be >= 0", with the partial shape
    it read."""
    values = _ints(inputs[0])
    if values is not None:
        for value in values:
            if value < -1:
                error = ShapeError(f"Invalid value in tensor used for shape: {value}")
                error.bare = True
                raise error
        if any(value < 0 for value in values):
            error = ShapeError("Fill dimensions must be >= 0")
            error.partial_shapes = {0: [None if v < 0 else v for v in values]}
            raise error
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
    required = -axis[0] if axis[0] < 0 else axis[0] + 1
    if len(params) < required:
        raise ShapeError(f"Shape must be at least rank {required} but is rank {len(params)}")
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
    # TensorFlow checks the default against the shape attr but returns the attr's shape,
    # less precise than the default's where it is (unknown rank for shape=None)
    given = _attr_shape(attrs)
    merge(given, _dims(inputs[0]))
    return given


def random(attrs, inputs):
    return _from_value(inputs[0])


def identity_n(attrs, inputs):
    return tuple(_dims(info) for info in inputs)


def broadcast_to(attrs, inputs):
    """The target shape, with the input's dims (aligned from the right) filling unknown ones
    and refused where they are neither 1 nor the target's, as TensorFlow's BroadcastTo."""
    out, dims = _from_value(inputs[1]), _dims(inputs[0])
    if out is None or dims is None:
        return out
    if len(dims) > len(out):  # checked on the shape tensor's length, before its value
        raise ShapeError(f"Shape must be at most rank {len(out)} but is rank {len(dims)}")
    try:
        out = list(out)
        for i in range(1, len(dims) + 1):
            have, want = dims[-i], out[-i]
            if have is None or have == 1:
                continue
            if want is None:
                out[-i] = have
            elif have != want:
                raise ShapeError(f"Dimensions must be equal, but are {have} and {want}")
    except ShapeError as error:
        error.partial_shapes = {1: _from_value(inputs[1])}
        raise
    return out


def where(attrs, inputs):
    dims = _dims(inputs[0])
    return [None, None if dims is None else len(dims)]


def concat_offset(attrs, inputs):
    return tuple(_dims(info) for info in inputs[1:])


def broadcast_args(attrs, inputs):
    """BroadcastArgs: a vector as long as the longer shape vector."""
    lengths = [(_dims(info) or [None])[0] for info in inputs[:2]]
    return [None if None in lengths else max(lengths)]


def dynamic_stitch(attrs, inputs):
    """DynamicStitch: [max index + 1] (when every index is a constant) + the data's inner
    dims, which every data input must agree on past its indices' rank."""
    count = len(inputs) // 2
    indices, data = inputs[:count], inputs[count:]
    inner, largest = None, -1
    for index_info, data_info in zip(indices, data):
        index_dims, data_dims = _dims(index_info), _dims(data_info)
        if index_dims is not None and data_dims is not None:
            inner = merge(inner, data_dims[len(index_dims):])
        values = _ints(index_info)
        largest = None if values is None or largest is None else max([largest] + values)
    if inner is None:
        return None
    return [None if largest is None else largest + 1] + inner


def dynamic_partition(attrs, inputs):
    """DynamicPartition: num_partitions outputs, each [?] + the data's dims past the
    partitions' rank (which must be a prefix of the data's shape)."""
    data_dims, partition_dims = _dims(inputs[0]), _dims(inputs[1])
    count = attrs["num_partitions"]
    if data_dims is None or partition_dims is None:
        return tuple([None] * count)
    merge(data_dims[:len(partition_dims)], partition_dims)
    return tuple([None] + data_dims[len(partition_dims):] for _ in range(count))


def ensure_shape(attrs, inputs):
    return merge(_attr_shape(attrs), _dims(inputs[0]))  # in TensorFlow's order, for its words


def list_diff(attrs, inputs):
    return ([None], [None])


def top_k(attrs, inputs):
    """TopKV2: values and indices shaped as the input with its last dim k."""
    dims, k = _dims(inputs[0]), _ints(inputs[1])
    if dims is None:
        return (None, None)
    if not dims:
        raise ShapeError("Shape must be at least rank 1 but is rank 0")
    out = dims[:-1] + [k[0] if k else None]
    return (out, list(out))


def parallel_concat(attrs, inputs):
    """ParallelConcat: the `shape` attr, every input fully known, [1, ...] and merging with it."""
    shape = _attr_shape(attrs)
    if shape is None or None in shape:
        raise ShapeError("shape attr must be fully defined.")
    current = [1] + shape[1:]
    for index, info in enumerate(inputs):
        dims = _dims(info)
        if dims is None or None in dims:
            raise ShapeError("All input shapes must be fully defined.")
        if len(dims) < 1:
            raise ShapeError("The rank of all input shapes must be greater than 0, but the "
                             f"input {index} had rank {len(dims)}.")
        if dims[0] != 1:
            raise ShapeError("Size of first dimension must be 1.")
        try:
            current = merge(dims, current)
        except ShapeError as error:
            raise ShapeError(f"{error}\n\tFrom merging shape {index} with other shapes.") \
                from None
    return shape


def fingerprint(attrs, inputs):
    """Fingerprint: [rows, 8] of data of rank 1 at least; the method a scalar."""
    dims, method = _dims(inputs[0]), _dims(inputs[1])
    if dims is not None and not dims:
        raise ShapeError("Shape must be at least rank 1 but is rank 0")
    if method is not None and method:
        raise ShapeError(f"Shape must be rank 0 but is rank {len(method)}")
    return [None if dims is None else dims[0], 8]
