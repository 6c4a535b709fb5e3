"""Mul, RealDiv, Square and SquaredDifference flush a denormal float32 or float64 result to a
signed zero as TensorFlow 2.21's CPU kernels do (they run under FTZ/DAZ), unfused and in a
compiled fused chain: bit for bit against tests/fixtures/ftz/ (tools/make_ftz_fixtures.py,
the cases of tests/engine/ftz_cases.py). Found by tests/programs/mixture_density.py, whose
log-sum-exp gradients made denormals NumPy kept and TensorFlow zeroed."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import ftz_cases as cases  # noqa: E402

TF = tf_fixture_set.load("ftz")


def _bits(value):
    value = np.asarray(value)
    return value.view(np.uint32 if value.dtype == np.float32 else np.uint64)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_are_tensorflows_bit_for_bit(name):
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_array_equal(_bits(value), _bits(want), err_msg=key)  # -0.0 too
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_chain_flushes_as_tensorflow(dtype):
    pytest.importorskip("numba")
    from engine.kernels import compiled
    from engine.kernels.cpu import fused
    from tests.engine.test_fused_elementwise import _context
    inputs = list(cases.chain_inputs(dtype))
    name = np.dtype(dtype).name
    plan = fused._Plan(_context(cases.CHAIN_OPS, cases.CHAIN_ARGS, [name] * 6, [name] * 3))
    with np.errstate(all="ignore"):
        reference = fused.run_reference(plan, inputs)
        got = fused.run_compiled(plan, inputs, wait=True)
    assert got is not None, compiled.why_not("fused")
    want = TF.values[f"chain_{name}__out"]
    np.testing.assert_array_equal(_bits(reference), _bits(want))
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("name", ["multiply_float32", "realdiv_float64", "square_float32"])
def test_values_are_tensorflows_where_the_compiled_check_looks_first(name):
    pytest.importorskip("numba")
    from engine.kernels import compiled
    assert compiled.module("activation", wait=True) is not None, compiled.why_not("activation")
    values, _ = cases.run_case(tf, name)
    for key, value in values.items():
        np.testing.assert_array_equal(_bits(value), _bits(TF.values[f"{name}__{key}"]))
