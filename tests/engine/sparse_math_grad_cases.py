"""Numeric-gradient cases of tf.sparse's arithmetic, merged into test_gradients.CASES (same
format: name -> (function of the input tensors, input values[, placeholder shapes])): the
gradients with respect to a SparseTensor's values and the dense operands."""

import numpy as np

import engine as tf

_RNG = np.random.RandomState(23)
_A = [[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]]
_B = [[0, 2], [1, 0], [1, 1], [2, 3]]


def _sp(indices, values, shape=(3, 4)):
    return tf.SparseTensor(np.array(indices, np.int64), values, np.array(shape, np.int64))


def _raw(op, values, dense):
    sp = _sp(_A, values)
    return getattr(tf.raw_ops, op)(sp_indices=sp.indices, sp_values=sp.values,
                                   sp_shape=sp.dense_shape, dense=dense)


CASES = {
    "SparseAdd": (lambda a, b: tf.sparse_add(_sp(_A, a), _sp(_B, b)).values,
                  [_RNG.uniform(-2, 2, 5), _RNG.uniform(-2, 2, 4)]),
    "SparseTensorDenseAdd": (lambda a, d: tf.sparse_add(_sp(_A, a), d),
                             [_RNG.uniform(-2, 2, 5), _RNG.uniform(-2, 2, (3, 4))]),
    "SparseReduceSum": (lambda a: tf.sparse_reduce_sum(_sp(_A, a), 1, keepdims=True),
                        [_RNG.uniform(-2, 2, 5)]),
    "SparseDenseCwiseMul": (lambda a, d: _raw("SparseDenseCwiseMul", a, d),
                            [_RNG.uniform(-2, 2, 5), _RNG.uniform(-2, 2, (1, 4))]),
    "SparseDenseCwiseDiv": (lambda a, d: _raw("SparseDenseCwiseDiv", a, d),
                            [_RNG.uniform(-2, 2, 5), _RNG.uniform(0.5, 2, 4)]),
    "SparseSoftmax": (lambda a: tf.sparse_softmax(_sp(_A, a)).values,
                      [_RNG.uniform(-2, 2, 5)]),
}

# SparseMatMul takes float32 (and bfloat16) only: its gradients equal TensorFlow's in
# tests/engine/test_sparse_math.py. SparseSparseMaximum/Minimum and SparseDenseCwiseAdd's
# registered gradients raise TensorFlow's NotImplementedError (test_sparse_math.py).
EXEMPT = {"SparseMatMul", "SparseSparseMaximum", "SparseSparseMinimum", "SparseDenseCwiseAdd"}
