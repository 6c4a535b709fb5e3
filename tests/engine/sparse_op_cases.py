"""Cases for the sparse kernels (SparseFillEmptyRows, SparseReshape, the SparseSegment
reductions and their gradient ops): op, inputs as (values, dtype), each run on TensorFlow by
tools/make_sparse_fixtures.py and on the engine by tests/engine/test_sparse_ops.py, through
placeholder_with_default so the kernel (not a shape function) sees bad input."""

import numpy as np

F32, I32, I64 = "float32", "int32", "int64"
DATA = (np.arange(12).reshape(4, 3).tolist(), F32)


def _segment(op, indices, segment_ids, *extra, data=DATA, ids=I32):
    return (op, [data, (indices, ids), (segment_ids, I32), *extra])


def _fill(indices, values, shape, default=(-1.0, F32)):
    return ("SparseFillEmptyRows", [(indices, I64), (values, F32), (shape, I64), default])


def _reshape(indices, shape, new_shape):
    return ("SparseReshape", [(indices, I64), (shape, I64), (new_shape, I64)])


CASES = {
    "sum": _segment("SparseSegmentSum", [0, 1, 3], [0, 0, 2]),
    "mean": _segment("SparseSegmentMean", [0, 1, 3], [0, 0, 2]),
    "sqrtn": _segment("SparseSegmentSqrtN", [0, 1, 3, 2], [0, 0, 0, 2]),
    "mean_int64_ids": _segment("SparseSegmentMean", [3, 1, 3], [0, 1, 1], ids=I64),
    "sum_num_segments": _segment("SparseSegmentSumWithNumSegments", [0, 1, 3], [0, 0, 2],
                                 (5, I32)),
    "mean_num_segments": _segment("SparseSegmentMeanWithNumSegments", [0, 1, 3], [0, 2, 2],
                                  (4, I32)),
    "sqrtn_num_segments": _segment("SparseSegmentSqrtNWithNumSegments", [2, 1], [1, 1],
                                   (3, I32)),
    "mean_gap": _segment("SparseSegmentMean", [0, 1], [0, 3]),
    "mean_empty": _segment("SparseSegmentMean", [], []),
    "mean_3d": _segment("SparseSegmentMean", [1, 0, 1], [0, 1, 1],
                        data=(np.arange(16).reshape(2, 4, 2).tolist(), F32)),
    "index_out_of_range": _segment("SparseSegmentSum", [0, 4, 3], [0, 0, 2]),
    "negative_index": _segment("SparseSegmentMean", [0, -1, 3], [0, 0, 2]),
    "ids_not_increasing": _segment("SparseSegmentSum", [0, 1, 3], [1, 0, 2]),
    "negative_segment": _segment("SparseSegmentSum", [0, 1, 3], [-1, 0, 2]),
    "sizes_differ": _segment("SparseSegmentSum", [0, 1], [0, 0, 2]),
    "segment_ids_matrix": _segment("SparseSegmentSum", [0, 1, 3], [[0, 0, 2]]),
    "indices_matrix": _segment("SparseSegmentSum", [[0, 1, 3]], [0, 0, 2]),
    "too_few_segments": _segment("SparseSegmentSumWithNumSegments", [0, 1, 3], [0, 0, 2],
                                 (2, I32)),
    "num_segments_vector": _segment("SparseSegmentSumWithNumSegments", [0, 1, 3], [0, 0, 2],
                                    ([3], I32)),
    "scalar_data": _segment("SparseSegmentSum", [0], [0], data=(1.0, F32)),
    "sum_grad": _segment("SparseSegmentSumGrad", [0, 1, 3, 1], [0, 0, 2, 3], (5, I32)),
    "mean_grad": _segment("SparseSegmentMeanGrad", [0, 1, 3, 1], [0, 0, 2, 3], (5, I32)),
    "sqrtn_grad": _segment("SparseSegmentSqrtNGrad", [0, 1, 3, 1], [0, 0, 0, 3], (5, I32)),
    "mean_grad_index_out_of_range": _segment("SparseSegmentMeanGrad", [0, 9], [0, 0],
                                             (5, I32)),
    "mean_grad_segment_out_of_range": _segment("SparseSegmentMeanGrad", [0, 1], [0, 7],
                                               (5, I32)),
    "sum_grad_v2": _segment("SparseSegmentSumGradV2", [3, 1, 3, 1], [0, 0, 2, 3], (5, I32)),
    "mean_grad_v2": _segment("SparseSegmentMeanGradV2", [3, 1, 3, 1], [0, 0, 2, 3], (5, I32)),
    "sqrtn_grad_v2": _segment("SparseSegmentSqrtNGradV2", [4, 0, 4], [0, 0, 1], (6, I32),
                              ids=I64),
    "fill": _fill([[1, 0], [1, 2], [3, 1]], [5.0, 6.0, 7.0], [5, 3]),
    "fill_unsorted": _fill([[3, 0], [1, 2], [3, 1]], [5.0, 6.0, 7.0], [5, 3]),
    "fill_nothing_empty": _fill([[0, 0], [1, 1]], [5.0, 6.0], [2, 2]),
    "fill_all_empty": _fill(np.zeros((0, 2), np.int64), [], [3, 2]),
    "fill_rank3": _fill([[1, 0, 1]], [5.0], [3, 2, 2]),
    "fill_row_out_of_range": _fill([[7, 0]], [5.0], [5, 3]),
    "fill_negative_row": _fill([[-1, 0]], [5.0], [5, 3]),
    "fill_default_vector": _fill([[1, 0]], [5.0], [5, 3], default=([-1.0], F32)),
    "fill_values_matrix": _fill([[1, 0]], [[5.0]], [5, 3]),
    "fill_values_count": _fill([[1, 0], [2, 0]], [5.0], [5, 3]),
    "fill_indices_vector": _fill([1, 0], [5.0], [5, 3]),
    "fill_shape_matrix": _fill([[1, 0]], [5.0], [[5, 3]]),
    "fill_grad": ("SparseFillEmptyRowsGrad", [([0, 2, 4], I64), ([1.0, 2.0, 3.0, 4.0, 5.0], F32)]),
    "fill_grad_out_of_range": ("SparseFillEmptyRowsGrad", [([0, 7], I64), ([1.0, 2.0, 3.0], F32)]),
    "reshape": _reshape([[0, 1], [2, 3]], [3, 4], [2, -1]),
    "reshape_3d": _reshape([[0, 1, 1], [2, 0, 1]], [3, 2, 2], [4, 3]),
    "reshape_two_unknown": _reshape([[0, 1]], [3, 4], [-1, -1]),
    "reshape_wrong_size": _reshape([[0, 1]], [3, 4], [5, 2]),
    "reshape_not_a_multiple": _reshape([[0, 1]], [3, 4], [5, -1]),
    "reshape_negative": _reshape([[0, 1]], [3, 4], [-2, 6]),
    "reshape_rank_mismatch": _reshape([[0, 1]], [3, 4, 1], [12]),
    "reshape_indices_vector": _reshape([0, 1], [3, 4], [12]),
    "reshape_shape_matrix": _reshape([[0, 1]], [[3, 4]], [12]),
    "reshape_new_shape_matrix": _reshape([[0, 1]], [3, 4], [[12]]),
    "reshape_empty": _reshape(np.zeros((0, 2), np.int64), [0, 4], [-1, 2]),
    "reshape_empty_unknown_last": _reshape(np.zeros((0, 2), np.int64), [0, 4],
                                           [3, -1]),
}


