"""_FusedElementwise on the GPU: the fused chain equals the same chain run op by op on the CPU
(exactly for integers, booleans and the float ops CUDA rounds as NumPy; within rounding for
exp/log/tanh/sigmoid/rsqrt), on the simulated GPU everywhere and as one CuPy
ElementwiseKernel where a CUDA GPU is present; and a session fuses a chain placed on /gpu:0."""

import numpy as np
import pytest

import engine as tf
from engine.framework import dtypes
from engine.kernels import lookup
from engine.kernels.cuda import backend as gpu
from engine.kernels.context import KernelContext
from engine.kernels.cpu import fused as cpu_fused
from engine.kernels.cuda import fused as gpu_fused
from engine.kernels.fused_chain import FUSABLE, FUSED_OP, Chain
from engine.proto import node_def_pb2, rewriter_config_pb2
from tests.engine.cuda_twin import BACKENDS, gpu_backend
from tests.engine.fused_cases import INEXACT, UNARY_OPS
from tests.engine.fused_cases import check as _check
from tests.engine.fused_cases import values as _values


# these tests are about the remapping pass
pytestmark = pytest.mark.usefixtures("optimizer_on")


BINARY_OPS = ["Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference",
              "Less", "GreaterEqual", "Equal", "NotEqual"]
COMPARE_OPS = {"Less", "GreaterEqual", "Equal", "NotEqual"}


def _node(ops, args, types, tin):
    node = node_def_pb2.NodeDef(name="fused", op=FUSED_OP, device="/device:GPU:0")
    node.attr["fused_ops"].list.s.extend(op.encode() for op in ops)
    node.attr["fused_args"].list.s.extend(a.encode() for a in args)
    node.attr["fused_types"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum for t in types)
    node.attr["Tin"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum for t in tin)
    node.attr["T"].type = dtypes.as_dtype(types[-1]).as_datatype_enum
    return node


def _gpu_and_cpu(backend_name, ops, args, types, inputs):
    """(the GPU kernel's output on host, the CPU reference's) for one chain."""
    node = _node(ops, args, types, [x.dtype.name for x in inputs])
    ctx = KernelContext(node, [dtypes.as_dtype(types[-1])], None)
    with np.errstate(all="ignore"):
        reference = cpu_fused.run_reference(cpu_fused.plan_of(ctx), inputs)
        with gpu_backend(backend_name) as current:
            kernel = lookup(FUSED_OP, "GPU")
            # uploaded as the engine uploads (to_device keeps a 0-d -0.0, CuPy's asarray not)
            got = kernel(ctx, *[gpu.to_device(current.xp, x) for x in inputs])
            assert type(got).__module__.split(".")[0] in ("cupy", "engine"), type(got)
            got = got.get()
    return np.asarray(got), np.asarray(reference)




