"""The CPU's float32 exp, log, log1p, expm1, tanh, sigmoid, softplus, rsqrt, reciprocal, sin and
cos give TensorFlow 2.21's bits (tests/fixtures/ops/eigen_float32.npz, written by
tools/make_eigen_math_fixtures.py):
Eigen's packet path on whole packets, its scalar path on a tensor's last n % 8 elements, the
kernels, fused chains and the unfused kernels' compiled loops through them."""

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
    """The NumPy reference alone, never the compiled loops."""
    _, packet, scalar = cases.reference(name)
    return eigen_float32.packets_and_tail(packet, scalar)


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

def _numba_apply(name, module):
    numba = pytest.importorskip("numba")
    function = getattr(module, name)

    @numba.njit(error_model="numpy")  # as the generated files: a division by zero is IEEE
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
               ("sigmoid", "packet_sigmoid", "scalar_sigmoid"),
               ("log1p", "packet_log1p", None), ("expm1", "packet_expm1", None),
               ("softplus", "packet_softplus", None),
               ("rsqrt", "packet_rsqrt", "scalar_rsqrt"),
               ("reciprocal", "packet_reciprocal", "scalar_reciprocal"),
               ("sin", "packet_sin", "scalar_sin"), ("cos", "packet_cos", "scalar_cos")]


@pytest.mark.parametrize("name, packet, scalar", NUMBA_TWINS)
def test_the_compiled_functions_are_the_numpy_ones(name, packet, scalar):
    x = np.concatenate([cases.grid(name, cases.DIGEST_SIZE), cases.SPECIALS])
    module = cases.reference(name)[0]
    reference = getattr(module, packet)(x)
    lanes = cases.lanes_module(name)
    assert_same_bits(_numba_apply(packet, lanes)(x), reference, x)
    if scalar is None:
        return  # the scalar path is the C library's, through ctypes, in both
    few = cases.scalar_inputs(name)
    scalar_reference = np.concatenate([getattr(module, scalar)(few[i:i + 1])
                                       for i in range(few.size)])
    assert_same_bits(_numba_apply(scalar, lanes)(few), scalar_reference, few)


# The unfused kernels' compiled loops (engine/kernels/compiled/eigen_arrays.py).

@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("numba")
    from engine.kernels import compiled
    module = compiled.module("eigen", wait=True)
    assert module is not None, compiled.why_not("eigen")
    return module


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_loop_gives_the_packet_paths_bits(loops, name):
    rng = np.random.RandomState(0)
    _, low, high = cases.FUNCTIONS[name]
    x = np.concatenate([cases.grid(name, cases.DIGEST_SIZE), cases.SPECIALS,
                        rng.uniform(max(low, -200), min(high, 200), 1 << 16).astype(np.float32)])
    x = x[:x.size - x.size % 8]
    out = np.empty_like(x)
    loops.run(name, out, [x], x.size)
    assert_same_bits(out, cases.reference(name)[1](x), x)


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_tail_gives_the_scalar_paths_bits(loops, name):
    x = np.concatenate([cases.scalar_inputs(name), cases.grid(name, 1 << 14)])
    out = np.empty_like(x)
    loops.run(name, out, [x], 0)  # every element on the scalar path
    assert_same_bits(out, cases.reference(name)[2](x), x)


@pytest.mark.parametrize("name", NAMES)
def test_the_kernels_through_the_compiled_loops_match_tensorflow(loops, name):
    through_loops = getattr(cases.reference(name)[0], name)
    x = cases.sample_inputs(name)
    assert_same_bits(through_loops(x), FIXTURE[f"{name}__sample"], x)
    x = cases.mixed_inputs(name)
    assert_same_bits(through_loops(x), FIXTURE[f"{name}__mixed"], x)
    x = cases.scalar_inputs(name)
    assert_same_bits(np.concatenate([through_loops(x[i:i + 1]) for i in range(x.size)]),
                     FIXTURE[f"{name}__scalar"], x)
    x = cases.grid(name, cases.DIGEST_SIZE)
    assert cases.digest(through_loops(x)) == str(FIXTURE[f"{name}__digest"])


def test_a_read_only_strided_input_takes_the_loop(loops):
    x = np.linspace(-5, 5, 64, dtype=np.float32)[::2]
    x.flags.writeable = False
    assert_same_bits(eigen_float32.exp(x), function("exp")(x), x)


def test_small_tensors_do_not_load_numba_a_large_one_does():
    """In a fresh process: a few exps of 4k values leave numba unloaded; one of 2^18 values
    starts loading the compiled loops."""
    import os
    import subprocess
    import sys
    program = (
        "import sys, numpy as np, engine as tf\n"
        "from engine.kernels import compiled\n"
        "small = tf.exp(tf.constant(np.ones([64, 64], np.float32)))\n"
        "big = tf.erfc(tf.constant(np.ones([1 << 18], np.float32)))\n"
        "with tf.Session() as sess:\n"
        "    for _ in range(3):\n"
        "        sess.run(small)\n"
        "    print('numba' in sys.modules, compiled._loading.get('eigen') is not None)\n"
        "    sess.run(big)\n"
        "    print(compiled._loading.get('eigen') is not None)\n")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            timeout=120, cwd=root,
                            env={**os.environ, "GRAPH_INSPECTOR_COMPILED": "1",
                                 "GRAPH_INSPECTOR_REWRITE": "off"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True"]
