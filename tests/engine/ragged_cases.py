"""RaggedTensor graphs built the same way by real TensorFlow (tf.compat.v1, graph mode) and
the engine: each case's `build(tf)` returns {name: RaggedTensor | SparseTensor | Tensor};
`run_case` fetches them through Session.run and records their components, static shapes,
dtypes and Python types. tools/make_ragged_fixtures.py writes TensorFlow's to
tests/fixtures/ragged/; tests/engine/test_ragged.py compares the engine's."""

import re

import numpy as np

from ragged_text_cases import parsing as _parsing, strings as _strings

_X = np.array([[1.5, -2.0, 0.0], [3.25, 0.0, 0.0], [0.5, 4.0, -1.0]], np.float32)


def _rt(tf):
    return tf.ragged.constant([[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]])


def _nested(tf):
    return tf.ragged.constant([[[1, 2], []], [[3, 4, 5]], []])


def _factories(tf):
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    return {
        "splits": tf.RaggedTensor.from_row_splits(values, [0, 2, 2, 5]),
        "lengths": tf.RaggedTensor.from_row_lengths(values, [2, 0, 3]),
        "rowids": tf.RaggedTensor.from_value_rowids(values, [0, 0, 2, 2, 2]),
        "rowids_nrows": tf.RaggedTensor.from_value_rowids(values, [0, 0, 2, 2, 2], nrows=5),
        "starts": tf.RaggedTensor.from_row_starts(values, [0, 2, 2]),
        "limits": tf.RaggedTensor.from_row_limits(values, [2, 2, 5]),
        "uniform": tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2),
        "nested_splits": tf.RaggedTensor.from_nested_row_splits(values, [[0, 2, 3], [0, 1, 1, 5]]),
        "nested_lengths": tf.RaggedTensor.from_nested_row_lengths(values, [[2, 1], [1, 0, 4]]),
        "nested_rowids": tf.RaggedTensor.from_nested_value_rowids(
            values, [[0, 0, 1], [0, 2, 2, 2, 2]], nested_nrows=[3, 3]),
        "int32_splits": tf.RaggedTensor.from_row_splits(values, np.array([0, 3, 5], np.int32)),
        "no_validate": tf.RaggedTensor.from_row_splits(values, [0, 1, 5], validate=False),
    }


def _from_tensor(tf):
    x = tf.constant(_X)
    return {
        "plain": tf.RaggedTensor.from_tensor(x),
        "padding": tf.RaggedTensor.from_tensor(x, padding=0.0),
        "lengths": tf.RaggedTensor.from_tensor(x, lengths=[1, 0, 3]),
        "int32": tf.RaggedTensor.from_tensor(x, padding=0.0, row_splits_dtype=tf.int32),
        "rank3_padding": tf.RaggedTensor.from_tensor(tf.reshape(tf.range(12), [2, 3, 2]),
                                                     padding=[0, 1]),
        "nested_lengths": tf.RaggedTensor.from_tensor(
            tf.reshape(tf.range(12), [2, 3, 2]),
            lengths=(tf.constant([2, 1], tf.int64), tf.constant([2, 0, 1], tf.int64))),
        "ragged_rank2": tf.RaggedTensor.from_tensor(tf.reshape(tf.range(12), [2, 3, 2]),
                                                    ragged_rank=2),
        "from_sparse": tf.RaggedTensor.from_sparse(tf.SparseTensor(
            [[0, 0], [0, 1], [2, 0], [3, 0]], [1, 2, 3, 4], [5, 6])),
    }


def _constants(tf):
    return {
        "ints": tf.ragged.constant([[1, 2], [3]]),
        "floats": _rt(tf),
        "nested": _nested(tf),
        "strings": tf.ragged.constant([["a", "bc"], [], ["d"]]),
        "inner_shape": tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1),
        "dtype_int32_splits": tf.ragged.constant([[1.5], [2.5, 3.5]], dtype=tf.float64,
                                                 row_splits_dtype=tf.int32),
        "explicit_ragged_rank": tf.ragged.constant([[[1], [2]], [[3]]], ragged_rank=2),
        "dense_list": tf.ragged.constant([1, 2, 3]),
        "given_inner_shape": tf.ragged.constant([[[1, 2]], [], [[3, 4], [5, 6]]],
                                                inner_shape=(2,)),
        "empty_rows": tf.ragged.constant([[], []], dtype=tf.float32),
        "bools": tf.ragged.constant([[True], [False, True]]),
    }


