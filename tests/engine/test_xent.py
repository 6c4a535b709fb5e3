"""float32 SparseSoftmaxCrossEntropyWithLogits and SoftmaxCrossEntropyWithLogits against
TensorFlow 2.21's bits (tests/fixtures/ops/sparse_xent.npz, tools/make_xent_fixtures.py): their
loss and their backprop, which is the gradient a training step's logits get (a TF1 char-RNN's logits gradient differed from
TensorFlow's in two thirds of its values when the engine computed exp(shifted - log(sum))
rather than exp(shifted) / sum)."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.cpu import eigen_float32, eigen_reduce

from tests.engine import reduce_order_cases as cases

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "sparse_xent.npz")
DIGESTS = {key: digest.tobytes().hex()
           for key, digest in zip(FIXTURE["keys"].tolist(), FIXTURE["digests"])}
CASES = cases.xent_cases()
DENSE = cases.dense_xent_cases()


def test_the_fixture_holds_every_case():
    assert set(DIGESTS) == {f"{what}__{name}" for name in CASES
                            for what in ("loss", "backprop", "dense_loss", "dense_backprop")}


@pytest.fixture(params=["compiled", "numpy"])
def exp_loops(request, monkeypatch):
    """Eigen's exp through the compiled loops (engine/kernels/compiled/eigen_arrays.py), or
    through the NumPy reference alone."""
    if request.param == "compiled":
        if compiled.module("eigen", wait=True) is None:
            pytest.skip(f"compiled loops unavailable: {compiled.why_not('eigen')}")
    else:
        monkeypatch.setattr(eigen_float32, "compiled_loops", lambda size: None)
    return request.param


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_kernel_gives_tensorflows_bits(name, exp_loops):
    logits, labels = CASES[name]
    loss, backprop = eigen_reduce.sparse_softmax_cross_entropy(logits, labels)
    assert loss.dtype == backprop.dtype == np.float32
    assert cases.digest(loss) == DIGESTS[f"loss__{name}"]
    assert cases.digest(backprop) == DIGESTS[f"backprop__{name}"]


@pytest.mark.parametrize("name", sorted(DENSE))
def test_the_dense_kernel_gives_tensorflows_bits(name, exp_loops):
    loss, backprop = eigen_reduce.softmax_cross_entropy(*DENSE[name])
    assert cases.digest(loss) == DIGESTS[f"dense_loss__{name}"]
    assert cases.digest(backprop) == DIGESTS[f"dense_backprop__{name}"]


@pytest.mark.parametrize("name", ["rows33_n9", "blocks", "rows2_n9001", "specials"])
def test_a_session_gives_the_dense_loss_and_gradient_tensorflow_gives(name):
    logits, labels = DENSE[name]
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, logits.shape)
        loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=x)
        (gradient,) = tf.gradients(tf.reduce_sum(loss), [x])
        with tf.Session() as sess:
            got_loss, got_gradient = sess.run([loss, gradient], {x: logits})
    assert cases.digest(got_loss) == DIGESTS[f"dense_loss__{name}"]
    assert cases.digest(got_gradient) == DIGESTS[f"dense_backprop__{name}"]


@pytest.mark.parametrize("name", ["rows33_n9", "rows9_n1000", "rows2_n9001", "specials"])
def test_a_session_gives_the_loss_and_the_logits_gradient_tensorflow_gives(name):
    logits, labels = CASES[name]
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, logits.shape)
        y = tf.placeholder(tf.int64, labels.shape)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)
        (gradient,) = tf.gradients(tf.reduce_sum(loss), [x])
        with tf.Session() as sess:
            got_loss, got_gradient = sess.run([loss, gradient], {x: logits, y: labels})
    assert cases.digest(got_loss) == DIGESTS[f"loss__{name}"]
    # the gradient of a sum is the backprop times ones: the same bits
    assert cases.digest(got_gradient) == DIGESTS[f"backprop__{name}"]


def test_other_dtypes_and_ranks_keep_the_numpy_kernel():
    logits = np.array([[1.0, 2.0, 3.0]], np.float64)
    with tf.Session() as sess:
        loss = sess.run(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2], logits=logits))
    np.testing.assert_allclose(loss, [np.log(np.exp([1, 2, 3]).sum()) - 3], rtol=1e-12)
