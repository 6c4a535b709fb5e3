"""tf.ragged's functions (ragged_math_ops.py, ragged_array_ops.py, ragged_concat_ops.py,
ragged_gather_ops.py, ragged_functional_ops.py) and the raw RaggedFillEmptyRows ops."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from engine.ops.ragged.segment_ids import row_splits_to_segment_ids
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


# ---- boolean_mask ---------------------------------------------------------------------
def boolean_mask(data, mask, name=None):
    with name_scope(name, "RaggedMask", [data, mask]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        mask = convert_to_tensor_or_ragged_tensor(mask, dtypes.bool, name="mask")
        row_splits_dtype, (data, mask) = match_row_splits_dtypes(data, mask, return_dtype=True)
        if mask.shape.ndims is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.ndims == 0:
            raise ValueError("mask cannot be scalar.")
        if is_ragged(mask):
            if not is_ragged(data):
                data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank,
                                                row_splits_dtype=mask.row_splits.dtype)
            splits_list = [mask.nested_row_splits, data.nested_row_splits[:mask.ragged_rank]]
            with get_default_graph().control_dependencies(assert_splits_match(splits_list)):
                splits = []
                while is_ragged(mask):
                    if mask.shape.ndims > 2:
                        splits.append(mask.row_splits)
                    else:
                        int_mask = map_flat_values(math_ops.cast, mask, dtype=row_splits_dtype)
                        masked_row_lengths = reduce_sum(int_mask, axis=1)
                        splits.append(lengths_to_splits(masked_row_lengths))
                    mask = mask.values
                    data = data.values
                masked_values = boolean_mask(data, mask)
                return RaggedTensor.from_nested_row_splits(masked_values, splits,
                                                           validate=False)
        if is_ragged(data) and mask.shape.ndims == 1:
            lengths = data.row_lengths()
            masked_lengths = array_ops.boolean_mask(lengths, mask)
            masked_splits = lengths_to_splits(masked_lengths)
            segment_ids = row_splits_to_segment_ids(data.row_splits)
            segment_mask = array_ops.gather(mask, segment_ids)
            masked_values = boolean_mask(data.values, segment_mask)
            return RaggedTensor.from_row_splits(masked_values, masked_splits, validate=False)
        if is_ragged(data):
            mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank,
                                                                  mask.shape.ndims - 1),
                                            row_splits_dtype=data.row_splits.dtype)
            return boolean_mask(data, mask)
        masked_values = array_ops.boolean_mask(data, mask)
        if mask.shape.ndims >= 2:
            masked_lengths = math_ops.count_nonzero(mask, axis=-1, dtype=row_splits_dtype
                                                    or dtypes.int64)
            flattened = array_ops.reshape(masked_lengths, [-1])
            masked_values = RaggedTensor.from_row_lengths(masked_values, flattened,
                                                          validate=False)
            if mask.shape.ndims > 2:
                mask_shape = array_ops.shape(mask, out_type=row_splits_dtype or dtypes.int64)
                split_size = math_ops.cumprod(mask_shape) + 1
                for dim in _builtin_range(mask.shape.ndims - 3, -1, -1):
                    elt_size = mask_shape[dim + 1]
                    masked_splits = math_ops.range(split_size[dim]) * elt_size
                    masked_values = RaggedTensor.from_row_splits(masked_values, masked_splits,
                                                                 validate=False)
        return masked_values


# ---- reductions -----------------------------------------------------------------------
def _segment_aggregate(unsorted_segment_op, data, segment_ids, num_segments, separator=None,
                       name=None):
    if not (is_ragged(data) or is_ragged(segment_ids)):
        if separator is not None:
            return unsorted_segment_op(data, segment_ids, num_segments, separator, name)
        return unsorted_segment_op(data, segment_ids, num_segments, name)
    with name_scope(name, "RaggedSegment", [data, segment_ids, num_segments]):
        data_row_lengths = data.row_splits[1:] - data.row_splits[:-1]
        output_row_lengths = math_ops.maximum(
            _unsorted("max")(data_row_lengths, segment_ids, num_segments), 0)
        output_splits = array_ops.concat([array_ops.zeros([1], output_row_lengths.dtype),
                                          math_ops.cumsum(output_row_lengths)], axis=0)
        start = array_ops.gather(output_splits, segment_ids)
        limit = start + data_row_lengths
        data_val_to_out_val_index = range(start, limit).values
        output_values = _segment_aggregate(unsorted_segment_op, data.values,
                                           data_val_to_out_val_index, output_splits[-1],
                                           separator)
        return RaggedTensor.from_row_splits(output_values, output_splits, validate=False)


def _unsorted(kind):
    """The unsorted segment op: unsorted_segment_<kind>, or `kind` itself if a function."""
    if callable(kind):
        return kind
    from engine.ops import segment_ops
    return getattr(segment_ops, "unsorted_segment_" + kind)


def reduce_aggregate(reduce_op, segment_kind, rt_input, axis, keepdims, separator=None,
                     name=None):
    maybe_separator = {} if separator is None else {"separator": separator}
    if not is_ragged(rt_input):
        return reduce_op(rt_input, axis, keepdims=keepdims, name=name, **maybe_separator)
    unsorted_segment_op = _unsorted(segment_kind)
    if hasattr(axis, "op"):
        axis = constant_value(axis)
        if axis is None:
            raise ValueError("axis must be known at graph construction time.")
        if hasattr(axis, "tolist"):
            axis = axis.tolist()
    if axis is None:
        result = reduce_op(rt_input.flat_values, None, keepdims=keepdims, name=name,
                           **maybe_separator)
        if keepdims:
            for _ in rt_input.shape[1:]:
                result = array_ops.expand_dims(result, axis=0)
        return result
    with name_scope(name, "RaggedReduce", [rt_input, axis]):
        if isinstance(axis, (tuple, list)):
            if not axis:
                return rt_input
            if len(axis) == 1:
                axis = axis[0]
            else:
                axis = sorted(get_positive_axis(a, rt_input.shape.ndims, "axis[%s]" % i,
                                                "rank(input_tensor)")
                              for i, a in enumerate(axis))
                inner = reduce_aggregate(reduce_op, segment_kind, rt_input, axis[-1], keepdims,
                                         separator)
                return reduce_aggregate(reduce_op, segment_kind, inner, axis[:-1], keepdims,
                                        separator)
        axis = get_positive_axis(axis, rt_input.shape.ndims, ndims_name="rank(input_tensor)")
        if axis == 0:
            row_lengths = rt_input.row_splits[1:] - rt_input.row_splits[:-1]
            num_segments = math_ops.maximum(math_ops.reduce_max(row_lengths), 0)
            segment_ids = range(row_lengths).values
            result = _segment_aggregate(unsorted_segment_op, rt_input.values, segment_ids,
                                        num_segments, separator)
            if keepdims:
                result = array_ops.expand_dims(result, axis=0)
            return result
        if axis == 1:
            num_segments = array_ops.shape(rt_input.row_splits)[0] - 1
            segment_ids = row_splits_to_segment_ids(rt_input.row_splits)
            result = _segment_aggregate(unsorted_segment_op, rt_input.values, segment_ids,
                                        num_segments, separator)
            if keepdims:
                result = array_ops.expand_dims(result, axis=1)
            return result
        return rt_input.with_values(reduce_aggregate(reduce_op, segment_kind, rt_input.values,
                                                     axis - 1, keepdims, separator))


def _reducer(reduce_op, segment_kind, default_name):
    def reduce(input_tensor, axis=None, keepdims=None, name=None):
        return reduce_aggregate(reduce_op, segment_kind, input_tensor, axis, keepdims,
                                name=name or default_name)
    return reduce


reduce_sum = _reducer(math_ops.reduce_sum, "sum", "RaggedReduceSum")
reduce_prod = _reducer(math_ops.reduce_prod, "prod", "RaggedReduceProd")
reduce_min = _reducer(math_ops.reduce_min, "min", "RaggedReduceMin")
reduce_max = _reducer(math_ops.reduce_max, "max", "RaggedReduceMax")


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None):
    with name_scope(name, "RaggedReduceMean", [input_tensor, axis]):
        total = reduce_sum(input_tensor, axis, keepdims)
        if is_ragged(input_tensor):
            ones = RaggedTensor.from_nested_row_splits(
                array_ops.ones_like(input_tensor.flat_values), input_tensor.nested_row_splits,
                validate=False)
        else:
            ones = array_ops.ones_like(input_tensor)
        count = reduce_sum(ones, axis, keepdims)
        if is_ragged(total):
            return RaggedTensor.from_nested_row_splits(
                total.flat_values / count.flat_values, total.nested_row_splits,
                validate=False)
        return total / count


def _bool_reducer(inner, default_name):
    def reduce(input_tensor, axis=None, keepdims=None, name=None):
        with name_scope(name, default_name, [input_tensor, axis]):
            return math_ops.cast(inner(math_ops.cast(input_tensor, dtypes.int32), axis,
                                       keepdims), dtypes.bool)
    return reduce


reduce_all = _bool_reducer(reduce_prod, "RaggedReduceAll")
reduce_any = _bool_reducer(reduce_sum, "RaggedReduceAny")


# ---- concat, stack, gather ------------------------------------------------------------
def concat(values, axis, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        return _stack_concat(values, axis, stack_values=False)


def stack(values, axis=0, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        return _stack_concat(values, axis, stack_values=True)


def _stack_concat(rt_inputs, axis, stack_values):
    if not rt_inputs:
        raise ValueError("rt_inputs may not be empty.")
    rt_inputs = [convert_to_tensor_or_ragged_tensor(rt, name="rt_input") for rt in rt_inputs]
    row_splits_dtype, rt_inputs = match_row_splits_dtypes(*rt_inputs, return_dtype=True)
    row_splits_dtype = row_splits_dtype or dtypes.int64
    rt_inputs = list(rt_inputs)
    if len(rt_inputs) == 1 and not stack_values:
        return rt_inputs[0]
    ndims = None
    for rt in rt_inputs:
        if ndims is None:
            ndims = rt.shape.ndims
        else:
            rt.shape.assert_has_rank(ndims)
    out_ndims = ndims if (ndims is None or not stack_values) else ndims + 1
    axis = get_positive_axis(axis, out_ndims)
    if stack_values and ndims == 1 and axis == 0:
        return RaggedTensor.from_row_lengths(
            values=array_ops.concat(rt_inputs, axis=0),
            row_lengths=array_ops.concat([array_ops.shape(r) for r in rt_inputs], axis=0))
    if all(not is_ragged(rt) for rt in rt_inputs):
        if ndims is not None and (axis == out_ndims - 1 or axis == ndims - 1):
            if stack_values:
                return array_ops.stack(rt_inputs, axis)
            return array_ops.concat(rt_inputs, axis)
    for i, rt in enumerate(rt_inputs):
        if not is_ragged(rt):
            rt_inputs[i] = RaggedTensor.from_tensor(rt, ragged_rank=1,
                                                    row_splits_dtype=row_splits_dtype)
    ragged_rank = max(max(rt.ragged_rank for rt in rt_inputs), 1)
    rt_inputs = [_increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype)
                 for rt in rt_inputs]
    if axis == 0:
        return _stack_concat_axis_0(rt_inputs, stack_values)
    if axis == 1:
        return _stack_concat_axis_1(rt_inputs, stack_values)
    values = [rt.values for rt in rt_inputs]
    splits = [[rt.row_splits] for rt in rt_inputs]
    with get_default_graph().control_dependencies(assert_splits_match(splits)):
        return RaggedTensor.from_row_splits(_stack_concat(values, axis - 1, stack_values),
                                            splits[0][0], validate=False)


def _stack_concat_axis_0(rt_inputs, stack_values):
    flat_values = array_ops.concat([rt.flat_values for rt in rt_inputs], axis=0)
    nested_splits = [rt.nested_row_splits for rt in rt_inputs]
    ragged_rank = rt_inputs[0].ragged_rank
    splits = [_concat_splits([ns[dim] for ns in nested_splits])
              for dim in _builtin_range(ragged_rank)]
    if stack_values:
        stack_lengths = array_ops.stack([rt.nrows() for rt in rt_inputs])
        splits.insert(0, lengths_to_splits(stack_lengths))
    return RaggedTensor.from_nested_row_splits(flat_values, splits, validate=False)


def _stack_concat_axis_1(rt_inputs, stack_values):
    num_inputs = len(rt_inputs)
    rt_nrows = rt_inputs[0].nrows()
    checks = [check_ops.assert_equal(
        rt_nrows, rt.nrows(),
        message=f"Input tensors at index 0 (=x) and {index + 1} (=y) have incompatible "
                "shapes.") for index, rt in enumerate(rt_inputs[1:])]
    with get_default_graph().control_dependencies(checks):
        concatenated = _stack_concat_axis_0(rt_inputs, stack_values=False)
        row_indices = math_ops.range(rt_nrows * num_inputs)
        row_index_matrix = array_ops.reshape(row_indices, [num_inputs, -1])
        permutation = array_ops.reshape(array_ops.transpose(row_index_matrix), [-1])
        permuted = gather(concatenated, permutation)
        if stack_values:
            stack_splits = math_ops.range(0, rt_nrows * num_inputs + 1, num_inputs)
            _copy_row_shape(rt_inputs, stack_splits)
            return RaggedTensor.from_row_splits(permuted, stack_splits, validate=False)
        concat_splits = permuted.row_splits[::num_inputs]
        _copy_row_shape(rt_inputs, concat_splits)
        return RaggedTensor.from_row_splits(permuted.values, concat_splits, validate=False)


def _copy_row_shape(rt_inputs, splits):
    for rt in rt_inputs:
        if rt.shape[0] is not None and rt.shape.dims[0].value is not None:
            splits.set_shape(TensorShape([rt.shape.dims[0].value + 1]))


def _increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype):
    if ragged_rank > 0:
        if not is_ragged(rt):
            rt = RaggedTensor.from_tensor(rt, row_splits_dtype=row_splits_dtype)
        if rt.ragged_rank < ragged_rank:
            rt = rt.with_values(_increase_ragged_rank_to(rt.values, ragged_rank - 1,
                                                         row_splits_dtype))
    return rt


def _concat_splits(splits_list):
    pieces = [splits_list[0]]
    offset = splits_list[0][-1]
    for splits in splits_list[1:]:
        pieces.append(splits[1:] + offset)
        offset += splits[-1]
    return array_ops.concat(pieces, axis=0)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """tf.gather of a RaggedTensor's rows (axis 0) or by ragged indices."""
    with name_scope(name, "RaggedGather", [params, indices]):
        params = convert_to_tensor_or_ragged_tensor(params, name="params")
        indices = convert_to_tensor_or_ragged_tensor(indices, name="indices")
        params, indices = match_row_splits_dtypes(params, indices)
        if batch_dims != 0 or axis not in (None, 0):
            raise NotImplementedError("the engine gathers RaggedTensors along axis 0 only")
        return _gather(params, indices)


def _gather(params, indices):
    if not (is_ragged(params) or is_ragged(indices)):
        return array_ops.gather(params, indices)
    if is_ragged(indices):
        return indices.with_values(_gather(params, indices.values))
    if indices.shape.ndims is None:
        raise ValueError("rank(indices) must be known statically")
    out_ragged_rank = indices.shape.ndims + len(params.nested_row_splits) - 1
    *splits, values = apply_op("RaggedGather", indices=indices,
                               params_dense_values=params.flat_values,
                               params_nested_splits=list(params.nested_row_splits),
                               OUTPUT_RAGGED_RANK=out_ragged_rank)
    result = RaggedTensor.from_nested_row_splits(values, splits, validate=False)
    if indices.shape.ndims > 1:
        # TensorFlow computes the index dimensions' sizes here and keeps them as plain
        # attributes nothing reads; the nodes are in its graph
        target = result
        indices_shape = array_ops.shape(indices, out_type=params.row_splits.dtype)
        shape_cumprod = math_ops.cumprod(indices_shape)
        for dim in _builtin_range(indices.shape.ndims - 1):
            target._cached_nrows = shape_cumprod[dim]
            target._cached_uniform_row_length = indices_shape[dim + 1]
            target = target.values
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