def _methods(tf):
    rt = _rt(tf)
    nested = _nested(tf)
    return {
        "values": rt.values, "flat_values": nested.flat_values, "row_splits": rt.row_splits,
        "nested_splits_0": nested.nested_row_splits[0],
        "nested_splits_1": nested.nested_row_splits[1],
        "row_lengths": rt.row_lengths(), "nrows": rt.nrows(),
        "nrows_int32": rt.nrows(out_type=tf.int32), "value_rowids": rt.value_rowids(),
        "row_starts": rt.row_starts(), "row_limits": rt.row_limits(),
        "nested_row_lengths_0": nested.nested_row_lengths()[0],
        "nested_row_lengths_1": nested.nested_row_lengths()[1],
        "nested_value_rowids_1": nested.nested_value_rowids()[1],
        "nested_row_lengths_2": nested.row_lengths(axis=2),
        "to_tensor": rt.to_tensor(), "to_tensor_default": rt.to_tensor(default_value=-1.0),
        "to_tensor_shape": rt.to_tensor(shape=[2, 2]),
        "to_tensor_wide": rt.to_tensor(shape=[5, 4], default_value=9.0),
        "nested_to_tensor": nested.to_tensor(),
        "to_sparse": rt.to_sparse(), "nested_to_sparse": nested.to_sparse(),
        "with_values": rt.with_values(tf.range(6)),
        "with_flat_values": nested.with_flat_values(tf.constant([10, 20, 30, 40, 50])),
        "bounding_shape": rt.bounding_shape(), "nested_bounding_shape": nested.bounding_shape(),
        "bounding_shape_axis1": rt.bounding_shape(axis=1),
        "merge_dims": nested.merge_dims(1, 2), "merge_dims_all": nested.merge_dims(0, 2),
        "with_row_splits_dtype": rt.with_row_splits_dtype(tf.int32),
        "inner_to_sparse": tf.ragged.constant([[[1, 2]], [], [[3, 4], [5, 6]]],
                                              ragged_rank=1).to_sparse(),
        "inner_to_tensor": tf.ragged.constant([[[1, 2]], [], [[3, 4], [5, 6]]],
                                              ragged_rank=1).to_tensor(default_value=-1),
        "inner_to_tensor_shape": tf.ragged.constant([[[1, 2]], [], [[3, 4], [5, 6]]],
                                                    ragged_rank=1).to_tensor(shape=[2, 1, 2]),
        "rowids_to_tensor": tf.RaggedTensor.from_value_rowids(
            [1, 2, 3], [0, 2, 2], nrows=4).to_tensor(),
    }


def _elementwise(tf):
    rt = _rt(tf)
    other = rt.with_flat_values(tf.constant([2.0, 4.0, 8.0, 0.5, 1.0, -1.0]))
    ints = tf.ragged.constant([[1, -2], [3]])
    return {
        "add_scalar": tf.add(rt, 1.0), "operator_add": rt + 2.0, "radd": 3.0 + rt,
        "multiply_same_splits": tf.multiply(rt, other), "operator_mul": rt * other,
        "subtract": rt - other, "truediv": rt / 2.0, "negative": -rt,
        "exp": tf.exp(rt), "math_sqrt": tf.math.sqrt(rt), "square": tf.square(rt),
        "cast": tf.cast(rt, tf.int32), "abs": tf.abs(ints), "greater": rt > 2.0,
        "maximum": tf.maximum(rt, 2.5), "logical_not": tf.logical_not(rt > 2.0),
        "nested_add": _nested(tf) * 10, "relu": tf.nn.relu(rt - 3.0),
        "map_flat_values": tf.ragged.map_flat_values(tf.multiply, rt, 3.0),
        "identity": tf.identity(rt),
        "embedding_lookup": tf.nn.embedding_lookup(
            tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
            tf.ragged.constant([[2, 0], [], [1]])),
        "dense_plus_ragged": tf.constant(2.0) + rt,
        "dense_times_ragged": tf.constant(3.0) * rt,
        "dense_minus_ragged": tf.constant(1.0) - rt,
        "size": tf.size(rt), "rank": tf.rank(_nested(tf)),
        "add_n": tf.add_n([rt, other, rt]), "clip": tf.clip_by_value(rt, 1.5, 4.5),
        "expand_dims0": tf.expand_dims(rt, 0), "expand_dims2": tf.expand_dims(rt, 2),
        "reduce_join": tf.reduce_join(tf.ragged.constant([["a", "b"], [], ["c"]]), axis=1,
                                      separator="-"),
        "reduce_join_axis0": tf.strings.reduce_join(tf.ragged.constant([["a", "b"], ["c"]]),
                                                    axis=0),
        "reduce_join_all": tf.strings.reduce_join(tf.ragged.constant([["a", "b"], ["c"]])),
        "map_flat_values_two": tf.ragged.map_flat_values(tf.add, rt, other),
    }


