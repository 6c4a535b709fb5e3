"""tf.sparse's arithmetic, tf.sparse_matmul and serialized SparseTensors against TensorFlow
2.21 (tf.compat.v1): values and gradients, static shapes, graphs node for node and kernel
errors (tests/engine/sparse_math_cases.py; fixtures by tools/make_sparse_math_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import sparse_math_cases as cases  # noqa: E402

TF = tf_fixture_set.load("sparse_math")
# SparseMatMul's product: TensorFlow's Eigen contraction (or its own blocked loop when an
# input is marked sparse) adds in another order than NumPy's BLAS. float64 softmax and sums:
# NumPy's exp and sums, not Eigen's double packets (a few ulps apart, 1e-14 relative where a
# gradient's sum cancels). Everything
# else is TensorFlow's bits: float32 sums in Eigen's order, its packet exp in SparseSoftmax.
TOLERANT = {"matmul": dict(rtol=1e-6, atol=1e-6)}
FLOAT64 = dict(rtol=1e-13, atol=0)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if name in TOLERANT:
            np.testing.assert_allclose(value, want, err_msg=key, **TOLERANT[name])
        elif value.dtype == np.float64:
            np.testing.assert_allclose(value, want, err_msg=key, **FLOAT64)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


@pytest.mark.parametrize("function, op", [(tf.sparse_maximum, "SparseSparseMaximum"),
                                          (tf.sparse_minimum, "SparseSparseMinimum")])
def test_min_and_max_gradients_raise_tensorflows_error(function, op):
    """TensorFlow 2.21's gradient functions take one of the two output gradients: a TypeError
    (the text TensorFlow printed)."""
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0]], tf.constant([1.0]), [2, 2])
        with pytest.raises(TypeError) as raised:
            tf.gradients(function(a, a).values, a.values)
    assert str(raised.value) == f"_{op}Grad() takes 2 positional arguments but 3 were given"


def test_dense_cwise_add_gradient_raises_tensorflows_error():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0]], tf.constant([1.0]), [2, 2])
        out = tf.raw_ops.SparseDenseCwiseAdd(sp_indices=a.indices, sp_values=a.values,
                                             sp_shape=a.dense_shape, dense=tf.constant([1.0]))
        with pytest.raises(NotImplementedError) as raised:
            tf.gradients(out, a.values)
    assert str(raised.value) == "Gradient for SparseDenseCwiseAdd is not implemented."


def test_the_whole_array_merge_is_tensorflows_walk():
    """SparseAdd's and the sparse-sparse ops' merge on whole arrays (sorted inputs) gives the
    steps of TensorFlow's walk; unsorted or repeated indices take the walk itself."""
    from engine.kernels.cpu.sparse_math import merge_steps, walk_steps
    rng = np.random.RandomState(0)
    for trial in range(20):
        shape = (rng.randint(1, 6), rng.randint(1, 6))
        cells = np.array([[r, c] for r in range(shape[0]) for c in range(shape[1])], np.int64)
        a = cells[np.sort(rng.choice(len(cells), rng.randint(0, len(cells) + 1), False))]
        b = cells[np.sort(rng.choice(len(cells), rng.randint(0, len(cells) + 1), False))]
        if trial % 3 == 1:
            a = a[rng.permutation(len(a))]
        if trial % 3 == 2 and len(b):
            b = np.concatenate([b, b[:1]])
        np.testing.assert_array_equal(merge_steps(a, b), walk_steps(a, b), err_msg=str(trial))
