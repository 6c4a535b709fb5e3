"""Shape functions of the checkpoint ops (TensorFlow's io_ops.cc): RestoreV2's outputs from its slice specs."""

from engine.shape_inference.dims import _dims, merge
from engine.shape_inference.partial_values import _value
from engine.framework.tensor_shape import as_shape


def restore_v2(attrs, inputs):
    """Each output's shape: the slice its shape_and_slices entry names, unknown for "" or unknown specs."""
    count = len(attrs.get("dtypes") or ())
    specs = _value(inputs[2])
    if specs is None or specs.size != count:
        return tuple(None for _ in range(count))
    shapes = []
    for spec in specs.ravel():
        spec = spec.decode() if isinstance(spec, bytes) else str(spec)
        if not spec:
            shapes.append(None)
            continue
        *full, slices = spec.split(" ")
        dims = []
        for dim, part in zip(full, slices.split(":")):
            dims.append(int(dim) if part == "-" else int(part.split(",")[1]))
        shapes.append(dims)
    return tuple(shapes)


def string_join(attrs, inputs):
    """The one shape the non-scalar inputs share (merged, as TensorFlow's StringJoin shape
    function: no broadcasting but of scalars); a scalar when all are."""
    result, known = None, True
    for info in inputs:
        dims = _dims(info)
        if dims is None:
            known = False
        elif dims != []:
            result = merge(result, dims)
    return result if result is not None else ([] if known else None)


def parse_example_v2(attrs, inputs):
    """ParseExampleV2 (TensorFlow's parsing_ops.cc): per sparse key indices [?, rank + 1],
    values [?], dense_shape [rank + 1]; per dense key serialized's shape + the dense shape;
    ragged values [?] and row splits [batch + 1] (of a vector of examples)."""
    serialized = _dims(inputs[0])
    num_sparse = int(attrs.get("num_sparse", 0))
    rank = len(serialized) if serialized is not None else None
    width = rank + 1 if rank is not None else None
    dense = [serialized + as_shape(shape).as_list() if serialized is not None else None
             for shape in attrs.get("dense_shapes") or []]
    batch = serialized[0] if serialized is not None and len(serialized) == 1 else None
    ragged = ([[None]] * len(attrs.get("ragged_value_types") or ())
              + [[None if batch is None else batch + 1]]
              * len(attrs.get("ragged_split_types") or ()))
    return tuple([[None, width]] * num_sparse + [[None]] * num_sparse + [[width]] * num_sparse
                 + dense + ragged)


def parse_sequence_example_v2(attrs, inputs):
    """ParseSequenceExampleV2 (parsing_ops.cc): context outputs as ParseExampleV2's; per
    feature-list sparse key indices [?, rank + 2], values [?], dense_shape [rank + 2]; per
    dense key serialized's shape + [?] + its shape, and its lengths serialized's shape."""
    serialized = _dims(inputs[0])
    rank = len(serialized) if serialized is not None else None
    width = rank + 1 if rank is not None else None
    list_width = rank + 2 if rank is not None else None
    context_sparse = int(attrs.get("Ncontext_sparse", 0))
    list_sparse = int(attrs.get("Nfeature_list_sparse", 0))
    list_dense = int(attrs.get("Nfeature_list_dense", 0))
    context_dense = [serialized + as_shape(shape).as_list() if serialized is not None else None
                     for shape in attrs.get("context_dense_shapes") or []]
    dense = [serialized + [None] + as_shape(shape).as_list() if serialized is not None
             else None for shape in attrs.get("feature_list_dense_shapes") or []]
    ragged = [[None]] * (len(attrs.get("context_ragged_value_types") or ())
                         + len(attrs.get("context_ragged_split_types") or ())
                         + len(attrs.get("feature_list_ragged_value_types") or ())
                         + 2 * len(attrs.get("feature_list_ragged_split_types") or ()))
    return tuple([[None, width]] * context_sparse + [[None]] * context_sparse
                 + [[width]] * context_sparse + context_dense
                 + [[None, list_width]] * list_sparse + [[None]] * list_sparse
                 + [[list_width]] * list_sparse + dense + [serialized] * list_dense + ragged)