def _broadcast(tf):
    """A dense operand of the RaggedTensor's rank, or two RaggedTensors of equal but not the
    same row partitions: TensorFlow builds its DynamicRaggedShape broadcast (hundreds of
    nodes), the engine a gather by value_rowids or an assertion: values compared."""
    rt = _rt(tf)
    column = tf.constant([[10.0], [20.0], [30.0], [40.0]])
    return {"times_column": rt * column, "column_minus": column - rt,
            "plus_one_by_one": tf.add(rt, tf.constant([[0.5]])),
            "inner_column": tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]],
                                               ragged_rank=1)
            * tf.constant([[[1.0, -1.0]], [[2.0, -2.0]]]),
            # mean of squares less squared mean: RaggedTensors of equal splits, other objects
            "nested_variance_axis2": tf.math.reduce_variance(tf.cast(_nested(tf), tf.float32),
                                                             axis=2)}


def _reductions(tf):
    rt = _rt(tf)
    nested = tf.cast(_nested(tf), tf.float32)
    return {
        "sum_axis1": tf.reduce_sum(rt, axis=1), "sum_axis0": tf.reduce_sum(rt, axis=0),
        "sum_all": tf.reduce_sum(rt), "sum_keepdims": tf.reduce_sum(rt, axis=1, keepdims=True),
        "mean_axis1": tf.reduce_mean(rt, axis=1), "mean_axis0": tf.math.reduce_mean(rt, axis=0),
        "max_axis1": tf.reduce_max(rt, axis=1), "min_axis0": tf.reduce_min(rt, axis=0),
        "prod_axis1": tf.reduce_prod(rt, axis=1),
        "any_axis1": tf.reduce_any(rt > 4.0, axis=1), "all_axis1": tf.reduce_all(rt > 1.0, axis=1),
        "nested_sum_axis2": tf.reduce_sum(nested, axis=2),
        "nested_sum_axis1": tf.reduce_sum(nested, axis=1),
        "nested_sum_axes": tf.reduce_sum(nested, axis=[1, 2]),
        "segment_sum_ragged_ids": tf.math.unsorted_segment_sum(
            rt, tf.ragged.constant([[0, 1], [1], [], [2, 0, 0]]), 3),
        "segment_max_rows": tf.unsorted_segment_max(rt, [1, 0, 1, 1], 2),
        "variance_axis1": tf.math.reduce_variance(rt, axis=1),
        "std_axis0": tf.math.reduce_std(rt, axis=0),
        "dense_variance": tf.math.reduce_variance(tf.constant([1.0, 2.0, 4.0])),
        "sum_reduction_indices": tf.reduce_sum(rt, reduction_indices=1),
    }


