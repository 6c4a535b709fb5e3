"""Gradients of the TensorList ops, ported from TensorFlow's list_ops.py: a list's gradient is
a list of its elements' gradients, so each op's gradient is the list op that undoes it (a
stack's is a list made from the tensor, a push's is a pop, a get's is a set into a list of
the same length)."""

from engine.framework import dtypes
from engine.ops import array_ops
from engine.ops.constant_op import constant
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op

for _op_type in ("TensorListElementShape", "TensorListLength"):
    NotDifferentiable(_op_type)


def _element_shape(handle):
    return apply_op("TensorListElementShape", input_handle=handle, shape_type=dtypes.int32)


def _length(handle):
    return apply_op("TensorListLength", input_handle=handle)


def _empty_list(element_dtype, element_shape):
    return apply_op("EmptyTensorList", element_shape=element_shape, max_num_elements=-1,
                    element_dtype=element_dtype)


def _shape_without_first_dim(tensor):
    return array_ops.slice(array_ops.shape(tensor), [1], [-1])


def _static_shape_or_unknown(shape):
    """A TensorShape as an element_shape input: its dims (-1 unknown), -1 for no rank."""
    if shape.ndims is None:
        return -1
    dims = [-1 if d is None else d for d in shape.as_list()]
    return dims if dims else constant([], dtype=dtypes.int32)


@RegisterGradient("TensorListPushBack")
def _push_back_grad(op, dresult):
    return apply_op("TensorListPopBack", input_handle=dresult,
                    element_shape=array_ops.shape(op.inputs[1]),
                    element_dtype=op.get_attr("element_dtype"))


@RegisterGradient("TensorListPopBack")
def _pop_back_grad(op, dlist, delement):
    if dlist is None:
        dlist = _empty_list(delement.dtype, _element_shape(op.outputs[0]))
    if delement is None:
        delement = array_ops.zeros_like(op.outputs[1])
    return [apply_op("TensorListPushBack", input_handle=dlist, tensor=delement), None]


@RegisterGradient("TensorListStack")
def _stack_grad(op, dtensor):
    shape = _static_shape_or_unknown(dtensor.shape[1:] if dtensor.shape.ndims else dtensor.shape)
    return [apply_op("TensorListFromTensor", tensor=dtensor, element_shape=shape), None]


@RegisterGradient("TensorListConcat")
@RegisterGradient("TensorListConcatV2")
def _concat_grad(op, dtensor, unused_dlengths):
    dlist = apply_op("TensorListSplit", tensor=dtensor,
                     element_shape=_element_shape(op.inputs[0]), lengths=op.outputs[1])
    return [dlist, None, None] if op.type == "TensorListConcatV2" else dlist


@RegisterGradient("TensorListSplit")
def _split_grad(op, dlist):
    tensor, _, lengths = op.inputs
    element_shape = array_ops.concat([[-1], _shape_without_first_dim(tensor)], axis=0)
    concatenated = apply_op("TensorListConcatV2", input_handle=dlist,
                            element_shape=element_shape, leading_dims=lengths,
                            element_dtype=op.inputs[0].dtype)
    return [concatenated[0], None, None]


@RegisterGradient("TensorListFromTensor")
def _from_tensor_grad(op, dlist):
    tensor = op.inputs[0]
    dims = tensor.shape.as_list() if tensor.shape.ndims else None
    num_elements = dims[0] if dims and dims[0] is not None else -1
    if dlist is None:
        dlist = _empty_list(tensor.dtype, _element_shape(op.outputs[0]))
    tensor_grad = apply_op("TensorListStack", input_handle=dlist,
                           element_shape=_shape_without_first_dim(tensor),
                           element_dtype=tensor.dtype, num_elements=num_elements)
    return [tensor_grad, None]


@RegisterGradient("TensorListGetItem")
def _get_item_grad(op, ditem):
    list_size = _length(op.inputs[0])
    reserved = apply_op("TensorListReserve", element_shape=_element_shape(op.inputs[0]),
                        num_elements=list_size, element_dtype=ditem.dtype)
    list_grad = apply_op("TensorListSetItem", input_handle=reserved, index=op.inputs[1],
                         item=ditem)
    return [list_grad, None, None]


@RegisterGradient("TensorListSetItem")
def _set_item_grad(op, dlist):
    input_list, index, item = op.inputs
    list_grad = apply_op("TensorListSetItem", input_handle=dlist, index=index,
                         item=array_ops.zeros_like(item))
    element_grad = apply_op("TensorListGetItem", input_handle=dlist, index=index,
                            element_shape=array_ops.shape(item), element_dtype=item.dtype)
    if op.get_attr("resize_if_index_out_of_bounds"):
        list_grad = apply_op("TensorListResize", input_handle=list_grad,
                             size=_length(input_list))
    return [list_grad, None, element_grad]


@RegisterGradient("TensorListResize")
def _resize_grad(op, dlist):
    return [apply_op("TensorListResize", input_handle=dlist, size=_length(op.inputs[0])), None]


@RegisterGradient("TensorListGather")
def _gather_grad(op, dtensor):
    input_list, indices, _ = op.inputs
    reserved = apply_op("TensorListReserve", element_shape=_element_shape(input_list),
                        num_elements=_length(input_list), element_dtype=dtensor.dtype)
    dlist = apply_op("TensorListScatterIntoExistingList", input_handle=reserved,
                     tensor=dtensor, indices=indices)
    return [dlist, None, None]


@RegisterGradient("TensorListScatter")
@RegisterGradient("TensorListScatterV2")
def _scatter_grad(op, dlist):
    tensor, indices = op.inputs[0], op.inputs[1]
    dtensor = apply_op("TensorListGather", input_handle=dlist, indices=indices,
                       element_shape=_shape_without_first_dim(tensor),
                       element_dtype=tensor.dtype)
    return [dtensor, None, None, None] if op.type == "TensorListScatterV2" \
        else [dtensor, None, None]


@RegisterGradient("TensorListScatterIntoExistingList")
def _scatter_into_existing_list_grad(op, dlist):
    _, tensor, indices = op.inputs
    dtensor = apply_op("TensorListGather", input_handle=dlist, indices=indices,
                       element_shape=_shape_without_first_dim(tensor),
                       element_dtype=tensor.dtype)
    zeros = array_ops.zeros_like(tensor)
    dlist = apply_op("TensorListScatterIntoExistingList", input_handle=dlist, tensor=zeros,
                     indices=indices)
    return [dlist, dtensor, None]