def _to_dense(indices, shape, values, default=(-1.0, F32), validate=True):
    return ("SparseToDense", [(indices, I64), (shape, I64), (values, F32), default],
            {"validate_indices": validate})


CASES.update({
    "to_dense": _to_dense([[0, 1], [2, 0]], [3, 2], [5.0, 6.0]),
    "to_dense_scalar_value": _to_dense([[0, 1], [2, 0]], [3, 2], 7.0),
    "to_dense_vector_indices": _to_dense([1, 2], [4], [5.0, 6.0]),
    "to_dense_scalar_index": _to_dense(2, [4], 5.0),
    "to_dense_unsorted": _to_dense([[2, 0], [0, 1]], [3, 2], [5.0, 6.0]),
    "to_dense_unsorted_unvalidated": _to_dense([[2, 0], [0, 1]], [3, 2], [5.0, 6.0],
                                               validate=False),
    "to_dense_repeated": _to_dense([[0, 1], [0, 1]], [3, 2], [5.0, 6.0]),
    "to_dense_out_of_bounds": _to_dense([[0, 1], [3, 0]], [3, 2], [5.0, 6.0]),
    "to_dense_out_of_bounds_unvalidated": _to_dense([[0, 1], [3, 0]], [3, 2], [5.0, 6.0],
                                                    validate=False),
    "to_dense_negative": _to_dense([[0, -1]], [3, 2], [5.0]),
    "to_dense_values_count": _to_dense([[0, 1], [2, 0]], [3, 2], [5.0, 6.0, 7.0]),
    "to_dense_default_vector": _to_dense([[0, 1]], [3, 2], [5.0], default=([-1.0], F32)),
    "to_dense_shape_matrix": _to_dense([[0, 1]], [[3, 2]], [5.0]),
    "to_dense_rank_mismatch": _to_dense([[0, 1]], [3, 2, 1], [5.0]),
    "to_dense_indices_3d": _to_dense([[[0, 1]]], [3, 2], [5.0]),
    "to_dense_negative_shape": _to_dense([[0, 1]], [-3, 2], [5.0]),
})