def _array_ops(tf):
    rt = _rt(tf)
    short = tf.ragged.constant([[7.0], [8.0, 9.0], [10.0], []])
    dense = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    return {
        "concat0": tf.concat([rt, short], axis=0), "concat1": tf.concat([rt, short], axis=1),
        "concat_dense": tf.concat([rt, dense], axis=1),
        "stack0": tf.stack([rt, short]), "stack1": tf.stack([rt, short], axis=1),
        "ragged_stack": tf.ragged.stack([rt, short]),
        "ragged_stack_dense": tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]),
        "gather": tf.gather(rt, [3, 0, 0]), "gather_nested": tf.gather(_nested(tf), [2, 0]),
        "gather_2d": tf.gather(rt, [[1, 0], [3, 3]]),
        "boolean_mask_rows": tf.ragged.boolean_mask(rt, [True, False, True, True]),
        "boolean_mask_ragged": tf.ragged.boolean_mask(rt, rt > 1.5),
        "boolean_mask_dense": tf.ragged.boolean_mask(dense, dense > 2.5),
        "range": tf.ragged.range([3, 0, 5]), "range_starts": tf.ragged.range([1, 2], [4, 3]),
        "range_deltas": tf.ragged.range([0, 10], [7, 1], [2, -3]),
        "range_float": tf.ragged.range(0.5, [2.0, 3.0], 0.5),
        "range_int32_splits": tf.ragged.range([2, 1], row_splits_dtype=tf.int32),
        "splits_to_ids": tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
        "ids_to_splits": tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]),
        "ids_to_splits_n": tf.ragged.segment_ids_to_row_splits([0, 1, 1], num_segments=4),
        "cross": tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]),
                                  tf.constant([["x"], ["y"]])]),
        "cross_ints": tf.ragged.cross([tf.ragged.constant([[1, 2], []]),
                                       tf.ragged.constant([["p"], ["q"]])]),
        "cross_hashed": tf.ragged.cross_hashed(
            [tf.ragged.constant([["a", "b"], ["c"]]), tf.constant([["x"], ["y"]])],
            num_buckets=100),
        "one_hot": tf.one_hot(tf.ragged.constant([[2, 0], [], [1]]), 3),
        "one_hot_values": tf.one_hot(tf.ragged.constant([[1], [0, 1]]), 2, on_value=5.0,
                                     off_value=-1.0, axis=-1),
        "squeeze_inner": tf.squeeze(tf.ragged.constant([[[1], [2]], [[3]]], ragged_rank=1),
                                    axis=2),
        "squeeze_ragged": tf.squeeze(tf.ragged.constant([[[1, 2]], [[3]]]), axis=1),
        "where_elements": tf.where(rt > 2.5, rt, -rt),
        "where_rows": tf.where([True, False, False, True], rt, short),
        "where_coordinates": tf.where(rt > 2.5),
        "stack_partitions": tf.ragged.stack_dynamic_partitions(
            tf.constant([10, 20, 30, 40, 50]), tf.constant([2, 0, 2, 1, 0]), 4),
        "stack_partitions_ragged": tf.ragged.stack_dynamic_partitions(
            rt, tf.ragged.constant([[1, 0], [1], [], [0, 0, 1]]), 2),
        "stack_partitions_scalar": tf.ragged.stack_dynamic_partitions(tf.constant(5.0), 1, 3),
        "cross_sparse": tf.ragged.cross([tf.SparseTensor([[0, 0], [1, 0], [1, 1]],
                                                         ["s", "t", "u"], [2, 2]),
                                         tf.ragged.constant([["a"], ["b", "c"]])]),
    }


def _fill_empty_rows(tf):
    rowids = tf.constant([0, 0, 2, 5], tf.int64)
    values = tf.constant([1.0, 2.0, 3.0, 4.0])
    out_ids, out_values, empty, reverse = tf.ragged_fill_empty_rows(
        rowids, values, tf.constant(7, tf.int64), tf.constant(-1.0))
    d_values, d_default = tf.ragged_fill_empty_rows_grad(
        reverse, tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]))
    return {"ids": out_ids, "values": out_values, "empty": empty, "reverse": reverse,
            "d_values": d_values, "d_default": d_default}


