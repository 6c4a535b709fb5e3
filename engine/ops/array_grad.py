"""Gradients of the array ops: reshape, transpose, concat, slices, gather, pack/unpack,
split, expand_dims/squeeze, tile, pad and mirror pad, identity; ported from TensorFlow's
array_grad.py, with DynamicStitch's and ParallelDynamicStitch's from its data_flow_grad.py."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.indexed_slices import IndexedSlices, dense
from engine.ops.op_def_library import apply_op
from engine.ops.constant_op import constant, is_constant
from engine.ops.fill_ops import zeros_like
from engine.ops.control_flow.util import output_context
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value

for _op_type in ("Const", "ConcatOffset", "ZerosLike", "OnesLike", "StopGradient",
                 "InvertPermutation", "Shape", "ShapeN", "Rank", "Size",
                 "BroadcastGradientArgs", "OneHot", "Placeholder", "VariableV2",
                 "VarHandleOp", "RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                 "RandomUniformInt", "IsVariableInitialized", "VarIsInitializedOp",
                 "Where", "Assign", "AssignAdd", "AssignSub", "VariableShape",
                 "StringJoin"):  # in TensorFlow, string_ops.py marks StringJoin so
    NotDifferentiable(_op_type)
NotDifferentiable("Timestamp")  # TensorFlow's logging_ops.py marks it
NotDifferentiable("EditDistance")


@RegisterGradient("Pack")
def _pack_grad(op, grad):
    return array_ops.unstack(grad, num=op.get_attr("N"), axis=op.get_attr("axis"))


@RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
    return array_ops.stack(list(grads), axis=op.get_attr("axis"))


def _extract_input_shapes(inputs):
    sizes = []
    for x in inputs:
        input_shape = array_ops.shape(x)
        if input_shape.op.type != "Const":
            return array_ops.shape_n(inputs)
        sizes.append(input_shape)
    return sizes


def _concat_grad_helper(op, grad, start_value_index, end_value_index, dim_index):
    if len(op.inputs) == 2:
        return [grad, None] if end_value_index <= dim_index else [None, grad]
    concat_dim = op.inputs[dim_index]
    input_values = op.inputs[start_value_index:end_value_index]
    grad = dense(grad)
    if is_constant(concat_dim) and output_context(grad.op) is not output_context(concat_dim.op):
        # TensorFlow clones a constant axis into the gradient's loop here (not through the
        # while-gradient machinery later), so the clone is named in this scope
        concat_dim = constant(constant_value(concat_dim), dtype=concat_dim.dtype)
    non_neg_concat_dim = concat_dim % array_ops.rank(input_values[0])
    sizes = _extract_input_shapes(input_values)
    if len(sizes) > 16:
        sizes = array_ops.squeeze(array_ops.slice(array_ops.stack(sizes, axis=1),
                                                  [non_neg_concat_dim, 0], [1, -1]))
        out_grads = array_ops.split(grad, sizes, non_neg_concat_dim)
    else:
        offset = apply_op("ConcatOffset", concat_dim=non_neg_concat_dim, shape=list(sizes))
        out_grads = [array_ops.slice(grad, begin, size) for begin, size in zip(offset, sizes)]
    return out_grads + [None] if end_value_index <= dim_index else [None] + out_grads


RegisterGradient("ConcatV2")(lambda op, grad: _concat_grad_helper(op, grad, 0, -1, -1))
RegisterGradient("Concat")(lambda op, grad: _concat_grad_helper(op, grad, 1, len(op.inputs),
                                                                0))


@RegisterGradient("Slice")
def _slice_grad(op, grad):
    input_vec, begin_vec = op.inputs[0], op.inputs[1]
    input_rank = array_ops.rank(input_vec)
    index_dtype = begin_vec.dtype
    slice_size = array_ops.shape(op.outputs[0], out_type=index_dtype)
    shape = array_ops.stack([input_rank, 1])
    before_pad = array_ops.reshape(begin_vec, shape)
    after_pad = array_ops.reshape(
        array_ops.shape(input_vec, out_type=index_dtype) - slice_size - begin_vec, shape)
    paddings = array_ops.concat([before_pad, after_pad], 1)
    return array_ops.pad(grad, paddings), None, None


def _static_or_tensor(t):
    value = constant_value(t)
    return value if value is not None else t


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, grad):
    begin, end, strides = op.inputs[1], op.inputs[2], op.inputs[3]
    x = _static_or_tensor(array_ops.shape(op.inputs[0], out_type=begin.dtype))
    return (apply_op("StridedSliceGrad", shape=x, begin=_static_or_tensor(begin),
                     end=_static_or_tensor(end), strides=_static_or_tensor(strides), dy=grad,
                     begin_mask=op.get_attr("begin_mask"), end_mask=op.get_attr("end_mask"),
                     ellipsis_mask=op.get_attr("ellipsis_mask"),
                     new_axis_mask=op.get_attr("new_axis_mask"),
                     shrink_axis_mask=op.get_attr("shrink_axis_mask")),
            None, None, None)


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    begin, end, strides = op.inputs[1], op.inputs[2], op.inputs[3]
    return (None, None, None, None,
            array_ops.strided_slice(grad, begin, end, strides,
                                    begin_mask=op.get_attr("begin_mask"),
                                    end_mask=op.get_attr("end_mask"),
                                    ellipsis_mask=op.get_attr("ellipsis_mask"),
                                    new_axis_mask=op.get_attr("new_axis_mask"),
                                    shrink_axis_mask=op.get_attr("shrink_axis_mask")))


@RegisterGradient("Split")
def _split_grad(op, *grads):
    return None, array_ops.concat(list(grads), op.inputs[0])


@RegisterGradient("SplitV")
def _split_v_grad(op, *grads):
    return [array_ops.concat(list(grads), op.inputs[2])] + [None] * (len(op.inputs) - 1)


@RegisterGradient("Fill")
def _fill_grad(_, grad):
    return None, math_ops.reduce_sum(grad)


@RegisterGradient("PreventGradient")
def _prevent_gradient_grad(op, _):
    raise LookupError(f"Gradient explicitly disabled. Reason: {op.get_attr('message')}")


@RegisterGradient("Gather")
def _gather_grad(op, grad):
    """The rows gathered, as IndexedSlices of params (Gather has no axis)."""
    params = op.inputs[0]
    with get_default_graph().colocate_with(params):
        params_shape = array_ops.shape(params)
    indices = op.inputs[1]
    size = array_ops.expand_dims(array_ops.size(indices), 0)
    values_shape = array_ops.concat([size, params_shape[1:]], 0)
    values = array_ops.reshape(dense(grad), values_shape)
    indices = array_ops.reshape(indices, size)
    return [IndexedSlices(values, indices, params_shape), None]


@RegisterGradient("GatherV2")
def _gather_v2_grad(op, grad):
    params, indices, axis = op.inputs
    with get_default_graph().colocate_with(params):
        params_shape = array_ops.shape(params)
    indices_size = array_ops.expand_dims(array_ops.size(indices), 0)
    axis_static = constant_value(axis)
    if op.get_attr("batch_dims") != 0:
        raise LookupError(f"Gradient of GatherV2 ({op.name}) with batch_dims is not supported")
    if axis_static is not None and int(axis_static) == 0:
        params_tail_shape = params_shape[1:]
        values_shape = array_ops.concat([indices_size, params_tail_shape], 0)
        values = array_ops.reshape(dense(grad), values_shape)
        indices = array_ops.reshape(indices, indices_size)
        return [IndexedSlices(values, indices, params_shape), None, None]
    # TensorFlow's other axes (batch_dims 0): the axis moved first (by the axis tensor
    # itself, so the slices are TensorFlow's), _BatchGatherGrad's segment sum, moved back.
    outer_shape = params_shape[:axis]
    inner_shape = params_shape[axis:][1:]
    values_shape = array_ops.concat([outer_shape, [-1], inner_shape], 0)
    values_dims = array_ops.size(values_shape)
    axis_dims = array_ops.size(outer_shape)
    outer_batches_indices = math_ops.range(0)
    batch_axis_indices = math_ops.range(0, axis_dims)
    inner_axes_indices = math_ops.range(axis_dims + 1, values_dims)
    values = array_ops.reshape(dense(grad), values_shape)
    transpose_dims = array_ops.concat(
        [outer_batches_indices, [axis_dims], batch_axis_indices, inner_axes_indices], 0)
    values_transpose = array_ops.transpose(values, transpose_dims)
    array_ops.gather(params_shape, transpose_dims)   # params_shape_transpose (unread at 0)
    gather_dim_size = params_shape[axis]
    indices_size = array_ops.expand_dims(array_ops.size(indices), 0)
    indices = array_ops.reshape(indices, indices_size)
    params_grad = apply_op("UnsortedSegmentSum", data=values_transpose, segment_ids=indices,
                           num_segments=gather_dim_size)
    invert_transpose_dims = array_ops.concat(
        [outer_batches_indices, batch_axis_indices + 1, [0], inner_axes_indices], 0)
    params_grad = array_ops.transpose(params_grad, invert_transpose_dims)
    return [array_ops.reshape(params_grad, array_ops.shape(params)), None, None]


@RegisterGradient("ResourceGather")
def _resource_gather_grad(op, grad):
    """IndexedSlices of the variable: the rows read, their gradients (TensorFlow's
    resource_variable_ops._GatherGrad)."""
    handle, indices = op.inputs[0], op.inputs[1]
    params_shape = _variable_shape(handle, op.get_attr("dtype"))
    size = array_ops.expand_dims(array_ops.size(indices), 0)
    values_shape = array_ops.concat([size, params_shape[1:]], 0)
    # IndexedSlices (a gather of the gathered rows) become a tensor inside the Reshape's scope,
    # as TensorFlow's reshape of `grad` converts it (the GatherV2 gradient converts first)
    values = array_ops.reshape(grad, values_shape)
    indices = array_ops.reshape(indices, size)
    return [IndexedSlices(values, indices, params_shape), None]


def _variable_shape(handle, dtype):
    """A variable's shape from its handle: the VarHandleOp's shape attr when fully known (as
    TensorFlow reads the handle's shape data), else the shape of a read of it."""
    if handle.op.type == "VarHandleOp":
        shape = TensorShape(handle.op.get_attr("shape"))
        dims = None if shape.ndims is None else shape.as_list()
        if dims is not None and None not in dims:
            return constant(dims, dtype="int32")
    return array_ops.shape(apply_op("ReadVariableOp", resource=handle, dtype=dtype))


for _op_type in ("Identity", "PlaceholderWithDefault", "RefIdentity", "Snapshot",
                 "ReadVariableOp", "EnsureShape"):
    RegisterGradient(_op_type)(lambda op, grad: [grad] + [None] * (len(op.inputs) - 1))
RegisterGradient("IdentityN")(lambda op, *grads: list(grads))


@RegisterGradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    return apply_op("CheckNumerics", tensor=grad,
                    message=b"Not a number (NaN) or infinity (Inf) values detected in "
                            b"gradient. " + op.get_attr("message"))


@RegisterGradient("Reshape")
def _reshape_grad(op, grad):
    input_shape = op.inputs[0].shape
    if input_shape.ndims is not None and not input_shape.is_fully_defined():
        dims = input_shape.as_list()
        undefined = [i for i, d in enumerate(dims) if d is None]
        if len(undefined) == 1 and 0 not in dims:
            dims[undefined[0]] = -1
            return [array_ops.reshape(dense(grad), dims), None]
    return [array_ops.reshape(dense(grad), array_ops.shape(op.inputs[0])), None]


def _reshape_to_input(op, grad):
    return array_ops.reshape(dense(grad), array_ops.shape(op.inputs[0]))


RegisterGradient("ExpandDims")(lambda op, grad: [_reshape_to_input(op, grad), None])
RegisterGradient("Squeeze")(_reshape_to_input)


@RegisterGradient("Transpose")
def _transpose_grad(op, grad):
    return [array_ops.transpose(grad, array_ops.invert_permutation(op.inputs[1])), None]


@RegisterGradient("ConjugateTranspose")
def _conjugate_transpose_grad(op, grad):
    return [array_ops.transpose(grad, array_ops.invert_permutation(op.inputs[1]),
                                conjugate=True), None]


@RegisterGradient("Tile")
def _tile_grad(op, grad):
    input_shape = array_ops.shape(op.inputs[0], out_type=op.inputs[1].dtype)
    split_shape = array_ops.reshape(
        array_ops.transpose(array_ops.stack([op.inputs[1], input_shape])), [-1])
    axes = math_ops.range(0, array_ops.size(split_shape), 2)
    input_grad = math_ops.reduce_sum(array_ops.reshape(dense(grad), split_shape), axes)
    input_grad.set_shape(op.inputs[0].shape)
    return [input_grad, None]


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    input_value, broadcast_shape = op.inputs
    input_value_shape = array_ops.shape(input_value, out_type=broadcast_shape.dtype)
    # TensorFlow replaces a shape its try_evaluate_constant finds by a Const of it; what that
    # finds is what shape inference gave the output, when that is fully known.
    static = op.outputs[0].shape
    if static.is_fully_defined():
        broadcast_shape = constant(static.as_list(), dtype=broadcast_shape.dtype)
    _, reduction_axes = apply_op("BroadcastGradientArgs", s0=broadcast_shape,
                                 s1=input_value_shape)
    updates_grad_reshaped = math_ops.reduce_sum(grad, axis=reduction_axes, keepdims=True)
    return [array_ops.reshape(updates_grad_reshaped, input_value_shape), None]


def _pad_grad(op, grad):
    x, a = op.inputs[0], op.inputs[1]
    pad_before = array_ops.slice(a, [0, 0], array_ops.stack([array_ops.rank(x), 1]))
    begin = array_ops.reshape(pad_before, [-1])
    sizes = array_ops.shape(x, out_type=begin.dtype)
    x_grad = array_ops.slice(grad, begin, sizes)
    return (x_grad, None, None) if len(op.inputs) == 3 else (x_grad, None)


RegisterGradient("Pad")(_pad_grad)
RegisterGradient("PadV2")(_pad_grad)


@RegisterGradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    return [apply_op("MirrorPadGrad", input=grad, paddings=op.inputs[1],
                     mode=op.get_attr("mode")), None]


@RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    return [apply_op("MirrorPad", input=grad, paddings=op.inputs[1], mode=op.get_attr("mode")),
            None]


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    indices = op.inputs[1]
    updates_grad = array_ops.gather_nd(grad, indices)
    tensor_grad = apply_op("TensorScatterUpdate", tensor=array_ops.identity(grad),
                           indices=indices,
                           updates=zeros_like(op.inputs[2], dtype=grad.dtype))
    return [tensor_grad, None, updates_grad]


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    updates_grad = array_ops.gather_nd(grad, op.inputs[1])
    return [array_ops.identity(grad), None, updates_grad]


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    updates_grad = array_ops.gather_nd(grad, op.inputs[1])
    return [array_ops.identity(grad), None, -updates_grad]


@RegisterGradient("TensorScatterMax")
@RegisterGradient("TensorScatterMin")
def _tensor_scatter_min_or_max_grad(op, grad):
    """The gradient split evenly between the tensor's value and the updates equal to the
    result (TensorFlow's _TensorScatterMinOrMaxGrad)."""
    from engine.ops.segment_ops import scatter_nd
    indices, x, y, output = op.inputs[1], op.inputs[0], op.inputs[2], op.outputs[0]
    x_indicators = math_ops.cast(math_ops.equal(x, output), grad.dtype)
    y_output = array_ops.gather_nd(output, indices)
    y_indicators = math_ops.cast(math_ops.equal(y, y_output), grad.dtype)
    ys_indicators = scatter_nd(indices, y_indicators,
                               array_ops.shape(x, out_type=indices.dtype))
    indicators = x_indicators + ys_indicators
    x_grad = grad * x_indicators / indicators
    y_grad = array_ops.gather_nd(grad / indicators, indices) * y_indicators
    return [x_grad, None, y_grad]


for _op in ("ScatterMul", "ScatterDiv", "ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    NotDifferentiable(_op)


@RegisterGradient("DynamicPartition")
def _dynamic_partition_grads(op, *grads):
    """The partitions' gradients stitched back to the data's rows (data_flow_grad.py)."""
    data, indices = op.inputs
    num_partitions = op.get_attr("num_partitions")
    prefix_shape = array_ops.shape(indices)
    original_indices = array_ops.reshape(
        math_ops.range(math_ops.reduce_prod(prefix_shape)), prefix_shape)
    partitioned_indices = apply_op("DynamicPartition", data=original_indices,
                                   partitions=indices, num_partitions=num_partitions)
    reconstructed = apply_op("ParallelDynamicStitch", indices=list(partitioned_indices),
                             data=list(grads))
    reconstructed = array_ops.reshape(reconstructed, array_ops.shape(data))
    return [reconstructed, None]


@RegisterGradient("DynamicStitch")
@RegisterGradient("ParallelDynamicStitch")
def _dynamic_stitch_grads(op, grad):
    """Each data input's rows gathered back from the gradient (TensorFlow's
    data_flow_grad.py): a sparse gradient summed into the output's rows first."""
    num_values = len(op.inputs) // 2
    indices_grad = [None] * num_values

    def as_int32(x):
        return x if op.inputs[0].dtype == dtypes.int32 else math_ops.cast(x, dtypes.int32)

    inputs = [as_int32(op.inputs[i]) for i in range(num_values)]
    if isinstance(grad, IndexedSlices):
        output_shape = array_ops.shape(op.outputs[0])
        output_rows = output_shape[0]
        grad = apply_op("UnsortedSegmentSum", data=grad.values, segment_ids=grad.indices,
                        num_segments=output_rows)
    values_grad = [array_ops.gather(grad, inp) for inp in inputs]
    return indices_grad + values_grad


@RegisterGradient("ReverseV2")
def _reverse_v2_grad(op, grad):
    return array_ops.reverse(grad, op.inputs[1]), None


@RegisterGradient("ReverseSequence")
def _reverse_sequence_grad(op, grad):
    """A permutation: the gradient is permuted back."""
    return [array_ops.reverse_sequence(grad, op.inputs[1], seq_axis=op.get_attr("seq_dim"),
                                       batch_axis=op.get_attr("batch_dim")), None]


@RegisterGradient("SpaceToBatchND")
def _space_to_batch_nd_grad(op, grad):
    # Each one's gradient is the other op, with the same block shape and paddings / crops.
    return [apply_op("BatchToSpaceND", input=grad, block_shape=op.inputs[1],
                     crops=op.inputs[2]), None, None]


@RegisterGradient("BatchToSpaceND")
def _batch_to_space_nd_grad(op, grad):
    return [apply_op("SpaceToBatchND", input=grad, block_shape=op.inputs[1],
                     paddings=op.inputs[2]), None, None]