@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("op", UNARY_OPS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_unary_then_add(backend_name, op, dtype):
    if dtype not in FUSABLE[op]:
        pytest.skip(f"{op} is not fused at {dtype}")
    if lookup(op, "GPU") is None:
        pytest.skip(f"{op} has no GPU kernel: the placer puts it, and its chain, on the CPU")
    rng = np.random.default_rng(1)
    x, y = _values(dtype, 4099, rng), _values(dtype, 4099, rng)
    if op in INEXACT:  # CUDA's exp/log/tanh round apart from NumPy's by an ulp or two, which
        # an add would magnify by cancellation (seen on an H200): the op and a Neg only
        got, reference = _gpu_and_cpu(backend_name, [op, "Neg"], ["i0", "t0"], [dtype] * 2,
                                      [x])
    else:
        got, reference = _gpu_and_cpu(backend_name, [op, "Neg", "AddV2"],
                                      ["i0", "t0", "t1,i1"], [dtype] * 3, [x, y])
    _check(got, reference, [op])


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("op", BINARY_OPS)
@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("shapes", [((7, 300), ()), ((3, 1), (1, 5))])
def test_binary_with_broadcasts(backend_name, op, dtype, shapes):
    if dtype not in FUSABLE[op]:
        pytest.skip(f"{op} is not fused at {dtype}")
    rng = np.random.default_rng(2)
    x = _values(dtype, int(np.prod(shapes[0])) + 4, rng)[4:].reshape(shapes[0])
    y = _values(dtype, int(np.prod(shapes[1])) + 4, rng)[4:].reshape(shapes[1])
    x.flat[0] = y.flat[0]  # one equal pair for the comparisons
    out = "bool" if op in COMPARE_OPS else dtype
    got, reference = _gpu_and_cpu(backend_name, ["Abs", op], ["i0", "t0,i1"], [dtype, out],
                                  [x, y])
    _check(got, reference, [op])


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("src", ["float32", "float64", "int32", "int64", "bool"])
@pytest.mark.parametrize("dst", ["float32", "int32", "int64", "bool"])
def test_cast_as_x86(backend_name, src, dst):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(3000) * 1e3
    x = x > 0 if src == "bool" else x.astype(src)
    if src.startswith("float"):  # truncation toward zero; NaN and overflow as x86 gives them
        x[:6] = [0.5, -0.5, -1.7, np.nan, 1e30, -1e30]
    got, reference = _gpu_and_cpu(backend_name, ["Cast", "Cast"], ["i0", "t0"], [dst, dst], [x])
    np.testing.assert_array_equal(got, reference)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_monte_carlo_chain_and_logic(backend_name):
    rng = np.random.default_rng(4)
    x, y = rng.random(100001, np.float32), rng.random(100001, np.float32)
    ops = ["Mul", "Mul", "AddV2", "Sqrt", "LessEqual", "LogicalNot", "LogicalNot", "Cast"]
    args = ["i0,i0", "i1,i1", "t0,t1", "t2", "t3,i2", "t4", "t5", "t6"]
    types = ["float32"] * 4 + ["bool"] * 3 + ["int32"]
    got, reference = _gpu_and_cpu(backend_name, ops, args, types, [x, y, np.float32(1.0)])
    np.testing.assert_array_equal(got, reference)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_shapes_that_do_not_broadcast_raise_tensorflows_error(backend_name):
    x, y = np.ones((3, 4), np.float32), np.ones((5,), np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        _gpu_and_cpu(backend_name, ["AddV2", "Neg"], ["i0,i1", "t0"], ["float32"] * 2, [x, y])


def test_the_kernel_source_of_a_chain():
    chain = Chain(["Mul", "Maximum", "Cast"], ["i0,i0", "t0,i1", "t1"],
                  ["float32", "float32", "int32"])
    in_params, out_params, body = gpu_fused.source(chain, ["float32", "float32"])
    assert in_params == "float32 i0, float32 i1" and out_params == "int32 out"
    assert body.splitlines() == [
        "float t0 = (float)(i0 * i0);",
        "float t1 = ((t0 != t0 || t0 >= i1) ? t0 : i1);",
        "int t2 = ((trunc(t1) >= -2147483648.0 && trunc(t1) < 2147483648.0)"
        " ? (int)trunc(t1) : (-2147483647 - 1));",
        "out = t2;",
    ]


def test_every_fusable_op_has_a_cuda_expression():
    for op, allowed in FUSABLE.items():
        for dtype in sorted(allowed):
            out = "bool" if op.startswith(("Less", "Greater", "Equal", "NotEqual")) else dtype
            assert gpu_fused.expression(op, "a", "b", out, dtype)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_a_session_fuses_a_chain_on_the_gpu(backend_name):
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0"):
        x = tf.placeholder(tf.float32, [None], name="x")
        inside = tf.less_equal(tf.sqrt(x * x + 1.0), 1.5)
        hits = tf.reduce_sum(tf.cast(inside, tf.int32), name="hits")
    feed = {x: np.linspace(-2, 2, 1001, dtype=np.float32)}
    results = {}
    for remapping in (rewriter_config_pb2.RewriterConfig.OFF, rewriter_config_pb2.RewriterConfig.ON):
        config = tf.ConfigProto(device_count={"GPU": 1})
        config.graph_options.rewrite_options.remapping = remapping
        metadata = tf.RunMetadata()
        with gpu_backend(backend_name), tf.Session(graph=graph, config=config) as sess:
            results[remapping] = sess.run(hits, feed, options=tf.RunOptions(
                output_partition_graphs=True), run_metadata=metadata)
        fused = [node for g in metadata.partition_graphs for node in g.node
                 if node.op == FUSED_OP]
        if remapping == rewriter_config_pb2.RewriterConfig.ON:
            assert len(fused) == 1 and "GPU" in fused[0].device
        else:
            assert not fused
    assert results[rewriter_config_pb2.RewriterConfig.OFF] == results[
        rewriter_config_pb2.RewriterConfig.ON] == int(np.sum(
            np.sqrt(feed[x] ** 2 + 1) <= 1.5))