def _gradients(tf):
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    rt = tf.RaggedTensor.from_row_splits(values, [0, 2, 2, 5])
    default = tf.constant(0.5)
    dense = rt.to_tensor(default_value=default)
    x = tf.constant(_X)
    from_dense = tf.RaggedTensor.from_tensor(x, lengths=[2, 0, 3])
    squared = tf.square(rt) * 3.0
    sparse = rt.to_sparse()
    gathered = tf.gather(rt, [2, 0, 2])
    rowids = tf.constant([0, 2, 2], tf.int64)
    fill_values = tf.constant([1.5, -2.0, 3.0])
    fill_default = tf.constant(0.25)
    filled = tf.ragged_fill_empty_rows(rowids, fill_values, tf.constant(4, tf.int64),
                                       fill_default)[1]
    fill_loss = tf.reduce_sum(filled * filled * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    return {
        "to_tensor_values": tf.gradients(tf.reduce_sum(dense * dense), values)[0],
        "to_tensor_default": tf.gradients(tf.reduce_sum(dense * dense), default)[0],
        "from_tensor": tf.gradients(tf.reduce_sum(from_dense.flat_values * 2.0), x)[0],
        "elementwise": tf.gradients(tf.reduce_sum(squared.flat_values), values)[0],
        "reduce_sum": tf.gradients(tf.reduce_sum(tf.reduce_sum(rt, axis=1) ** 2), values)[0],
        "to_sparse": tf.gradients(tf.reduce_sum(sparse.values * 4.0), values)[0],
        "gather": tf.gradients(tf.reduce_sum(gathered.flat_values * 3.0), values)[0],
        "fill_values": tf.gradients(fill_loss, fill_values)[0],
        "fill_default": tf.gradients(fill_loss, fill_default)[0],
    }


def _placeholder_fed(tf):
    rt = tf.ragged.placeholder(tf.float32, 1, [])
    return {"fed_sum": tf.reduce_sum(rt, axis=1), "fed_plus": rt + 1.0}, rt


def _fed_value(tf):
    return tf.ragged.constant_value([[1.0, 2.0], [], [3.0]], dtype=np.float32)


def _indexing(tf):
    rt = _rt(tf)
    nested = _nested(tf)
    uniform = tf.RaggedTensor.from_tensor(tf.constant(_X))
    return {
        "row": rt[1], "last_row": rt[-1], "row_slice": rt[1:3], "row_step": rt[::2],
        "row_then_column": rt[3, 1], "column_slice": rt[:, 1:], "column_head": rt[:, :1],
        "column_reverse": rt[:, ::-1], "column_negative": rt[:, -2:],
        "nested_row": nested[0], "nested_inner": nested[0, 0],
        "nested_slices": nested[1:, :, :1], "uniform_column": uniform[:, 1],
        "uniform_negative_column": uniform[:, -1], "ellipsis": rt[..., :1],
        "newaxis": rt[None, 1:],
    }


GROUPS = {"factories": _factories, "from_tensor": _from_tensor, "constants": _constants,
          "methods": _methods, "elementwise": _elementwise,
          "broadcast": _broadcast, "reductions": _reductions,
          "array_ops": _array_ops, "indexing": _indexing,
          "parsing": _parsing, "strings": _strings, "fill_empty_rows": _fill_empty_rows,
          "gradients": _gradients}

# Run-time errors: the kernel's or the assertion's class and message.
ERROR_CASES = {
    "row_splits_not_zero": lambda tf: tf.RaggedTensor.from_row_splits(
        [1, 2, 3], tf.placeholder_with_default(tf.constant([1, 2, 3], tf.int64), [None])
    ).row_splits,
    "row_lengths_mismatch": lambda tf: tf.RaggedTensor.from_row_lengths(
        [1, 2, 3], tf.placeholder_with_default(tf.constant([1, 1], tf.int64), [None])).row_splits,
    "range_zero_delta": lambda tf: tf.ragged.range([1, 2], [4, 5], [1, 0]).values,
    "from_sparse_not_right_ragged": lambda tf: tf.RaggedTensor.from_sparse(tf.SparseTensor(
        [[0, 0], [1, 2]], [1, 2], [2, 3])).row_splits,
    "gather_out_of_range": lambda tf: tf.gather(
        _rt(tf), tf.placeholder_with_default([1, 7], [None])).flat_values,
    "to_sparse_bad_splits": lambda tf: tf.RaggedTensor.from_row_splits(
        [1, 2, 3], tf.placeholder_with_default(tf.constant([0, 2, 5], tf.int64), [None]),
        validate=False).to_sparse().indices,
    "range_rank2": lambda tf: tf.ragged.range(tf.placeholder_with_default([[1]], None)).values,
    "fill_empty_rows_grad_rank": lambda tf: tf.ragged_fill_empty_rows_grad(
        tf.constant([0], tf.int64), tf.placeholder_with_default([[1.0]], None))[0],
    "fill_empty_rows_out_of_bounds": lambda tf: tf.ragged_fill_empty_rows(
        tf.constant([0, 4], tf.int64), [1.0, 2.0], tf.constant(3, tf.int64), 0.0)[0],
}

# Errors the Python layer raises while building.
PYTHON_ERRORS = {
    "from_tensor_rank1": lambda tf: tf.RaggedTensor.from_tensor([1, 2, 3]),
    "from_tensor_lengths_and_padding": lambda tf: tf.RaggedTensor.from_tensor(
        [[1, 2]], lengths=[1], padding=0),
    "from_tensor_ragged_rank0": lambda tf: tf.RaggedTensor.from_tensor([[1]], ragged_rank=0),
    "constant_mixed_depth": lambda tf: tf.ragged.constant([[1, [2]], [3]]),
    "constant_inner_shape": lambda tf: tf.ragged.constant([[[1, 2], [3]]], ragged_rank=1),
    "spec_ragged_rank": lambda tf: tf.RaggedTensorSpec([2], tf.float32, ragged_rank=1),
    "spec_no_rank": lambda tf: tf.RaggedTensorSpec(None, tf.float32),
    "as_bool": lambda tf: bool(_rt(tf)),
    "numpy_graph": lambda tf: _rt(tf).numpy(),
    "to_list_graph": lambda tf: tf.ragged.constant([[1]]).to_list(),
    "validate_not_bool": lambda tf: tf.RaggedTensor.from_row_splits([1], [0, 1], validate=1),
    "private_constructor": lambda tf: tf.RaggedTensor(values=[1], row_partition=None),
    "splits_float": lambda tf: tf.RaggedTensor.from_row_splits([1.0], [0.0, 1.0]),
    "rowids_nrows_small": lambda tf: tf.RaggedTensor.from_value_rowids([1, 2], [0, 3], nrows=2),
    "mismatched_splits_dtypes": lambda tf: tf.concat(
        [tf.ragged.constant([[1]]), tf.ragged.constant([[1]], row_splits_dtype=tf.int32)], 0),
    "index_ragged_column": lambda tf: _rt(tf)[:, 0],
    "ragged_feature_conflicting_splits": lambda tf: tf.io.parse_example(
        ["", ""], {"a": tf.io.RaggedFeature(tf.float32, value_key="x"),
                   "b": tf.io.RaggedFeature(tf.float32, value_key="x",
                                            row_splits_dtype=tf.int64)}),
    "strings_split_result_type": lambda tf: tf.strings.split(["a"], result_type="Dense"),
    "string_split_result_type": lambda tf: tf.string_split(["a"], result_type="Dense"),
    "ngrams_scalar": lambda tf: tf.strings.ngrams("a", 2),
    "ngrams_zero_width": lambda tf: tf.strings.ngrams(tf.ragged.constant([["a"]]), 0),
    "one_hot_axis": lambda tf: tf.one_hot(tf.ragged.constant([[1]]), 2, axis=1),
    "ragged_feature_dtype": lambda tf: tf.io.RaggedFeature(tf.int32),
    "ragged_feature_partitions": lambda tf: tf.io.RaggedFeature(tf.int64, partitions=[3]),
    "from_sparse_rank3": lambda tf: tf.RaggedTensor.from_sparse(
        tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 1])),
}


