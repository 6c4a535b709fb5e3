"""Contractions as one batched BLAS product: a two-operand Einsum (transposed to [batch, free,
contracted] as TensorFlow's Einsum kernel does), a stack of matrices times one matrix, and
the softmax of an einsum's transposed product (TensorFlow's bits through a C-ordered copy)."""

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import linalg, threaded_matmul

# (equation, a's shape, b's shape): a Keras MultiHeadAttention's projections and scores,
# matrix products in every orientation, labels summed within one operand, a scalar result
EQUATIONS = [("abc,cde->abde", (3, 4, 5), (5, 6, 7)), ("aecd,abcd->acbe", (2, 3, 4, 5), (2, 6, 4, 5)),
             ("acbe,aecd->abcd", (2, 4, 6, 3), (2, 3, 4, 5)), ("abcd,cde->abe", (2, 3, 4, 5), (4, 5, 6)),
             ("ij,kj->ik", (3, 4), (5, 4)), ("ji,jk->ik", (4, 3), (4, 5)), ("ijk,jl->il", (2, 3, 4), (3, 5)),
             ("i,i->", (5,), (5,)), ("i,j->ij", (3,), (4,)), ("abc,bd->da", (2, 3, 4), (3, 5))]


@pytest.mark.parametrize("equation, a_shape, b_shape", EQUATIONS)
def test_two_operand_einsum_is_one_batched_product(equation, a_shape, b_shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    got = linalg._contraction(equation, a, b)
    assert got is not None
    want = np.einsum(equation, a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    with tf.Graph().as_default(), tf.Session() as sess:
        value = sess.run(tf.einsum(equation, a, b))
    assert value.shape == want.shape and value.dtype == np.float32
    assert value.ndim == 0 or value.flags.c_contiguous


@pytest.mark.parametrize("equation", ["...ij,...jk->...ik", "ii,ij->ij", "ij,jk"])
def test_what_is_not_a_plain_contraction_goes_to_numpy(equation):
    assert linalg._contraction(equation, np.ones((3, 3)), np.ones((3, 3))) is None


def test_a_stack_times_one_matrix_is_one_product():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((32, 64, 256)).astype(np.float32)
    for y in (rng.standard_normal((256, 96)).astype(np.float32),
              rng.standard_normal((1, 256, 96)).astype(np.float32)):
        got = threaded_matmul.batch_matmul(x, y)
        want = np.matmul(x.astype(np.float64), y.astype(np.float64))
        assert got.shape == want.shape and got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_the_softmax_of_a_transposed_product_is_the_contiguous_ones_bits():
    rng = np.random.default_rng(2)
    scores = rng.standard_normal((4, 64, 3, 64)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        p = tf.placeholder(tf.float32, scores.shape)
        q = tf.placeholder(tf.float32, (4, 3, 64, 64))
        transposed = sess.run(tf.nn.softmax(tf.transpose(p, [0, 2, 1, 3])), {p: scores})
        contiguous = sess.run(tf.nn.softmax(q), {q: np.ascontiguousarray(
            scores.transpose(0, 2, 1, 3))})
    np.testing.assert_array_equal(transposed.view(np.uint32), contiguous.view(np.uint32))
