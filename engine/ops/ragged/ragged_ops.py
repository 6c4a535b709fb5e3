"""tf.ragged's functions (ragged_math_ops.py, ragged_array_ops.py, ragged_functional_ops.py):
range, map_flat_values, cross, expand_dims, stack_dynamic_partitions, the dispatched identity,
size, rank and add_n, the raw RaggedFillEmptyRows ops, and the helpers the other modules
share; the reductions are in ragged_math.py, boolean_mask, concat, stack and gather in
ragged_array.py."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from engine.ops.repeat_ops import get_positive_axis

_DEFAULT_CROSS_HASH_KEY = 0xDECAFCAFFE
_builtin_range = range


def convert_to_tensor_or_ragged_tensor(value, dtype=None, preferred_dtype=None, name=None):
    if isinstance(value, RaggedTensor):
        if dtype and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} "
                             f"for RaggedTensor with dtype {value.dtype.name}: {value}.")
        return value
    return convert_to_tensor(value, dtype=dtype, preferred_dtype=preferred_dtype, name=name)


def match_row_splits_dtypes(*tensors, return_dtype=False):
    found = set(t.row_splits.dtype for t in tensors if isinstance(t, RaggedTensor))
    if len(found) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to "
                         "compatible dtypes.")
    dtype = found.pop() if found else None
    return (dtype, tensors) if return_dtype else tensors


def lengths_to_splits(lengths):
    return array_ops.concat([[0], math_ops.cumsum(lengths)], axis=-1)


def assert_splits_match(nested_splits_lists):
    error_msg = "Inputs must have identical ragged splits"
    for splits_list in nested_splits_lists:
        if len(splits_list) != len(nested_splits_lists[0]):
            raise ValueError(error_msg)
    return [check_ops.assert_equal(s1, s2, message=error_msg)
            for splits_list in nested_splits_lists[1:]
            for s1, s2 in zip(nested_splits_lists[0], splits_list)]


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001
          row_splits_dtype=dtypes.int64):
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    with name_scope(name, "RaggedRange", [starts, limits, deltas]) as scope:
        starts = convert_to_tensor(starts, dtype=dtype, name="starts")
        limits = convert_to_tensor(limits, dtype=dtype, name="limits")
        deltas = convert_to_tensor(deltas, dtype=dtype, name="deltas")
        if dtype is None:
            hierarchy = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
            inferred = max([t.dtype for t in (starts, limits, deltas)], key=hierarchy.index)
            starts, limits, deltas = (math_ops.cast(t, inferred)
                                      for t in (starts, limits, deltas))
        splits, values = apply_op("RaggedRange", starts=starts, limits=limits, deltas=deltas,
                                  Tsplits=row_splits_dtype, name=scope)
        return RaggedTensor.from_row_splits(values, splits, validate=False)


# ---- map_flat_values ------------------------------------------------------------------
def map_flat_values(op, *args, **kwargs):
    partition_lists, flat_values_nrows = [], []
    inner_args = _replace_ragged(args, partition_lists, flat_values_nrows)
    inner_kwargs = _replace_ragged(kwargs, partition_lists, flat_values_nrows)
    if not partition_lists:
        return op(*args, **kwargs)
    if flat_values_nrows:
        sizes = set(flat_values_nrows)
        if len(sizes) != 1:
            raise ValueError("Input RaggedTensors' flat_values must all have the same "
                             "outer-dimension size.  Got sizes: %s" % sizes)
        flat_values_nrows = sizes.pop()
    else:
        flat_values_nrows = None
    if len(set(p[0].dtype for p in partition_lists)) > 1:
        raise ValueError("Input RaggedTensors have mismatched row partition dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to "
                         "compatible dtypes.")
    op_output = op(*inner_args, **inner_kwargs)
    if flat_values_nrows is not None:
        if not op_output.shape[:1].is_compatible_with([flat_values_nrows]):
            raise ValueError(
                "tf.ragged.map_flat_values requires that the output of `op` have the same "
                "outer-dimension size as flat_values of any ragged inputs. (output shape: "
                "%s; expected outer dimension size: %s)" % (op_output.shape, flat_values_nrows))
    return from_nested_row_partitions(op_output, _merge_partition_lists(partition_lists))


def _replace_ragged(value, partition_lists, flat_values_nrows):
    if isinstance(value, RaggedTensor):
        partition_lists.append(value._nested_row_partitions)
        shape = value.flat_values.shape
        nrows = shape.dims[0].value if shape.ndims else None
        if nrows is not None:
            flat_values_nrows.append(nrows)
        return value.flat_values
    if isinstance(value, list):
        return [_replace_ragged(v, partition_lists, flat_values_nrows) for v in value]
    if isinstance(value, tuple):
        return tuple(_replace_ragged(v, partition_lists, flat_values_nrows) for v in value)
    if isinstance(value, dict):
        return {k: _replace_ragged(v, partition_lists, flat_values_nrows)
                for k, v in value.items()}
    return value


def _merge_partition_lists(partition_lists):
    dst = list(partition_lists[0])
    for src in partition_lists[1:]:
        if len(src) != len(dst):
            raise ValueError("All ragged inputs must have the same ragged_rank.")
        for i in _builtin_range(len(dst)):
            dst[i] = dst[i].merge_precomputed_encodings(src[i])
    return dst


def from_nested_row_partitions(flat_values, nested_row_partitions, name=None, validate=False):
    with name_scope(name, "RaggedFromNestedRowPartitions",
                    [flat_values] + list(nested_row_partitions)):
        result = flat_values
        for partition in reversed(nested_row_partitions):
            result = RaggedTensor._from_row_partition(result, partition, validate=validate)
        return result


# ---- cross ----------------------------------------------------------------------------
def _cross_internal(inputs, hashed_output=False, num_buckets=0, hash_key=None, name=None):
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if hash_key is None:
        hash_key = _DEFAULT_CROSS_HASH_KEY
    ragged_inputs, sparse_inputs, dense_inputs, input_order = [], [], [], []
    with name_scope(name, "RaggedCross", inputs):
        for i, t in enumerate(inputs):
            if not isinstance(t, SparseTensor):
                t = convert_to_tensor_or_ragged_tensor(t)
            if t.dtype.is_integer:
                t = (SparseTensor(t.indices, math_ops.cast(t.values, dtypes.int64),
                                  t.dense_shape) if isinstance(t, SparseTensor)
                     else math_ops.cast(t, dtypes.int64))
            elif t.dtype != dtypes.string:
                raise ValueError("Unexpected dtype for inputs[%d]: %s" % (i, t.dtype))
            if isinstance(t, RaggedTensor):
                if t.ragged_rank != 1:
                    raise ValueError("tf.ragged.cross only supports inputs with rank=2")
                ragged_inputs.append(t)
                input_order.append("R")
            elif isinstance(t, SparseTensor):
                sparse_inputs.append(t)
                input_order.append("S")
            else:
                dense_inputs.append(t)
                input_order.append("D")
        out_values_type = dtypes.int64 if hashed_output else dtypes.string
        if ragged_inputs and all(t.row_splits.dtype == dtypes.int32 for t in ragged_inputs):
            out_row_splits_type = dtypes.int32
        else:
            out_row_splits_type = dtypes.int64
        if hash_key > 2 ** 63:
            hash_key -= 2 ** 64
        values_out, splits_out = apply_op(
            "RaggedCross", ragged_values=[rt.values for rt in ragged_inputs],
            ragged_row_splits=[rt.row_splits for rt in ragged_inputs],
            sparse_indices=[st.indices for st in sparse_inputs],
            sparse_values=[st.values for st in sparse_inputs],
            sparse_shape=[st.dense_shape for st in sparse_inputs],
            dense_inputs=dense_inputs, input_order="".join(input_order),
            hashed_output=hashed_output, num_buckets=num_buckets, hash_key=hash_key,
            out_values_type=out_values_type, out_row_splits_type=out_row_splits_type,
            name=name)
        return RaggedTensor.from_row_splits(values_out, splits_out, validate=False)


def cross(inputs, name=None):
    return _cross_internal(inputs=inputs, hashed_output=False, name=name)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    return _cross_internal(inputs=inputs, hashed_output=True, num_buckets=num_buckets,
                           hash_key=hash_key, name=name)


# ---- the raw fill-empty-rows ops ------------------------------------------------------
def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    return apply_op("RaggedFillEmptyRows", value_rowids=value_rowids, values=values,
                    nrows=nrows, default_value=default_value, name=name)


def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    return apply_op("RaggedFillEmptyRowsGrad", reverse_index_map=reverse_index_map,
                    grad_values=grad_values, name=name)


def expand_dims(input, axis, name=None):  # noqa: A002  (TensorFlow's name)
    """ragged_array_ops.expand_dims: a new dimension of size 1 at `axis`."""
    with name_scope(name, "RaggedExpandDims", [input]):
        input = convert_to_tensor_or_ragged_tensor(input, name="input")  # noqa: A001
        if not is_ragged(input):
            return array_ops.expand_dims(input, axis)
        ndims = None if input.shape.ndims is None else input.shape.ndims + 1
        axis = get_positive_axis(axis, ndims, ndims_name="rank(input)")
        if axis == 0:
            return RaggedTensor.from_uniform_row_length(
                input, uniform_row_length=input.nrows(), nrows=1, validate=False)
        if axis == 1:
            return RaggedTensor.from_uniform_row_length(
                input, uniform_row_length=1, nrows=input.nrows(), validate=False)
        if is_ragged(input.values):
            return input.with_values(expand_dims(input.values, axis - 1))
        return input.with_values(array_ops.expand_dims(input.values, axis - 1))


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row p of the result: the items of `data` whose partition is p, in order."""
    from engine.ops.sort_ops import argsort
    with name_scope(name, "SegmentStack", [data, partitions, num_partitions]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        row_splits_dtype = data.row_splits.dtype if is_ragged(data) else None
        partitions = convert_to_tensor_or_ragged_tensor(partitions, name="partitions",
                                                        preferred_dtype=row_splits_dtype)
        num_partitions = convert_to_tensor(num_partitions, name="num_partitions",
                                           preferred_dtype=partitions.dtype)
        if row_splits_dtype is not None:
            partitions = math_ops.cast(partitions, row_splits_dtype)
        num_partitions = math_ops.cast(num_partitions, partitions.dtype)
        partitions_rank = partitions.shape.ndims
        if partitions_rank is None:
            raise ValueError("partitions must have known rank.")
        num_partitions.shape.assert_has_rank(0)
        partitions.shape.assert_is_compatible_with(data.shape[:partitions_rank])
        if partitions_rank == 0:
            return RaggedTensor.from_value_rowids(
                values=array_ops.stack([data]), value_rowids=array_ops.stack([partitions]),
                nrows=num_partitions, validate=False)
        if partitions_rank == 1:
            permutation = argsort(partitions, stable=True)
            value_rowids = array_ops.gather(partitions, permutation)
            values = array_ops.gather(data, permutation)
            checks = [check_ops.assert_less(value_rowids[-1:], num_partitions,
                                            message="partitions must be less than "
                                                    "num_partitions"),
                      check_ops.assert_non_negative(
                          partitions, message="partitions must be non-negative.")]
            with get_default_graph().control_dependencies(checks):
                return RaggedTensor.from_value_rowids(values, value_rowids,
                                                      nrows=num_partitions, validate=False)
        if not is_ragged(data):
            data = RaggedTensor.from_tensor(data, row_splits_dtype=partitions.dtype,
                                            ragged_rank=1)
        if not is_ragged(partitions):
            partitions = RaggedTensor.from_tensor(
                partitions, row_splits_dtype=partitions.dtype,
                ragged_rank=max(data.ragged_rank, partitions_rank - 1))
        check = check_ops.assert_equal(data.row_splits, partitions.row_splits,
                                       message="data and partitions have incompatible "
                                               "ragged shapes")
        with get_default_graph().control_dependencies([check]):
            return stack_dynamic_partitions(data.values, partitions.values, num_partitions)


def identity(input, name=None):  # noqa: A002  (TensorFlow's name)
    """array_ops.identity of a composite: an Identity per component (flat values first)."""
    flat_values = array_ops.identity(input.flat_values, name=name)
    splits = [array_ops.identity(s, name=name) for s in input.nested_row_splits]
    return RaggedTensor.from_nested_row_splits(flat_values, splits, validate=False)


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return array_ops.size(input.flat_values, out_type=out_type, name=name)


def rank(input, name=None):  # noqa: A002
    with name_scope(name, "RaggedRank", [input]):
        return input.ragged_rank + array_ops.rank(input.flat_values)


def add_n(inputs, name=None):
    with name_scope(name, "RaggedAddN", inputs):
        return map_flat_values(math_ops.add_n, inputs)