def _is_ragged(value):
    return hasattr(value, "nested_row_splits") and hasattr(value, "flat_values")


def _is_sparse(value):
    return hasattr(value, "indices") and hasattr(value, "dense_shape")


def describe(value):
    """A fetched value's Python kind and components as arrays: ragged (nested splits, flat
    values, to_list), sparse (indices, values, dense_shape) or a plain array."""
    if _is_ragged(value):
        parts = {f"splits{i}": np.asarray(s) for i, s in enumerate(value.nested_row_splits)}
        parts["flat_values"] = np.asarray(value.flat_values)
        return type(value).__name__, parts, value.to_list()
    if _is_sparse(value):
        return type(value).__name__, {"indices": value.indices, "values": value.values,
                                      "dense_shape": value.dense_shape}, None
    return "ndarray", {"value": np.asarray(value)}, None


def static_info(tensor):
    """[python type, static shape text, dtype name, ragged_rank, row splits dtype]."""
    if _is_ragged(tensor):
        return [type(tensor).__name__, str(tensor.shape), tensor.dtype.name,
                tensor.ragged_rank, tensor.row_splits.dtype.name]
    if _is_sparse(tensor):
        kind = type(tensor).__name__
        shape = str(tensor.shape) if kind == "SparseTensor" else None
        return [kind, shape, tensor.dtype.name, None, None]
    return ["Tensor", str(tensor.shape), tensor.dtype.name, None, None]


