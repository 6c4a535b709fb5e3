"""The CPU's float32 exp, log, log1p, expm1, tanh, sigmoid and softplus give TensorFlow 2.21's
bits (tests/fixtures/ops/eigen_float32.npz, written by tools/make_eigen_math_fixtures.py):
Eigen's packet path on whole packets, its scalar path on a tensor's last n % 8 elements, the
kernels and fused chains through them."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import eigen_float32
from tests.engine import eigen_math_cases as cases

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "eigen_float32.npz")
NAMES = sorted(cases.FUNCTIONS)


def assert_same_bits(ours, theirs, inputs):
    ours, theirs = np.asarray(ours, np.float32), np.asarray(theirs, np.float32)
    assert ours.shape == theirs.shape
    differ = (ours.view(np.uint32) != theirs.view(np.uint32)) & ~(np.isnan(ours)
                                                                  & np.isnan(theirs))
    assert not differ.any(), list(zip(inputs[differ][:5], ours[differ][:5], theirs[differ][:5]))


def function(name):
    return getattr(eigen_float32, name)


@pytest.mark.parametrize("name", NAMES)
def test_packet_path_matches_tensorflow_on_the_sample(name):
    x = cases.sample_inputs(name)
    assert_same_bits(function(name)(x), FIXTURE[f"{name}__sample"], x)


@pytest.mark.parametrize("name", NAMES)
def test_packet_path_matches_tensorflow_on_a_million_inputs(name):
    ours = function(name)(cases.grid(name, cases.DIGEST_SIZE))
    assert cases.digest(ours) == str(FIXTURE[f"{name}__digest"])


@pytest.mark.parametrize("name", NAMES)
def test_scalar_path_matches_tensorflow(name):
    x = cases.scalar_inputs(name)
    ours = np.concatenate([function(name)(x[i:i + 1]) for i in range(x.size)])
    assert_same_bits(ours, FIXTURE[f"{name}__scalar"], x)


@pytest.mark.parametrize("name", NAMES)
def test_a_tensor_with_a_tail_takes_both_paths(name):
    x = cases.mixed_inputs(name)
    assert_same_bits(function(name)(x), FIXTURE[f"{name}__mixed"], x)


def _op(name):
    fn = tf
    for part in cases.FUNCTIONS[name][0].split("."):
        fn = getattr(fn, part)
    return fn


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_computes_as_tensorflow(name):
    x = cases.mixed_inputs(name).reshape(3, 7)
    with tf.Graph().as_default():
        y = _op(name)(tf.constant(x))
        with tf.Session() as sess:
            value = sess.run(y)
    assert_same_bits(value.reshape(-1), FIXTURE[f"{name}__mixed"], x.reshape(-1))


@pytest.mark.parametrize("op", sorted(cases.GRAD_INPUTS))
def test_the_gradient_kernels_multiply_in_tensorflows_order(op):
    from engine.ops.op_def_library import apply_op
    y, dy = cases.GRAD_INPUTS[op]
    with tf.Graph().as_default():
        if op == "SigmoidGrad":
            out = apply_op(op, y=tf.constant(y), dy=tf.constant(dy))
        else:
            out = apply_op(op, gradients=tf.constant(dy), features=tf.constant(y))
        with tf.Session() as sess:
            value = sess.run(out)
    assert_same_bits(value, FIXTURE[f"{op}__mixed"], y)


def test_the_scalar_path_rounds_sigmoid_as_tensorflow_prints_it():
    with tf.Graph().as_default(), tf.Session() as sess:
        assert repr(sess.run(tf.sigmoid(-1.0))) == "np.float32(0.26894143)"
        assert repr(sess.run(tf.sigmoid(tf.fill([8], -1.0)))[0]) == "np.float32(0.2689414)"


# The fused chains' compiled loops (engine/kernels/compiled) give the unfused kernels' bits.

def _numba_apply(name):
    numba = pytest.importorskip("numba")
    from engine.kernels.compiled import eigen_numba
    function = getattr(eigen_numba, name)

    @numba.njit
    def fill(x, out):
        for j in range(x.size):
            out[j] = function(x[j])

    def apply(x):
        out = np.empty_like(x)
        fill(x, out)
        return out
    return apply


NUMBA_TWINS = [("exp", "packet_exp", "scalar_exp"), ("log", "packet_log", "scalar_log"),
               ("tanh", "tanh_float", "tanh_float"),
               ("sigmoid", "packet_sigmoid", "scalar_sigmoid")]


@pytest.mark.parametrize("name, packet, scalar", NUMBA_TWINS)
def test_the_compiled_functions_are_the_numpy_ones(name, packet, scalar):
    x = np.concatenate([cases.grid(name, cases.DIGEST_SIZE), cases.SPECIALS])
    reference = getattr(eigen_float32, packet)(x)
    assert_same_bits(_numba_apply(packet)(x), reference, x)
    few = cases.scalar_inputs(name)
    scalar_reference = np.concatenate([getattr(eigen_float32, scalar)(few[i:i + 1])
                                       for i in range(few.size)])
    assert_same_bits(_numba_apply(scalar)(few), scalar_reference, few)
