"""Graphs of tf.sparse's arithmetic (tf.sparse.add, concat, maximum, minimum, the reductions,
softmax, split, to_indicator, transpose, from_dense, eye, expand_dims, reset_shape, mask),
tf.sparse_matmul and the serialized SparseTensors, built the same way on TensorFlow
(tools/make_sparse_math_fixtures.py) and on the engine (tests/engine/test_sparse_math.py);
gradients where TensorFlow has them. ERROR_CASES run one raw op on bad input."""

import numpy as np

F32, I64 = np.float32, np.int64

_A = ([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]], [1.5, -2.0, 3.25, 0.5, -1.0], [3, 4])
_B = ([[0, 2], [1, 0], [1, 1], [2, 3]], [0.25, 4.0, -3.25, 2.0], [3, 4])
_C = ([[0, 1], [1, 2]], [7.0, -8.0], [3, 3])
_R3 = ([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1], [1, 1, 2]],
       [1.0, -2.0, 0.5, 3.0, -4.5], [2, 2, 3])
_UNSORTED = ([[2, 0], [0, 2], [1, 1], [0, 0]], [0.5, -2.0, 3.25, 1.5], [3, 4])


def _sparse(tf, spec, name, dtype=F32):
    indices, values, shape = spec
    values = tf.constant(np.array(values, dtype), name=f"{name}_values")
    return tf.SparseTensor(tf.constant(np.array(indices, I64).reshape(-1, len(shape)),
                                       name=f"{name}_indices"),
                           values, tf.constant(np.array(shape, I64), name=f"{name}_shape"))


def _loss(tf, tensors):
    """The sum of the squares of float outputs: each entry's gradient is its own."""
    terms = []
    for t in tensors:
        values = t.values if isinstance(t, tf.SparseTensor) else t
        terms.append(tf.reduce_sum(tf.square(values)))
    return tf.add_n(terms)