def run_group(tf, group):
    """({output: (kind, parts, to_list)}, {output: static_info}, [[node name, op type]])."""
    with tf.Graph().as_default() as graph:
        outputs = GROUPS[group](tf)
        nodes = [[op.name, op.type] for op in graph.get_operations()]
        static = {name: static_info(t) for name, t in outputs.items()}
        with tf.Session() as sess:
            fetched = sess.run(outputs)
    return {name: describe(v) for name, v in fetched.items()}, static, nodes


def run_placeholder(tf):
    with tf.Graph().as_default():
        outputs, rt = _placeholder_fed(tf)
        with tf.Session() as sess:
            fetched = sess.run(outputs, {rt: _fed_value(tf)})
    return {name: describe(v) for name, v in fetched.items()}


def kernel_message(text):
    """The node's own words, without the graph execution error's traceback lines."""
    if "\nNode: '" in text:
        text = text.split("\nNode: '", 1)[1].split("\n", 1)[1]
    return text.split("\n\t [[", 1)[0]


def run_error(tf, name):
    with tf.Graph().as_default():
        fetch = ERROR_CASES[name](tf)
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except Exception as error:  # noqa: BLE001  (the class is what is compared)
                return type(error).__name__, kernel_message(getattr(error, "message",
                                                                    str(error)))
    return None, None


def python_error(tf, name):
    """The error class and message, classes named without their modules."""
    with tf.Graph().as_default():
        try:
            PYTHON_ERRORS[name](tf)
        except Exception as error:  # noqa: BLE001
            return type(error).__name__, re.sub(r"<class '[\w.]+\.(\w+)'>", r"<class '\1'>",
                                                str(error))
    return None, None


def spec_answers(tf):
    """RaggedTensorSpec's repr, properties and compatibility answers."""
    with tf.Graph().as_default():
        rt = _rt(tf)
        spec = tf.RaggedTensorSpec([4, None], tf.float32)
        other = tf.RaggedTensorSpec([None, None, 3], tf.int32, ragged_rank=1,
                                    row_splits_dtype=tf.int32)
        return {
            "ragged_repr": repr(rt), "ragged_str": str(rt),
            "nested_repr": repr(_nested(tf)),
            "repr": repr(spec), "repr_other": repr(other),
            "repr_unknown": repr(tf.RaggedTensorSpec(dtype=tf.string, ragged_rank=2)),
            "from_value": repr(tf.RaggedTensorSpec.from_value(rt)),
            "compatible": spec.is_compatible_with(rt),
            "incompatible": other.is_compatible_with(rt),
            "equal": spec == tf.RaggedTensorSpec([4, None], tf.float32),
            "properties": [str(spec.shape), spec.dtype.name, spec.ragged_rank,
                           spec.row_splits_dtype.name],
            "value_type": spec.value_type.__name__,
            "fetched_type": type(tf.ragged.constant_value([[1]])).__name__,
            "constant_value": tf.ragged.constant_value([[1, 2], [3]]).to_list(),
            "constant_value_nested": tf.ragged.constant_value(
                [[[1.5], []], [[2.5, 3.5]]], ragged_rank=2).to_list(),
            "constant_value_int32_splits": str(tf.ragged.constant_value(
                [[1], [2, 3]], row_splits_dtype="int32").row_splits.dtype),
            "constant_value_str": str(tf.ragged.constant_value([[1, 2], [3]])),
            "constant_value_repr": repr(tf.ragged.constant_value([[1.5], []], dtype=np.float32)),
        }
