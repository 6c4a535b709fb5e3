"""_FusedElementwise: the compiled chain equals the chain run op by op through each op's own
kernel (exactly for integers, booleans, the float ops NumPy rounds alike and float32
exp/log/tanh/sigmoid/rsqrt, which both compute as TensorFlow's Eigen; within rounding for
the float64 ones), and a second process loads it from the disk cache."""

import os
import subprocess
import sys

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled
from engine.kernels.context import KernelContext
from engine.kernels.cpu import fused
from engine.kernels.fused_chain import FUSABLE, FUSED_OP, Chain
from engine.proto import node_def_pb2
from tests.engine.fused_cases import BINARY_OPS, COMPARE_OPS, INEXACT, UNARY_OPS
from tests.engine.fused_cases import check as _check
from tests.engine.fused_cases import values as _values

pytest.importorskip("numba")



def _context(ops, args, types, tin):
    node = node_def_pb2.NodeDef(name="fused", op=FUSED_OP)
    node.attr["fused_ops"].list.s.extend(op.encode() for op in ops)
    node.attr["fused_args"].list.s.extend(a.encode() for a in args)
    node.attr["fused_types"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum for t in types)
    node.attr["Tin"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum for t in tin)
    node.attr["T"].type = dtypes.as_dtype(types[-1]).as_datatype_enum
    return KernelContext(node, [dtypes.as_dtype(types[-1])], None)


def _both(ops, args, types, inputs):
    plan = fused._Plan(_context(ops, args, types, [x.dtype.name for x in inputs]))
    with np.errstate(all="ignore"):
        reference = fused.run_reference(plan, inputs)
        got = fused.run_compiled(plan, inputs, wait=True)
    assert got is not None, compiled.why_not("fused")
    return np.asarray(got), np.asarray(reference)