STR = "bytes"


def _cross(sparse, dense, op="SparseCross", **attrs):
    """SparseCross (hashed or joined) or SparseCrossV2 of [(indices, values, shape)] and dense
    matrices, each a (value, dtype)."""
    inputs = [("list", [(i, I64) for i, _, _ in sparse]), ("list", [v for _, v, _ in sparse]),
              ("list", [(s, I64) for _, _, s in sparse]), ("list", dense)]
    if op == "SparseCrossV2":
        inputs.append((attrs.pop("sep", "_X_"), STR))
        return (op, inputs, {})
    hashed = attrs.pop("hashed_output", True)
    internal = I64 if hashed or any(v[1] != STR for _, v, _ in sparse) or any(
        d[1] != STR for d in dense) else STR
    return (op, inputs, {"hashed_output": hashed, "num_buckets": attrs.pop("num_buckets", 0),
                         "hash_key": attrs.pop("hash_key", 0xDECAFCAFFE),
                         "out_type": I64 if hashed else STR, "internal_type": internal})


_WORDS = ([[0, 0], [1, 0], [1, 1], [3, 0]], (["a", "b", "c", "d"], STR), [4, 2])
_IDS = ([[0, 0], [0, 1], [2, 0], [3, 0]], ([7, 8, 9, -3], I64), [4, 3])
_DENSE = ([["x"], ["y"], ["z"], ["w"]], STR)
CASES.update({
    "cross_hashed": _cross([_WORDS, _IDS], [_DENSE]),
    "cross_hashed_buckets": _cross([_WORDS], [_DENSE, ([[1, 2], [3, 4], [5, 6], [7, 8]], I64)],
                                   num_buckets=10, hash_key=123),
    "cross_strings": _cross([_WORDS], [_DENSE], hashed_output=False),
    "cross_strings_ints": _cross([_WORDS, _IDS], [], hashed_output=False),
    "cross_dense_only": _cross([], [_DENSE, ([[1], [2], [3], [4]], I64)], num_buckets=100),
    "cross_v2": _cross([_WORDS], [_DENSE], op="SparseCrossV2", sep="--"),
    "cross_v2_separator_vector": _cross([_WORDS], [_DENSE], op="SparseCrossV2", sep=["-"]),
    "cross_indices_vector": _cross([([0, 1], (["a", "b"], STR), [4, 2])], []),
    "cross_indices_width": _cross([([[0, 0, 0]], (["a"], STR), [4, 2])], []),
    "cross_values_matrix": _cross([([[0, 0]], ([["a"]], STR), [4, 2])], []),
    "cross_values_count": _cross([([[0, 0], [1, 0]], (["a"], STR), [4, 2])], []),
    "cross_shape_matrix": _cross([([[0, 0]], (["a"], STR), [[4, 2]])], []),
    "cross_shape_rank3": _cross([([[0, 0]], (["a"], STR), [4, 2, 1])], []),
    "cross_dense_vector": _cross([_WORDS], [(["x", "y", "z", "w"], STR)]),
    "cross_batch_sizes": _cross([_WORDS, ([[0, 0]], ([1], I64), [3, 1])], []),
    "cross_dense_batch": _cross([_WORDS], [([["x"], ["y"]], STR)]),
})