def _add(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    out = tf.sparse_add(a, b)
    return {"out": out}, [out], [a.values, b.values]


def _add_threshold(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    out = tf.sparse.add(a, b, threshold=0.5)
    return {"out": out}, [out], [a.values, b.values]


def _add_thresh_old_name(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    return {"out": tf.sparse_add(a, b, thresh=1.0)}, [], []


def _add_dense(tf):
    a = _sparse(tf, _A, "a")
    dense = tf.constant(np.arange(12, dtype=F32).reshape(3, 4) / 4, name="dense")
    out = tf.sparse_add(dense, a)
    return {"out": out}, [out], [a.values, dense]


def _add_int64(tf):
    a = _sparse(tf, ([[0, 1], [1, 0]], [3, -4], [2, 2]), "a", I64)
    b = _sparse(tf, ([[0, 1], [1, 1]], [-3, 9], [2, 2]), "b", I64)
    return {"out": tf.sparse.add(a, b)}, [], []


def _concat(tf):
    a, c = _sparse(tf, _A, "a"), _sparse(tf, _C, "c")
    return {"out": tf.sparse_concat(1, [a, c])}, [], []


def _concat_rows(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    return {"out": tf.sparse.concat(axis=0, sp_inputs=[a, b], name="rows")}, [], []


def _concat_expand(tf):
    a = _sparse(tf, _A, "a")
    d = _sparse(tf, ([[0, 0], [4, 1]], [9.0, 10.0], [5, 2]), "d")
    return {"out": tf.sparse_concat(-1, [a, d], expand_nonconcat_dim=True)}, [], []


def _concat_old_name(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    return {"out": tf.sparse_concat(None, [a, b], concat_dim=1)}, [], []


def _maximum(tf):
    a, b = _sparse(tf, _A, "a"), _sparse(tf, _B, "b")
    return {"max": tf.sparse_maximum(a, b), "min": tf.sparse.minimum(a, b)}, [], []


def _reduce_sum(tf):
    a = _sparse(tf, _R3, "a")
    outputs = {"all": tf.sparse_reduce_sum(a), "axis1": tf.sparse.reduce_sum(a, 1),
               "axes": tf.sparse_reduce_sum(a, [0, -1], keepdims=True),
               "old": tf.sparse_reduce_sum(a, reduction_axes=[2], keep_dims=True)}
    return outputs, list(outputs.values()), [a.values]


def _reduce_sum_sparse(tf):
    a = _sparse(tf, _R3, "a")
    return {"axis1": tf.sparse_reduce_sum_sparse(a, 1),
            "keep": tf.sparse.reduce_sum_sparse(a, [0, 2], keepdims=True)}, [], []


def _reduce_max(tf):
    a = _sparse(tf, _R3, "a")
    return {"all": tf.sparse_reduce_max(a), "axis2": tf.sparse.reduce_max(a, 2),
            "keep": tf.sparse_reduce_max(a, -1, keepdims=True),
            "sparse": tf.sparse_reduce_max_sparse(a, 0),
            "sparse_keep": tf.sparse.reduce_max_sparse(a, [1], keepdims=True)}, [], []


def _reduce_unsorted(tf):
    a = _sparse(tf, _UNSORTED, "a")
    return {"sum": tf.sparse_reduce_sum(a, 0), "max": tf.sparse_reduce_max(a, 1),
            "sum_sparse": tf.sparse_reduce_sum_sparse(a, 1)}, [], []


def _softmax(tf):
    a = _sparse(tf, _A, "a")
    out = tf.sparse_softmax(a)
    return {"out": out}, [out], [a.values]


def _softmax_rank3(tf):
    a = _sparse(tf, _R3, "a")
    out = tf.sparse.softmax(a, name="soft")
    return {"out": out}, [out], [a.values]


def _softmax_wide(tf):
    rng = np.random.RandomState(3)
    indices = [[r, c] for r in range(3) for c in range(23) if (r + c) % 4 != 1]
    a = _sparse(tf, (indices, rng.randn(len(indices)) * 3, [3, 23]), "a")
    out = tf.sparse_softmax(a)
    return {"out": out}, [out], [a.values]


def _softmax_wide_float64(tf):
    rng = np.random.RandomState(4)
    indices = [[r, c] for r in range(3) for c in range(37) if (r * c) % 5 != 2]
    a = _sparse(tf, (indices, rng.randn(len(indices)) * 3, [3, 37]), "a", np.float64)
    out = tf.sparse_softmax(a)
    return {"out": out, "sum": tf.sparse_reduce_sum(a, 1),
            "sum32": tf.sparse_reduce_sum(_sparse(tf, (indices, rng.randn(len(indices)),
                                                       [3, 37]), "b"), 1)}, [out], [a.values]


def _split(tf):
    a = _sparse(tf, _A, "a")
    parts = tf.sparse_split(sp_input=a, num_split=3, axis=1)
    return {f"part{i}": p for i, p in enumerate(parts)}, [], []


def _split_rows(tf):
    a = _sparse(tf, _R3, "a")
    parts = tf.sparse.split(sp_input=a, num_split=2, axis=0, name="rows")
    return {f"part{i}": p for i, p in enumerate(parts)}, [], []


def _to_indicator(tf):
    ids = _sparse(tf, ([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [3, 1, 0, 4, 3], [3, 2]),
                  "ids", I64)
    return {"out": tf.sparse_to_indicator(ids, 5)}, [], []


def _to_indicator_int32(tf):
    ids = _sparse(tf, ([[0, 0, 0], [1, 0, 1]], [2, 0], [2, 1, 2]), "ids", np.int32)
    return {"out": tf.sparse.to_indicator(ids, vocab_size=3, name="ind")}, [], []


def _transpose(tf):
    a = _sparse(tf, _A, "a")
    return {"out": tf.sparse_transpose(a)}, [], []


def _transpose_perm(tf):
    a = _sparse(tf, _R3, "a")
    return {"out": tf.sparse.transpose(a, [2, 0, 1])}, [], []


def _from_dense(tf):
    dense = tf.constant([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]], name="dense")
    return {"out": tf.sparse.from_dense(dense),
            "ints": tf.sparse.from_dense(tf.constant([[0, 4], [5, 0]], tf.int64))}, [], []


def _eye(tf):
    return {"square": tf.sparse.eye(3), "wide": tf.sparse.eye(2, 4, dtype=tf.int32),
            "tall": tf.sparse.eye(tf.constant(4), tf.constant(2))}, [], []


def _expand_dims(tf):
    a = _sparse(tf, _A, "a")
    return {"first": tf.sparse.expand_dims(a, 0), "last": tf.sparse.expand_dims(a),
            "middle": tf.sparse.expand_dims(a, -2)}, [], []


def _reset_shape(tf):
    a = _sparse(tf, _A, "a")
    return {"tight": tf.sparse_reset_shape(a), "wider": tf.sparse.reset_shape(a, [5, 6])}, [], []


def _reset_shape_dynamic(tf):
    a = _sparse(tf, _A, "a")
    new_shape = tf.placeholder_with_default(np.array([4, 7], I64), [2], name="new_shape")
    return {"out": tf.sparse_reset_shape(a, new_shape)}, [], []


def _mask(tf):
    slices = tf.IndexedSlices(tf.constant(np.arange(8, dtype=F32).reshape(4, 2), name="v"),
                              tf.constant([12, 26, 7, 9], name="i"),
                              tf.constant([30, 2], name="s"))
    masked = tf.sparse_mask(slices, tf.constant([26, 9], name="m"))
    return {"values": masked.values, "indices": masked.indices,
            "dense_shape": masked.dense_shape}, [], []


def _matmul(tf):
    rng = np.random.RandomState(5)
    a = tf.constant(rng.randn(3, 4).astype(F32), name="a")
    b = tf.constant(rng.randn(5, 4).astype(F32), name="b")
    out = tf.sparse_matmul(a, b, transpose_b=True, a_is_sparse=True)
    plain = tf.sparse_matmul(b, a, transpose_b=True)
    return {"out": out, "plain": plain}, [out, plain], [a, b]


def _serialize(tf):
    a = _sparse(tf, _A, "a")
    words = _sparse(tf, ([[0], [3]], np.array([b"ab", b""], object), [5]), "w", object)
    return {"one": tf.serialize_sparse(a), "words": tf.serialize_sparse(words),
            "many": tf.serialize_many_sparse(a),
            "many_rank3": tf.io.serialize_many_sparse(_sparse(tf, _R3, "r"))}, [], []


def _deserialize(tf):
    a = _sparse(tf, _A, "a")
    many = tf.serialize_many_sparse(a)
    back = tf.deserialize_many_sparse(many, tf.float32, rank=2)
    one = tf.deserialize_many_sparse(tf.stack([tf.serialize_sparse(_sparse(tf, _C, "c")),
                                               tf.serialize_sparse(_sparse(tf, _B, "b"))]),
                                     tf.float32)
    return {"back": back, "stacked": one}, [], []


def _bincount(tf):
    values = tf.constant([[1, 3, 1], [0, 5, 2]], tf.int64, name="ids")
    weights = tf.constant([[0.5, 1.0, 2.0], [1.0, 1.5, 1.0]], name="w")
    return {"all": tf.sparse.bincount(values),
            "rows": tf.sparse.bincount(values, axis=-1, minlength=8),
            "weighted": tf.sparse.bincount(values, weights=weights, axis=-1),
            "binary": tf.sparse.bincount(values, axis=-1, binary_output=True, maxlength=3,
                                         name="bin")}, [], []


def _bincount_sparse(tf):
    ids = _sparse(tf, ([[0, 0], [0, 2], [2, 1], [2, 3]], [4, 1, 4, 4], [3, 4]), "ids",
                  np.int32)
    weights = tf.SparseTensor(ids.indices, tf.constant([1.0, 2.0, 3.0, 0.5]), ids.dense_shape)
    return {"all": tf.sparse.bincount(ids),
            "rows": tf.sparse.bincount(ids, axis=-1),
            "weighted": tf.sparse.bincount(ids, weights=weights, axis=-1)}, [], []


def _cwise_mul_div(tf):
    a = _sparse(tf, _A, "a")
    dense = tf.constant([[2.0, -1.0, 0.5, 4.0]], name="dense")
    mul = tf.raw_ops.SparseDenseCwiseMul(sp_indices=a.indices, sp_values=a.values,
                                         sp_shape=a.dense_shape, dense=dense)
    div = tf.raw_ops.SparseDenseCwiseDiv(sp_indices=a.indices, sp_values=a.values,
                                         sp_shape=a.dense_shape, dense=dense)
    return {"mul": mul, "div": div}, [mul, div], [a.values, dense]


CASES = {name[1:]: fn for name, fn in list(globals().items())
         if name.startswith("_") and callable(fn) and name not in (
             "_sparse", "_loss", "_parts", "_fetchable")}


def _parts(tf, value):
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices, "values": value.values,
                "dense_shape": value.dense_shape}
    return {"": value}


def _fetchable(tf, outputs):
    flat = {}
    for key, value in outputs.items():
        for part, tensor in _parts(tf, value).items():
            flat[f"{key}.{part}" if part else key] = tensor
    return flat


def build_case(tf, name):
    """(fetches by key, gradient tensors) of the case in the default graph."""
    outputs, differentiated, sources = CASES[name](tf)
    fetches = _fetchable(tf, outputs)
    grads = tf.gradients(_loss(tf, differentiated), sources) if sources else []
    return fetches, grads


def _storable(array):
    """Strings (serialized protos) as hex text: .npz keeps bytes only through pickle, and
    fixed-width bytes lose trailing NULs."""
    if array.dtype == object:
        return np.array([bytes(v).hex() for v in array.ravel()]).reshape(array.shape)
    return array


def run_case(tf, name):
    """{key: value} (gradients as grad<i>) and {key: static shape} of the case."""
    with tf.Graph().as_default():
        fetches, grads = build_case(tf, name)
        with tf.Session() as sess:
            values, grad_values = sess.run([fetches, grads])
        shapes = {key: (t.shape.as_list() if t.shape.ndims is not None else None)
                  for key, t in fetches.items()}
    values = {key: _storable(np.asarray(v)) for key, v in values.items()}
    values.update({f"grad{i}": np.asarray(g) for i, g in enumerate(grad_values)})
    return values, shapes


def _i(x):
    return np.array(x, I64)


def _f(x):
    return np.array(x, F32)


_ADD = dict(a_indices=_i([[0, 0], [1, 1]]), a_values=_f([0.1, 2.0]), a_shape=_i([2, 2]),
            b_indices=_i([[0, 1], [1, 1]]), b_values=_f([0.2, -1.9]), b_shape=_i([2, 2]),
            thresh=_f(0.5))
_MAX = {k: v for k, v in _ADD.items() if k != "thresh"}
_REDUCE = dict(input_indices=_i([[0, 0], [0, 2], [1, 1], [2, 0]]),
               input_values=_f([-1, -2, 3, 4]), input_shape=_i([3, 3]),
               reduction_axes=np.array([1], np.int32))
_SOFTMAX = dict(sp_indices=_i([[0, 0], [0, 2], [1, 1]]), sp_values=_f([1, 2, 3]),
                sp_shape=_i([3, 3]))
_SPLIT = dict(split_dim=np.array(1, I64), indices=_i([[0, 0], [0, 4], [1, 1]]),
              values=_f([1, 2, 3]), shape=_i([3, 5]))
_CONCAT = dict(indices=[_i([[1, 0], [0, 1]]), _i([[0, 0], [1, 2]])],
               values=[_f([1, 2]), _f([3, 4])], shapes=[_i([2, 2]), _i([2, 3])])
_CWISE = dict(sp_indices=_i([[0, 0], [1, 1], [1, 2]]), sp_values=_f([1, 2, 3]),
              sp_shape=_i([2, 3]), dense=_f([10, 20, 30]))
_DENSE_ADD = dict(a_indices=_i([[0, 0], [1, 1]]), a_values=_f([1, 2]), a_shape=_i([2, 2]),
                  b=_f([[1, 2], [3, 4]]))
_SERIAL = dict(sparse_indices=_i([[0, 0], [1, 2]]), sparse_values=_f([1.5, 2]),
               sparse_shape=_i([2, 3]))

_COUNT = dict(values=np.array([[1, 3, 1], [0, 5, 2]], I64), weights=np.array([], I64))
_SPARSE_COUNT = dict(indices=_i([[0, 0], [0, 2], [2, 1]]), values=np.array([4, 1, 4], I64),
                     dense_shape=_i([3, 4]), weights=np.array([], I64))
_COUNT_ATTRS = {"binary_output": False}

ERROR_CASES = {
    "count_weights_shape": ("DenseCountSparseOutput", dict(_COUNT, weights=_f([0.5, 1])),
                            _COUNT_ATTRS),
    "count_negative": ("DenseCountSparseOutput",
                       dict(_COUNT, values=np.array([[1, -3, 1], [0, 5, 2]], I64)),
                       _COUNT_ATTRS),
    "count_rank3": ("DenseCountSparseOutput", dict(_COUNT, values=np.array([[[1]]], I64)),
                    _COUNT_ATTRS),
    "sparse_count_weights_shape": ("SparseCountSparseOutput",
                                   dict(_SPARSE_COUNT, weights=_f([1, 2])), _COUNT_ATTRS),
    "sparse_count_negative": ("SparseCountSparseOutput",
                              dict(_SPARSE_COUNT, values=np.array([4, -1, 4], I64)),
                              _COUNT_ATTRS),
    "sparse_count_index": ("SparseCountSparseOutput",
                           dict(_SPARSE_COUNT, indices=_i([[0, 0], [5, 2], [2, 1]])),
                           _COUNT_ATTRS),
    "sparse_count_ranks": ("SparseCountSparseOutput",
                           dict(_SPARSE_COUNT, dense_shape=_i([3, 4, 1])), _COUNT_ATTRS),
    "add_shapes_differ": ("SparseAdd", dict(_ADD, b_shape=_i([2, 3])), {}),
    "add_ranks_differ": ("SparseAdd", dict(_ADD, b_shape=_i([2, 2, 1])), {}),
    "add_indices_vector": ("SparseAdd", dict(_ADD, a_indices=_i([0, 1])), {}),
    "add_values_count": ("SparseAdd", dict(_ADD, a_values=_f([1.0])), {}),
    "add_thresh_vector": ("SparseAdd", dict(_ADD, thresh=_f([1.0])), {}),
    "add_shape_matrix": ("SparseAdd", dict(_ADD, a_shape=_i([[2, 2]])), {}),
    "add_grad_count": ("SparseAddGrad", dict(backprop_val_grad=_f([1, 2]),
                                             a_indices=_i([[0, 0], [1, 1]]),
                                             b_indices=_i([[0, 1], [1, 1]]),
                                             sum_indices=_i([[0, 0], [0, 1], [1, 1]])), {}),
    "add_grad_indices_vector": ("SparseAddGrad", dict(backprop_val_grad=_f([1, 2, 3]),
                                                      a_indices=_i([0, 0]),
                                                      b_indices=_i([[0, 1], [1, 1]]),
                                                      sum_indices=_i([[0, 0], [0, 1], [1, 1]])),
                                {}),
    "dense_add_mismatch": ("SparseTensorDenseAdd", dict(_DENSE_ADD, b=_f([[1, 2, 3], [3, 4, 5]])),
                           {}),
    "dense_add_out_of_range": ("SparseTensorDenseAdd",
                               dict(_DENSE_ADD, a_indices=_i([[0, 0], [1, 2]])), {}),
    "dense_add_indices_vector": ("SparseTensorDenseAdd", dict(_DENSE_ADD, a_indices=_i([0, 0])),
                                 {}),
    "concat_shapes": ("SparseConcat", _CONCAT, {"concat_dim": 0}),
    "concat_dim_range": ("SparseConcat", _CONCAT, {"concat_dim": 2}),
    "concat_ranks": ("SparseConcat", dict(_CONCAT, shapes=[_i([2, 2]), _i([2, 3, 1])]),
                     {"concat_dim": 1}),
    "concat_indices_vector": ("SparseConcat", dict(_CONCAT, indices=[_i([1, 0]),
                                                                     _i([[0, 0], [1, 2]])]),
                              {"concat_dim": 1}),
    "concat_rows": ("SparseConcat", dict(_CONCAT, indices=[_i([[1, 0], [0, 1], [0, 0]]),
                                                           _i([[0, 0], [1, 2]])]),
                    {"concat_dim": 1}),
    "maximum_shapes": ("SparseSparseMaximum", dict(_MAX, b_shape=_i([2, 3])), {}),
    "maximum_indices_vector": ("SparseSparseMaximum", dict(_MAX, a_indices=_i([0, 0])), {}),
    "minimum_values_count": ("SparseSparseMinimum", dict(_MAX, a_values=_f([1])), {}),
    "maximum_ranks": ("SparseSparseMaximum", dict(_MAX, b_shape=_i([2, 2, 1])), {}),
    "reduce_axis_range": ("SparseReduceSum", dict(_REDUCE, reduction_axes=np.array([2], np.int32)),
                          {}),
    "reduce_negative_axis": ("SparseReduceMax",
                             dict(_REDUCE, reduction_axes=np.array([-3], np.int32)), {}),
    "reduce_values_count": ("SparseReduceSumSparse", dict(_REDUCE, input_values=_f([1, 2, 3])),
                            {}),
    "reduce_write_index": ("SparseReduceSum",
                           dict(_REDUCE, input_indices=_i([[0, 0], [0, 2], [1, 1], [5, 0]])), {}),
    "softmax_rank1": ("SparseSoftmax", dict(_SOFTMAX, sp_shape=_i([3])), {}),
    "softmax_indices_vector": ("SparseSoftmax", dict(_SOFTMAX, sp_indices=_i([0, 0])), {}),
    "softmax_values_matrix": ("SparseSoftmax", dict(_SOFTMAX, sp_values=_f([[1, 2]])), {}),
    "softmax_values_count": ("SparseSoftmax", dict(_SOFTMAX, sp_values=_f([1, 2])), {}),
    "split_axis_range": ("SparseSplit", dict(_SPLIT, split_dim=np.array(2, I64)),
                         {"num_split": 2}),
    "split_too_many": ("SparseSplit", _SPLIT, {"num_split": 6}),
    "split_axis_vector": ("SparseSplit", dict(_SPLIT, split_dim=np.array([1], I64)),
                          {"num_split": 2}),
    "split_indices_vector": ("SparseSplit", dict(_SPLIT, indices=_i([0, 0])), {"num_split": 2}),
    "cwise_broadcast": ("SparseDenseCwiseAdd", dict(_CWISE, dense=_f([10, 20])), {}),
    "cwise_rank": ("SparseDenseCwiseMul", dict(_CWISE, dense=_f([[[10]]])), {}),
    "cwise_indices_vector": ("SparseDenseCwiseDiv", dict(_CWISE, sp_indices=_i([0, 1])), {}),
    "serialize_indices_vector": ("SerializeSparse", dict(_SERIAL, sparse_indices=_i([0, 0])),
                                 {}),
    "serialize_many_unsorted": ("SerializeManySparse",
                                dict(_SERIAL, sparse_indices=_i([[1, 2], [0, 0]])), {}),
    "serialize_many_rank1": ("SerializeManySparse", dict(_SERIAL, sparse_shape=_i([2])), {}),
    "deserialize_last_dim": ("DeserializeManySparse",
                             dict(serialized_sparse=np.array([[b"a", b"b"]], object)),
                             {"dtype": "float32"}),
    "deserialize_empty": ("DeserializeManySparse",
                          dict(serialized_sparse=np.zeros((0, 3), object)),
                          {"dtype": "float32"}),
    "deserialize_garbage": ("DeserializeManySparse",
                            dict(serialized_sparse=np.array([[b"xyz", b"", b""]], object)),
                            {"dtype": "float32"}),
}


def _a(tf):
    return _sparse(tf, _A, "a")


ERROR_CASES.update({  # the Python API's errors while building: (class, message)
    "add_two_dense": lambda tf: tf.sparse_add(tf.constant([1.0]), tf.constant([2.0])),
    "split_positional": lambda tf: tf.sparse_split(_a(tf), 2, 1),
    "split_no_num": lambda tf: tf.sparse.split(sp_input=_a(tf), axis=1),
    "split_no_axis": lambda tf: tf.sparse.split(sp_input=_a(tf), num_split=2),
    "concat_not_a_list": lambda tf: tf.sparse_concat(1, _a(tf)),
    "concat_dense": lambda tf: tf.sparse_concat(1, [_a(tf), tf.constant([[1.0]])]),
    "concat_both_axes": lambda tf: tf.sparse_concat(1, [_a(tf), _a(tf)], concat_dim=1),
    "reset_shape_smaller": lambda tf: tf.sparse_reset_shape(_a(tf), [2, 4]),
    "to_indicator_dense": lambda tf: tf.sparse_to_indicator(tf.constant([[1]]), 3),
    "bincount_weights_binary": lambda tf: tf.sparse.bincount(
        tf.constant([1, 2]), weights=tf.constant([1.0, 2.0]), binary_output=True),
    "bincount_axis": lambda tf: tf.sparse.bincount(tf.constant([[1, 2]]), axis=1),
    "eye_float_rows": lambda tf: tf.sparse.eye(2.5),
    "expand_dims_text_axis": lambda tf: tf.sparse.expand_dims(_a(tf), "x"),
    "reduce_sum_both_axes": lambda tf: tf.sparse_reduce_sum(_a(tf), axis=1,
                                                            reduction_axes=1),
})


def run_error_case(tf, name):
    """(error class, message): of running ERROR_CASES[name]'s raw op on fed inputs (the
    kernel's message), or of the Python API refusing a call while building."""
    from sparse_op_cases import kernel_message
    if callable(ERROR_CASES[name]):
        with tf.Graph().as_default():
            try:
                ERROR_CASES[name](tf)
            except Exception as error:  # noqa: BLE001  (the class is what is compared)
                return type(error).__name__, str(error)
        raise AssertionError(f"{name}: no error")
    op, values, attrs = ERROR_CASES[name]
    attrs = {k: (tf.as_dtype(v) if k == "dtype" else v) for k, v in attrs.items()}
    with tf.Graph().as_default():
        feed = {}

        def placeholder(value):
            dtype = tf.string if value.dtype == object else tf.as_dtype(value.dtype)
            p = tf.placeholder(dtype, None)
            feed[p] = value
            return p
        inputs = {k: [placeholder(x) for x in v] if isinstance(v, list) else placeholder(v)
                  for k, v in values.items()}
        out = getattr(tf.raw_ops, op)(**inputs, **attrs)
        with tf.Session() as sess:
            try:
                sess.run(out, feed)
            except tf.errors.OpError as error:
                return type(error).__name__, kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