# Each case compiles a chain (about 0.5 s, once per machine: later runs load numba's cache),
# so the dtypes are sampled: both float widths, one int width per test.
@pytest.mark.parametrize("op", UNARY_OPS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_unary_then_neg_and_add(op, dtype):
    if dtype not in FUSABLE[op]:
        pytest.skip(f"{op} is not fused at {dtype}")
    rng = np.random.default_rng(1)
    x, y = _values(dtype, 5000, rng), _values(dtype, 5000, rng)
    got, reference = _both([op, "Neg"], ["i0", "t0"], [dtype, dtype], [x])
    _check(got, reference, [op])
    if op not in INEXACT:  # an inexact op's last ulp would be magnified by cancellation
        got, reference = _both([op, "AddV2"], ["i0", "t0,i1"], [dtype, dtype], [x, y])
        _check(got, reference, [op])


@pytest.mark.parametrize("op", BINARY_OPS + COMPARE_OPS)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("shapes", [((7, 300), ()), ((), (1,))])
def test_binary_with_broadcast_scalars(op, dtype, shapes):
    if dtype not in FUSABLE[op]:
        pytest.skip(f"{op} is not fused at {dtype}")
    rng = np.random.default_rng(2)
    x = _values(dtype, int(np.prod(shapes[0])), rng).reshape(shapes[0])
    y = _values(dtype, int(np.prod(shapes[1])), rng).reshape(shapes[1])
    out = "bool" if op in COMPARE_OPS else dtype
    got, reference = _both(["Neg", op], ["i0", "t0,i1"], [dtype, out], [x, y])
    _check(got, reference, [op])


@pytest.mark.parametrize("src", ["float32", "float64", "int32", "int64", "bool"])
@pytest.mark.parametrize("dst", ["float32", "float64", "int32", "int64", "bool"])
def test_cast(src, dst):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(3000).reshape(3, 1000) * 1e3
    x = x > 0 if src == "bool" else x.astype(src)
    if src.startswith("float"):
        x[0, :3] = [0.5, -0.5, -1.7]  # truncation toward zero
    got, reference = _both(["Cast", "Cast"], ["i0", "t0"], [dst, dst], [x])
    np.testing.assert_array_equal(got, reference)


# float32 Exp, Log, Tanh, Sigmoid, Rsqrt, Erf and Erfc: Eigen's packet path but on the last
# n % 8 elements, and its scalar path on a value computed from single values alone (a tensor
# of one element). Erfc runs by blocks of 4,096 (its large branch only where a value needs it).
@pytest.mark.parametrize("size", [1, 5, 8, 2047, 2049, 4099, 8195, 70003])
@pytest.mark.parametrize("op", ["Exp", "Log", "Tanh", "Sigmoid", "Rsqrt", "Erf", "Erfc"])
def test_float32_transcendentals_give_the_unfused_bits(op, size):
    rng = np.random.default_rng(6)
    x = _values("float32", size, rng)
    scale = np.float32(rng.standard_normal())
    got, reference = _both(["Mul", op, "AddV2"], ["i0,i1", "t0", "t1,i0"], ["float32"] * 3,
                           [x, scale])
    np.testing.assert_array_equal(got.view(np.uint32), reference.view(np.uint32))
    got, reference = _both([op, "Mul"], ["i1", "t0,i0"], ["float32"] * 2, [x, scale])
    np.testing.assert_array_equal(got.view(np.uint32), reference.view(np.uint32))


@pytest.mark.parametrize("large", [0.0, 0.02, 0.5, 1.0])
def test_an_exact_gelu_is_one_loop_with_the_unfused_bits(large):
    # 0.5 * x * erfc(-x * sqrt(0.5)), as tf.nn.gelu(approximate=False) builds it, with a share
    # `large` of values past |x| = 1 where erfc takes its large branch; over one array and
    # written over its input (the in-place kernel)
    rng = np.random.default_rng(9)
    x = (rng.standard_normal(70003) * 0.3).astype(np.float32)
    chosen = rng.random(x.size) < large
    x[chosen] = (rng.standard_normal(int(chosen.sum())) * 6).astype(np.float32)
    x[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0]
    inputs = [x, np.float32(0.7071067811865476), np.float32(0.5)]
    ops, args = ["Neg", "Mul", "Erfc", "Mul", "Mul"], ["i0", "t0,i1", "t1", "i2,i0", "t3,t2"]
    got, reference = _both(ops, args, ["float32"] * 5, inputs)
    np.testing.assert_array_equal(got.view(np.uint32), reference.view(np.uint32))
    plan = fused._Plan(_context(ops, args, ["float32"] * 5, ["float32"] * 3))
    own = x.copy()
    written = fused.run_compiled(plan, [own] + inputs[1:], wait=True, donated=(0,))
    assert written is own
    np.testing.assert_array_equal(written.view(np.uint32), reference.view(np.uint32))


def test_two_erfc_of_many_values_run_the_reference():
    plan = fused._Plan(_context(["Erfc", "Erfc"], ["i0", "t0"], ["float32"] * 2, ["float32"]))
    x = np.linspace(-3, 3, 5000, dtype=np.float32)
    assert fused.run_compiled(plan, [x], wait=True) is None


def test_monte_carlo_chain_and_logic():
    rng = np.random.default_rng(4)
    x, y = rng.random(100001, np.float32), rng.random(100001, np.float32)
    ones = np.ones(100001, np.float32)
    ops = ["Mul", "Mul", "AddV2", "Sqrt", "LessEqual", "LogicalNot", "LogicalNot", "Cast"]
    args = ["i0,i0", "i1,i1", "t0,t1", "t2", "t3,i2", "t4", "t5", "t6"]
    types = ["float32"] * 4 + ["bool"] * 3 + ["int32"]
    got, reference = _both(ops, args, types, [x, y, ones])
    np.testing.assert_array_equal(got, reference)


def test_same_shapes_and_empty_inputs():
    rng = np.random.default_rng(5)
    x, y = rng.random((7, 300)), rng.random((7, 300))
    got, reference = _both(["Neg", "AddV2"], ["i0", "t0,i1"], ["float64"] * 2, [x, y])
    np.testing.assert_array_equal(got, reference)
    got, reference = _both(["Neg", "AddV2"], ["i0", "t0,i1"], ["float64"] * 2,
                           [np.zeros((0,)), np.float64(1.0)])
    assert got.shape == reference.shape == (0,)


# (x, y) shapes broadcasting along part of the output: rows, columns, an attention mask over
# heads and rows, a rank-5 output whose dimensions collapse into three groups
_PARTIAL = [((3, 4), (4,)), ((1023, 768), (1023, 1)), ((2, 12, 33, 33), (2, 1, 1, 33)),
            ((5, 1, 7, 3), (5, 4, 1, 1)), ((2, 3, 1, 1, 6), (2, 3, 4, 5, 6))]


@pytest.mark.parametrize("x_shape, y_shape", _PARTIAL)
def test_partial_broadcasts_give_the_reference_bits(x_shape, y_shape):
    # Rsqrt of y is lifted out of the loop when y is neither the output's shape nor one
    # value (its Eigen packet and scalar paths fall on y's own elements); Exp runs in the loop
    rng = np.random.default_rng(7)
    x = rng.standard_normal(x_shape).astype(np.float32)
    y = (rng.random(y_shape) + 0.1).astype(np.float32)
    got, reference = _both(["Rsqrt", "Mul", "Exp", "Sub"], ["i1", "i0,t0", "t1", "t2,i1"],
                           ["float32"] * 4, [x, y])
    assert got.shape == reference.shape == np.broadcast_shapes(x_shape, y_shape)
    np.testing.assert_array_equal(got.view(np.int32), reference.view(np.int32))


def test_a_broadcast_of_more_than_three_groups_runs_the_reference():
    plan = fused._Plan(_context(["AddV2"], ["i0,i1"], ["float32"], ["float32", "float32"]))
    x, y = np.ones((2, 1, 2, 1, 2), np.float32), np.ones((1, 2, 1, 2, 1), np.float32)
    assert fused.run_compiled(plan, [x, y], wait=True) is None
    np.testing.assert_array_equal(fused.run_reference(plan, [x, y]), x + y)


def test_a_donated_input_holds_the_output():
    plan = fused._Plan(_context(["Mul", "AddV2"], ["i0,i1", "t0,i1"], ["float32"] * 2,
                                ["float32", "float32"]))
    rng = np.random.default_rng(8)
    x, y = rng.random((64, 65)).astype(np.float32), rng.random(65).astype(np.float32)
    expected = x * y + y
    got = fused.run_compiled(plan, [x, y], wait=True, donated=(0,))
    assert got is x  # written over x, and the array itself (not a view) comes back
    np.testing.assert_array_equal(got, expected)
    fresh = fused.run_compiled(plan, [expected, y], wait=True)
    assert fresh is not expected and fresh.base is None


def test_chain_attrs_decode():
    chain = Chain.of_attrs(_context(["Mul"], ["i0,i0"], ["float32"], ["float32"]).attrs)
    assert chain.steps == [("Mul", (("i", 0), ("i", 0)), "float32")]


SECOND_PROCESS = """
import numpy as np
from engine.kernels.compiled import fused_numba
from engine.kernels.fused_chain import Chain
chain = Chain(["Mul", "AddV2"], ["i0,i0", "t0,i1"], ["float64", "float64"])
kernel = fused_numba.kernel(chain, ["float64", "float64"], [False, True], wait=True)
print("hits", sum(kernel.stats.cache_hits.values()), "misses", sum(kernel.stats.cache_misses.values()))
"""


def test_a_second_process_loads_the_compiled_chain_from_disk(tmp_path):
    env = dict(os.environ, GRAPH_INSPECTOR_CACHE_DIR=str(tmp_path))
    first = subprocess.run([sys.executable, "-c", SECOND_PROCESS], env=env, text=True,
                           capture_output=True, check=True).stdout.split()
    second = subprocess.run([sys.executable, "-c", SECOND_PROCESS], env=env, text=True,
                            capture_output=True, check=True).stdout.split()
    assert first == ["hits", "0", "misses", "1"]
    assert second == ["hits", "1", "misses", "0"]