def _reorder(indices, values, shape):
    return ("SparseReorder", [(indices, I64), (values, F32), (shape, I64)])


def _slice(indices, values, shape, start, size):
    return ("SparseSlice", [(indices, I64), (values, F32), (shape, I64), (start, I64),
                            (size, I64)])


CASES.update({
    "reorder": _reorder([[2, 1], [0, 3], [2, 0], [0, 1]], [1.0, 2.0, 3.0, 4.0], [3, 4]),
    "reorder_rank3": _reorder([[1, 0, 1], [0, 2, 0], [1, 0, 0]], [1.0, 2.0, 3.0], [2, 3, 2]),
    "reorder_empty": _reorder(np.zeros((0, 2), np.int64), [], [3, 4]),
    "reorder_out_of_bounds": _reorder([[2, 1], [0, 4]], [1.0, 2.0], [3, 4]),
    "reorder_counts": _reorder([[2, 1], [0, 3]], [1.0], [3, 4]),
    "reorder_rank_mismatch": _reorder([[2, 1], [0, 3]], [1.0, 2.0], [3, 4, 1]),
    "reorder_indices_vector": _reorder([2, 1], [1.0, 2.0], [3, 4]),
    "slice": _slice([[0, 0], [1, 2], [2, 3], [3, 1]], [1.0, 2.0, 3.0, 4.0], [4, 4], [1, 1],
                    [2, 3]),
    "slice_past_the_end": _slice([[0, 0], [1, 2], [2, 3], [3, 1]], [1.0, 2.0, 3.0, 4.0],
                                 [4, 4], [2, 2], [5, 5]),
    "slice_empty": _slice([[0, 0], [3, 1]], [1.0, 4.0], [4, 4], [1, 2], [1, 1]),
    "slice_start_length": _slice([[0, 0]], [1.0], [4, 4], [1], [2, 2]),
    "slice_size_length": _slice([[0, 0]], [1.0], [4, 4], [1, 1], [2]),
    "slice_start_matrix": _slice([[0, 0]], [1.0], [4, 4], [[1, 1]], [2, 2]),
    "slice_grad": ("SparseSliceGrad", [([5.0, 6.0], F32), ([[0, 0], [1, 2], [2, 3], [3, 1]],
                                                          I64),
                                       ([1, 1], I64), ([[0, 1], [1, 2]], I64)]),
})


def kernel_message(message):
    """The kernel's own text of an OpError's message: between the `Node: '...'` line and the
    `[[{{node ...}}]]` line (several lines for some errors), else the line before it."""
    lines = message.split("\n")
    end = next((i for i, text in enumerate(lines) if "[[{{node" in text), len(lines))
    start = next((i + 1 for i in range(end - 1, -1, -1) if lines[i].startswith("Node: '")),
                 max(end - 1, 0))
    return "\n".join(lines[start:end]).rstrip()


def run_case(tf, name, apply_op):
    """{"outputs": [nested lists]} or {"error": class name, "message": the kernel's text}."""
    op, inputs, *attrs = CASES[name]

    def placeholder(value, dtype):
        if dtype == STR:
            return tf.placeholder_with_default(tf.constant(value, tf.string), None)
        return tf.placeholder_with_default(np.asarray(value, dtype), None)

    tensors = [[placeholder(*item) for item in spec[1]]
               if isinstance(spec[0], str) and spec[0] == "list" else placeholder(*spec)
               for spec in inputs]
    attrs = {key: (tf.string if value == STR else tf.int64) if key.endswith("_type") else value
             for key, value in (attrs[0] if attrs else {}).items()}
    outputs = apply_op(op, tensors, **attrs)
    with tf.Session() as sess:
        try:
            values = sess.run(list(outputs) if isinstance(outputs, (list, tuple)) else [outputs])
        except tf.errors.OpError as error:
            return {"error": type(error).__name__, "message": kernel_message(error.message)}
    return {"outputs": [[x.decode() for x in np.asarray(v).reshape(-1)]
                        if np.asarray(v).dtype == object else np.asarray(v).tolist()
                        for v in values],
            "dtypes": [np.asarray(v).dtype.name for v in values]}
