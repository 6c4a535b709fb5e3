"""Static shapes of the TensorList ops, the lookup-table ops, ResourceGather and VariableShape
(list_ops.cc, lookup_ops.cc, resource_variable_ops.cc).

A list handle is a scalar variant. TensorFlow also learns a list's element shape from the
handle's shape data; the engine does not track that, so an element's shape here is what the
op's element_shape input says when it is a constant (-1, a scalar, is an unknown rank), as
TensorFlow infers it for a handle without data. A table handle is a scalar resource; what a
lookup or ResourceGather gives depends on the table's or variable's handle data, so it is
unknown here (TensorFlow's Python wrappers set the shapes they know, as ours do).
"""

from engine.shape_inference.control_flow import unknown
from engine.shape_inference.dims import _attr_shape, _dims, merge
from engine.shape_inference.partial_values import _ints


def _element_shape(info):
    """A shape given as a tensor, a scalar (-1) meaning an unknown rank
    (MakeShapeFromShapeTensorTreatScalarAsUnknownShape)."""
    dims = _dims(info)
    if dims == []:
        return None
    values = _ints(info)
    if values is not None:
        return [None if v < 0 else v for v in values]
    if dims and dims[0] is not None:
        return [None] * dims[0]
    return None


def _scalar(attrs, inputs):
    return []


def _get_item(attrs, inputs):
    return _element_shape(inputs[2])


def _pop_back(attrs, inputs):
    """The element's shape comes only from the list's handle data in TensorFlow (its
    element_shape input is not read), so without it the shape is unknown."""
    return ([], None)


def _stack(attrs, inputs):
    element = _element_shape(inputs[1])
    count = attrs.get("num_elements", -1)
    return None if element is None else [None if count == -1 else count] + element


def _gather(attrs, inputs):
    element, indices = _element_shape(inputs[2]), _dims(inputs[1])
    if element is None:
        return None
    return [indices[0] if indices else None] + element


def _concat_shape(element):
    return None if element is None or not element else [None] + element[1:]


def _concat(attrs, inputs):
    return (_concat_shape(_attr_shape(attrs, "element_shape")), [None])


def _concat_v2(attrs, inputs):
    return (_concat_shape(_element_shape(inputs[1])), [None])


def _element_shape_of(attrs, inputs):
    return [None]


def _scatter(attrs, inputs):
    """A scatter's rows and its indices agree in number (TensorFlow merges the two dims)."""
    tensor, indices = _dims(inputs[0]), _dims(inputs[1])
    if tensor and indices:
        merge(tensor[:1], indices[:1])
    return []


def _export(attrs, inputs):
    return ([None], None)


SHAPE_FUNCTIONS = {
    **{op: _scalar for op in (
        "EmptyTensorList", "TensorListReserve", "TensorListSetItem", "TensorListFromTensor",
        "TensorListLength", "TensorListPushBack", "TensorListScatterIntoExistingList",
        "TensorListSplit", "TensorListResize", "HashTableV2", "MutableHashTableV2",
        "LookupTableSizeV2")},
    "TensorListGetItem": _get_item, "TensorListPopBack": _pop_back,
    "TensorListStack": _stack, "TensorListGather": _gather,
    "TensorListConcat": _concat, "TensorListConcatV2": _concat_v2,
    "TensorListElementShape": _element_shape_of,
    "TensorListScatter": _scatter, "TensorListScatterV2": _scatter,
    "LookupTableFindV2": unknown, "LookupTableExportV2": _export, "ResourceGather": unknown,
    # A vector as long as the variable's rank, which only its handle data would know.
    "VariableShape": lambda attrs, inputs: [None],
}
