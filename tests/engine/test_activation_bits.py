"""Elu, Selu and their gradients give TensorFlow 2.21's float32 bits through a session
(tests/fixtures/ops/activation_bits.npz, written by tools/make_activation_bits_fixtures.py):
exp(x) - 1 as TensorFlow's functors take it, exp by Eigen's packet path and its scalar tail."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.ops.op_def_library import apply_op

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "activation_bits.npz")


def _same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    differ = (got.view(np.uint32) != want.view(np.uint32)) & ~(np.isnan(got) & np.isnan(want))
    assert not differ.any(), (int(differ.sum()), FIXTURE["x"][differ][:5])


@pytest.mark.parametrize("op", ["Elu", "Selu", "EluGrad", "SeluGrad"])
def test_the_activation_gives_tensorflows_bits(op):
    x, g = FIXTURE["x"], FIXTURE["g"]
    with tf.Graph().as_default(), tf.Session() as sess:
        feature, gradient = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
        if op.endswith("Grad"):
            outputs = FIXTURE["elu_y" if op == "EluGrad" else "selu_y"]
            node = apply_op(op, gradients=gradient, outputs=tf.constant(outputs))
        else:
            node = apply_op(op, features=feature)
        got = sess.run(node, {feature: x, gradient: g})
    _same_bits(got, FIXTURE[op])
