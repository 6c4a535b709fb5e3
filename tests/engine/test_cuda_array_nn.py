"""GPU kernels of array ops, nn ops, MatMul and the training apply ops against their CPU twins.

Every fixture case of these ops (tests/fixtures/ops) runs through both kernels, then seeded
random inputs cover what the fixtures do not: strided slices with masks, gathers with
batch_dims, convolutions and pools over strides, paddings and layouts, the backprops, the
training updates on Ref and resource variables. Each runs on the simulated GPU always and on
CuPy where a CUDA GPU is present (the `cuda` marker).
"""

import numpy as np
import pytest

from engine.framework import errors
from engine.framework.dtypes import as_dtype
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.kernels.cuda import backend as gpu
from engine.runtime.resources import Ref, ResourceHandle, ResourceMgr
from tests.engine.cuda_twin import (BACKENDS, assert_fixture_twin, assert_twin, fixture_cases,
                                    gpu_backend, make_node_def, run_kernel)

ARRAY_OPS = {
    "Reshape", "Transpose", "ConcatV2", "Concat", "Pack", "Unpack", "Split", "SplitV", "Slice",
    "StridedSlice", "StridedSliceGrad", "Squeeze", "ExpandDims", "Tile", "Pad", "PadV2",
    "MirrorPad", "Fill", "Range", "ZerosLike", "OnesLike", "GatherV2", "Gather", "OneHot",
    "ReverseV2", "BroadcastTo", "Where", "DynamicStitch", "ParallelDynamicStitch",
    "UnsortedSegmentSum", "ListDiff"}
HOST_OUTPUT_OPS = {"Shape", "ShapeN", "Size", "Rank", "InvertPermutation", "BroadcastArgs",
                   "BroadcastGradientArgs", "ConcatOffset"}
NN_OPS = {
    "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "BiasAdd", "BiasAddV1",
    "BiasAddGrad", "Softmax", "LogSoftmax", "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits", "Conv2D", "Conv2DBackpropInput",
    "Conv2DBackpropFilter", "MaxPool", "MaxPoolV2", "AvgPool", "MaxPoolGrad", "AvgPoolGrad",
    "TopKV2", "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "LeakyReluGrad", "SoftplusGrad",
    "SoftsignGrad", "TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
    "InvGrad"}
UPDATE_OPS = ("GradientDescent", "Momentum", "Adam", "RMSProp", "CenteredRMSProp", "Adagrad")
F32 = np.float32


def _rng(seed):
    return np.random.default_rng(seed)


def _normal(rng, shape, dtype=F32):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_every_op_has_a_gpu_kernel(backend_name):
    with gpu_backend(backend_name):
        missing = [op for op in sorted(ARRAY_OPS | HOST_OUTPUT_OPS | NN_OPS)
                   if lookup(op, "GPU") is None]
        missing += [op for name in UPDATE_OPS for op in (f"Apply{name}",
                                                         f"ResourceApply{name}")
                    if lookup(op, "GPU") is None]
    assert not missing


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("family, entry",
                         fixture_cases(("array", "nn"), ARRAY_OPS | HOST_OUTPUT_OPS | NN_OPS))
def test_fixture_case(family, entry, backend_name):
    assert_fixture_twin(family, entry, backend_name,
                        host_outputs=entry["op"] in HOST_OUTPUT_OPS)


# --- array ops -------------------------------------------------------------------------------

def _i32(*values):
    return np.array(values, np.int32)


def _array_cases():
    rng = _rng(0)
    x = _normal(rng, (2, 3, 4))
    ints = rng.integers(-5, 5, (4, 5)).astype(np.int64)
    t32 = {"T": F32}
    yield "Reshape", t32, [x, _i32(4, -1)]
    yield "Reshape", t32, [x, _i32(5, -1)]  # error: 24 values
    yield "Reshape", t32, [x, _i32(-1, -1)]
    yield "Transpose", t32, [x, _i32(2, 0, 1)]
    yield "Transpose", t32, [x, _i32(0, 0, 1)]
    yield "ConcatV2", {"T": F32, "N": 2}, [x, _normal(rng, (2, 5, 4)), np.int32(-2)]
    yield "ConcatV2", {"T": F32, "N": 2}, [x, _normal(rng, (2, 5, 3)), np.int32(1)]
    yield "Concat", {"T": F32, "N": 2}, [np.int32(0), x, x]
    yield "Pack", {"T": F32, "N": 3, "axis": -1}, [x, x, x]
    yield "Pack", {"T": F32, "N": 2, "axis": 0}, [x, x[:1]]
    yield "Unpack", {"T": F32, "num": 3, "axis": 1}, [x]
    yield "Split", {"T": F32, "num_split": 2}, [np.int32(-1), x]
    yield "Split", {"T": F32, "num_split": 3}, [np.int32(2), x]
    yield "SplitV", {"T": F32, "num_split": 3, "Tlen": np.int32}, [x, _i32(1, -1, 1), np.int32(2)]
    yield "Slice", {"T": F32, "Index": np.int32}, [x, _i32(1, 0, 1), _i32(-1, 2, 3)]
    yield "Slice", {"T": F32, "Index": np.int32}, [x, _i32(1, 0, 1), _i32(2, 2, 3)]
    yield "ZerosLike", {"T": np.int64}, [ints]
    yield "OnesLike", t32, [x]
    yield "ExpandDims", {"T": F32, "Tdim": np.int32}, [x, np.int32(-1)]
    yield "ExpandDims", {"T": F32, "Tdim": np.int32}, [x, np.int32(5)]
    yield "Squeeze", {"T": F32, "squeeze_dims": [0, 2]}, [_normal(rng, (1, 3, 1))]
    yield "Squeeze", {"T": F32, "squeeze_dims": [1]}, [_normal(rng, (1, 3, 1))]
    yield "Squeeze", {"T": F32}, [_normal(rng, (1, 3, 1))]
    yield "Tile", {"T": np.int64, "Tmultiples": np.int32}, [ints, _i32(2, 3)]
    yield "Tile", {"T": np.int64, "Tmultiples": np.int32}, [ints, _i32(2)]
    paddings = _i32(1, 0, 2, 3).reshape(2, 2)
    yield "Pad", {"T": np.int64, "Tpaddings": np.int32}, [ints, paddings]
    yield "PadV2", {"T": F32, "Tpaddings": np.int32}, [x[0], paddings, np.float32(-2.5)]
    yield "Pad", {"T": F32, "Tpaddings": np.int32}, [x, paddings]
    yield "MirrorPad", {"T": F32, "Tpaddings": np.int32, "mode": b"REFLECT"}, [x[0], paddings]
    yield "MirrorPad", {"T": F32, "Tpaddings": np.int32, "mode": b"SYMMETRIC"}, [x[0], paddings]
    yield "Fill", {"T": F32, "index_type": np.int32}, [_i32(3, 2), np.float32(1.5)]
    yield "Fill", {"T": F32, "index_type": np.int32}, [_i32(3, -2), np.float32(1.5)]
    yield "Range", {"Tidx": np.int32}, [np.int32(2), np.int32(17), np.int32(3)]
    yield "Range", {"Tidx": F32}, [F32(0.5), F32(-3.0), F32(-0.3)]
    yield "Range", {"Tidx": np.int32}, [np.int32(2), np.int32(1), np.int32(3)]
    yield "ReverseV2", {"T": F32, "Tidx": np.int32}, [x, _i32(0, -1)]
    yield "ReverseV2", {"T": F32, "Tidx": np.int32}, [x, _i32(3)]
    yield "BroadcastTo", {"T": F32, "Tidx": np.int32}, [x[:, :1], _i32(5, 2, 3, 4)]
    yield "BroadcastTo", {"T": F32, "Tidx": np.int32}, [x, _i32(2, 2, 4)]
    yield "Where", {"T": np.int64}, [ints]
    yield "Where", {"T": np.bool_}, [ints > 0]


def _strided_slice_cases():
    rng = _rng(1)
    x = _normal(rng, (4, 5, 6))
    specs = [  # begin, end, strides, masks
        ((1, 0, 0), (3, 5, 6), (1, 2, 3), {}),
        ((-1, 4, 5), (0, 0, 0), (-1, -2, -2), {}),
        ((0, 2), (0, 3), (1, 1), {"begin_mask": 1, "end_mask": 1, "shrink_axis_mask": 2}),
        ((0, 1), (0, 3), (1, 1), {"ellipsis_mask": 1}),
        ((0, 0, 1), (2, 0, 3), (1, 1, 1), {"new_axis_mask": 2}),
        ((7,), (8,), (1,), {"shrink_axis_mask": 1}),  # error: out of bounds
        ((0,), (2,), (0,), {}),  # error: zero stride
    ]
    for begin, end, strides, masks in specs:
        yield begin, end, strides, masks, x


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_array_ops(backend_name):
    for index, (op, attrs, inputs) in enumerate(_array_cases()):
        assert_twin(op, attrs, inputs, backend_name, where=f"{op} case {index}")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_strided_slice_and_its_gradient(backend_name):
    for begin, end, strides, masks, x in _strided_slice_cases():
        attrs = {"T": F32, "Index": np.int32, **masks}
        args = [_i32(*begin), _i32(*end), _i32(*strides)]
        where = f"{begin} {end} {strides} {masks}"
        cpu, _ = assert_twin("StridedSlice", attrs, [x] + args, backend_name, where=where)
        if cpu.error is None:
            dy = np.ones_like(np.asarray(cpu.outputs[0][0])) * 2
            assert_twin("StridedSliceGrad", attrs, [_i32(*x.shape)] + args + [dy],
                        backend_name, where="grad " + where)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_gathers(backend_name):
    rng = _rng(2)
    params = _normal(rng, (3, 4, 5))
    cases = [
        ({"batch_dims": 0}, rng.integers(0, 4, (2, 3)).astype(np.int32), 1),
        ({"batch_dims": 0}, rng.integers(0, 5, (6,)).astype(np.int64), -1),
        ({"batch_dims": 1}, rng.integers(0, 4, (3, 2)).astype(np.int32), 1),
        ({"batch_dims": -1}, rng.integers(0, 5, (3, 4, 2)).astype(np.int32), 2),
        ({"batch_dims": 0}, np.array([[0, 7], [1, 2]], np.int32), 1),  # error: 7 not in [0, 4)
        ({"batch_dims": 0}, np.array([1, 0], np.int32), 3),  # error: axis
    ]
    for attrs, indices, axis in cases:
        attrs = {"Tparams": F32, "Tindices": indices.dtype, "Taxis": np.int32, **attrs}
        assert_twin("GatherV2", attrs, [params, indices, np.int32(axis)], backend_name,
                    where=f"GatherV2 {attrs} axis {axis}")
    assert_twin("Gather", {"Tparams": F32, "Tindices": np.int32},
                [params, np.array([2, 0, 2], np.int32)], backend_name)
    for axis in (-1, 0, 1):
        assert_twin("OneHot", {"T": F32, "TI": np.int64, "axis": axis},
                    [np.array([[0, 3], [5, -1]], np.int64), np.int32(4), F32(2.0), F32(-1.0)],
                    backend_name, where=f"OneHot axis {axis}")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_segments_and_stitches(backend_name):
    rng = _rng(3)
    data = _normal(rng, (6, 3))
    for ids, count in (([0, 2, 2, -1, 4, 0], 5), ([1, 1, 1, 1, 1, 1], 2), ([0, 1, 9, 0, 0, 0], 3)):
        ids = np.array(ids, np.int32)
        assert_twin("UnsortedSegmentSum", {"T": F32, "Tindices": np.int32,
                                           "Tnumsegments": np.int32},
                    [data, ids, np.int32(count)], backend_name, where=f"segments {ids}")
    ints = rng.integers(-9, 9, (4, 2, 2)).astype(np.int32)
    assert_twin("UnsortedSegmentSum", {"T": np.int32, "Tindices": np.int64,
                                       "Tnumsegments": np.int32},
                [ints, np.array([[0, 1], [1, 0], [3, 3], [-1, 2]], np.int64), np.int32(4)],
                backend_name)
    indices = [np.array([0, 4, 2], np.int32), np.array([[1, 4], [5, 0]], np.int32)]
    values = [_normal(rng, (3, 2)), _normal(rng, (2, 2, 2))]
    for op in ("DynamicStitch", "ParallelDynamicStitch"):
        assert_twin(op, {"T": F32, "N": 2}, indices + values, backend_name)
    assert_twin("ListDiff", {"T": np.int32, "out_idx": np.int32},
                [np.array([1, 5, 3, 5, 7], np.int32), np.array([5, 2], np.int32)], backend_name,
                output_dtypes=[as_dtype(np.int32), as_dtype(np.int32)])


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_host_output_ops_give_host_arrays(backend_name):
    x = _normal(_rng(4), (2, 0, 3))
    cases = [
        ("Shape", {"T": F32, "out_type": np.int64}, [x]),
        ("ShapeN", {"T": F32, "N": 2, "out_type": np.int32}, [x, x[0]]),
        ("Size", {"T": F32, "out_type": np.int32}, [x]),
        ("Rank", {"T": F32}, [x]),
        ("InvertPermutation", {"T": np.int32}, [_i32(2, 0, 3, 1)]),
        ("BroadcastArgs", {"T": np.int32}, [_i32(2, 1, 3), _i32(4, 1)]),
        ("BroadcastArgs", {"T": np.int32}, [_i32(2, 1, 3), _i32(4, 2)]),
        ("BroadcastGradientArgs", {"T": np.int32}, [_i32(2, 1, 3), _i32(3,)]),
        ("ConcatOffset", {"N": 3}, [np.int32(1), _i32(2, 3), _i32(2, 5), _i32(2, 1)]),
    ]
    for op, attrs, inputs in cases:
        _, outcome = assert_twin(op, attrs, inputs, backend_name, host_outputs=True)
        if outcome.outputs is not None:
            with gpu_backend(backend_name) as current:
                raw = run_kernel(make_node_def(op, attrs), [current.xp.asarray(v)
                                                            for v in inputs], "GPU")
            assert not any(gpu.is_device_array(v) for v in raw.outputs[0]), op


# --- matrix products, softmax, activation gradients -----------------------------------------

@pytest.mark.parametrize("backend_name", BACKENDS)
def test_mat_muls(backend_name):
    rng = _rng(5)
    for transpose_a in (False, True):
        for transpose_b in (False, True):
            a = _normal(rng, (4, 3) if transpose_a else (3, 4))
            b = _normal(rng, (5, 4) if transpose_b else (4, 5))
            assert_twin("MatMul", {"T": F32, "transpose_a": transpose_a,
                                   "transpose_b": transpose_b}, [a, b], backend_name)
    assert_twin("MatMul", {"T": F32}, [_normal(rng, (3, 4)), _normal(rng, (3, 4))], backend_name)
    assert_twin("MatMul", {"T": F32}, [_normal(rng, (3,)), _normal(rng, (3, 4))], backend_name)
    x, y = _normal(rng, (2, 1, 3, 4), np.float64), _normal(rng, (3, 5, 4), np.float64)
    assert_twin("BatchMatMulV2", {"T": np.float64, "adj_y": True}, [x, y], backend_name)
    assert_twin("BatchMatMulV2", {"T": np.float64}, [x, y], backend_name)  # error: 4 vs 5
    assert_twin("BatchMatMul", {"T": F32, "adj_x": True},
                [_normal(rng, (2, 4, 3)), _normal(rng, (2, 4, 2))], backend_name)
    c = (_normal(rng, (2, 3, 3)) + 1j * _normal(rng, (2, 3, 3))).astype(np.complex64)
    assert_twin("BatchMatMulV2", {"T": np.complex64, "adj_x": True}, [c, c], backend_name)
    assert_twin("BatchMatMulV3", {"Ta": F32, "Tb": F32, "Tout": F32},
                [_normal(rng, (2, 3, 4)), _normal(rng, (2, 4, 2))], backend_name,
                output_dtypes=[as_dtype(F32)])


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_bias_softmax_and_cross_entropy(backend_name):
    rng = _rng(6)
    x, bias = _normal(rng, (2, 3, 4, 5)), _normal(rng, (5,))
    assert_twin("BiasAdd", {"T": F32, "data_format": b"NHWC"}, [x, bias], backend_name)
    assert_twin("BiasAdd", {"T": F32, "data_format": b"NCHW"}, [x, _normal(rng, (3,))],
                backend_name)
    assert_twin("BiasAdd", {"T": F32, "data_format": b"NHWC"}, [x, _normal(rng, (3,))],
                backend_name)
    for data_format in (b"NHWC", b"NCHW"):
        assert_twin("BiasAddGrad", {"T": F32, "data_format": data_format}, [x], backend_name)
    logits = _normal(rng, (3, 7)) * 4
    for op in ("Softmax", "LogSoftmax"):
        assert_twin(op, {"T": F32}, [logits], backend_name)
        assert_twin(op, {"T": np.float64}, [logits.astype(np.float64)[0]], backend_name)
    labels = np.abs(_normal(rng, (3, 7)))
    labels /= labels.sum(-1, keepdims=True)
    assert_twin("SoftmaxCrossEntropyWithLogits", {"T": F32}, [logits, labels], backend_name)
    assert_twin("SoftmaxCrossEntropyWithLogits", {"T": F32}, [logits, labels[:1]], backend_name)
    assert_twin("SoftmaxCrossEntropyWithLogits", {"T": F32}, [logits, labels[:, :3]],
                backend_name)
    for sparse_labels in ([0, 6, 3], [0, 7, -1]):
        assert_twin("SparseSoftmaxCrossEntropyWithLogits", {"T": F32, "Tlabels": np.int64},
                    [logits, np.array(sparse_labels, np.int64)], backend_name)


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("op", sorted(op for op in NN_OPS if op.endswith("Grad")
                                      and op not in {"BiasAddGrad", "MaxPoolGrad",
                                                     "AvgPoolGrad"}))
def test_activation_gradients(op, backend_name):
    rng = _rng(7)
    for dtype in (F32, np.float64):
        a, b = _normal(rng, (3, 4), dtype) * 4, _normal(rng, (3, 4), dtype)
        if op in {"SqrtGrad", "RsqrtGrad"}:
            a = np.abs(a) + 0.5
        assert_twin(op, {"T": dtype, "alpha": 0.3} if op == "LeakyReluGrad" else {"T": dtype},
                    [a, b], backend_name, where=f"{op} {np.dtype(dtype).name}")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_top_k(backend_name):
    rng = _rng(8)
    ties = rng.integers(0, 4, (3, 8))
    for values in (ties.astype(F32), ties.astype(np.uint8), _normal(rng, (2, 3, 9))):
        for k in (0, 3, values.shape[-1]):
            assert_twin("TopKV2", {"T": values.dtype, "sorted": True},
                        [values, np.int32(k)], backend_name, where=f"TopKV2 k={k}")
    assert_twin("TopKV2", {"T": F32}, [ties.astype(F32), np.int32(9)], backend_name)


# --- convolution and pooling -------------------------------------------------------------------

def _conv_geometries():
    for data_format in (b"NHWC", b"NCHW"):
        for padding in (b"SAME", b"VALID"):
            for strides, dilations, window in (((1, 1), (1, 1), (3, 3)), ((2, 2), (1, 1), (3, 2)),
                                               ((1, 3), (1, 1), (2, 2)), ((1, 1), (2, 2), (2, 3)),
                                               ((3, 2), (1, 1), (1, 1))):
                yield data_format, padding, strides, dilations, window


def _hw_attr(data_format, pair):
    return [1, 1, *pair] if data_format == b"NCHW" else [1, *pair, 1]


def _layout(data_format, nhwc_shape):
    n, h, w, c = nhwc_shape
    return (n, c, h, w) if data_format == b"NCHW" else nhwc_shape


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_conv2d_and_backprops(backend_name):
    rng = _rng(9)
    for data_format, padding, strides, dilations, window in _conv_geometries():
        x = _normal(rng, _layout(data_format, (2, 7, 8, 3)))
        filters = _normal(rng, (*window, 3, 4))
        attrs = {"T": F32, "data_format": data_format, "padding": padding,
                 "strides": _hw_attr(data_format, strides),
                 "dilations": _hw_attr(data_format, dilations)}
        where = f"{data_format} {padding} strides {strides} dilations {dilations} {window}"
        cpu, _ = assert_twin("Conv2D", attrs, [x, filters], backend_name, where=where)
        dy = _normal(rng, np.shape(cpu.outputs[0][0]))
        assert_twin("Conv2DBackpropInput", attrs, [_i32(*x.shape), filters, dy], backend_name,
                    where="input " + where)
        assert_twin("Conv2DBackpropFilter", attrs, [x, _i32(*filters.shape), dy], backend_name,
                    where="filter " + where)
    explicit = {"T": F32, "padding": b"EXPLICIT", "strides": [1, 2, 1, 1],
                "explicit_paddings": [0, 0, 1, 2, 0, 1, 0, 0]}
    assert_twin("Conv2D", explicit, [_normal(rng, (1, 5, 5, 2)), _normal(rng, (3, 3, 2, 2))],
                backend_name)
    plain = {"T": F32, "padding": b"SAME", "strides": [1, 1, 1, 1]}
    assert_twin("Conv2D", plain, [_normal(rng, (1, 5, 5, 2)), _normal(rng, (3, 3, 3, 2))],
                backend_name)  # error: depth
    assert_twin("Conv2D", plain, [_normal(rng, (5, 5, 2)), _normal(rng, (3, 3, 2, 2))],
                backend_name)  # error: rank
    assert_twin("Conv2DBackpropInput", plain,
                [_i32(1, 5, 5, 2), _normal(rng, (3, 3, 2, 2)), _normal(rng, (1, 4, 5, 2))],
                backend_name)  # error: out_backprop's size


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_pools_and_their_gradients(backend_name):
    rng = _rng(10)
    for data_format, padding, strides, _, window in _conv_geometries():
        x = _normal(rng, _layout(data_format, (2, 7, 8, 3)))
        attrs = {"T": F32, "data_format": data_format, "padding": padding,
                 "ksize": _hw_attr(data_format, window),
                 "strides": _hw_attr(data_format, strides)}
        where = f"{data_format} {padding} strides {strides} window {window}"
        for op in ("MaxPool", "AvgPool"):
            cpu, _ = assert_twin(op, attrs, [x], backend_name, where=f"{op} {where}")
        pooled = np.asarray(cpu.outputs[0][0])
        dy = _normal(rng, pooled.shape)
        assert_twin("AvgPoolGrad", attrs, [_i32(*x.shape), dy], backend_name,
                    where="AvgPoolGrad " + where)
        maximum = lookup("MaxPool")(KernelContext(make_node_def("MaxPool", attrs), [], None), x)
        assert_twin("MaxPoolGrad", attrs, [x, maximum, dy], backend_name,
                    where="MaxPoolGrad " + where)
    # Ties: the first maximum of a window takes the whole gradient.
    ties = rng.integers(0, 2, (1, 6, 6, 2)).astype(F32)
    attrs = {"T": F32, "padding": b"VALID", "ksize": [1, 3, 3, 1], "strides": [1, 1, 1, 1]}
    assert_twin("MaxPoolGrad", attrs, [ties, np.ones((1, 4, 4, 2), F32),
                                       _normal(rng, (1, 4, 4, 2))], backend_name)
    ints = rng.integers(-50, 50, (1, 5, 5, 2)).astype(np.int32)
    assert_twin("MaxPool", {**attrs, "T": np.int32, "padding": b"SAME"}, [ints], backend_name)
    assert_twin("MaxPoolV2", {"T": F32, "padding": b"SAME"},
                [_normal(rng, (1, 5, 5, 2)), _i32(1, 2, 2, 1), _i32(1, 2, 2, 1)], backend_name)
    assert_twin("MaxPool", attrs, [_normal(rng, (5, 5, 2))], backend_name)  # error: rank


# --- training apply ops -----------------------------------------------------------------------

_SCALARS = {  # the hyperparameters of each update, in input order, around `grad`
    "GradientDescent": ("alpha", "grad"),
    "Momentum": ("lr", "grad", "momentum"),
    "Adam": ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"),
    "RMSProp": ("lr", "rho", "momentum", "epsilon", "grad"),
    "CenteredRMSProp": ("lr", "rho", "momentum", "epsilon", "grad"),
    "Adagrad": ("lr", "grad"),
}
_SLOTS = {"GradientDescent": 1, "Momentum": 2, "Adam": 3, "RMSProp": 3, "CenteredRMSProp": 4,
          "Adagrad": 2}
_VALUES = {"alpha": 0.1, "lr": 0.05, "momentum": 0.9, "beta1_power": 0.81,
           "beta2_power": 0.998, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7, "rho": 0.9}


def _update_inputs(name, rng, shape, dtype, grad_shape=None):
    slots = [np.abs(_normal(rng, shape, dtype)) + 0.5 for _ in range(_SLOTS[name])]
    rest = [_normal(rng, grad_shape or shape, dtype) if arg == "grad" else dtype(_VALUES[arg])
            for arg in _SCALARS[name]]
    return slots, rest


def _run_update(op, attrs, slots, rest, xp, resource):
    """The kernel of the current backend's device run twice on variables holding `slots`."""
    device_type = "CPU" if xp is np else "GPU"
    resources = ResourceMgr()
    if resource:
        handles = [ResourceHandle("", f"slot{i}") for i in range(len(slots))]
        buffers = [resources.variable(h) for h in handles]
        for buffer, value in zip(buffers, slots):
            buffer.value = xp.array(value)  # a copy: the CPU run must not move the GPU's start
        variables = [np.array(h, dtype=object) for h in handles]
    else:
        # copies: a ref update writes in place, and np.asarray would hand it `slots` itself
        buffers = variables = [Ref(f"slot{i}", None, xp.array(v)) for i, v in enumerate(slots)]
    ctx = KernelContext(make_node_def(op, attrs), [], resources)
    kernel = lookup(op, device_type)
    try:
        for _ in range(2):
            with np.errstate(all="ignore"):  # as Session.run calls kernels
                result = kernel(ctx, *variables, *[xp.asarray(v) for v in rest])
    except errors.OpError as error:
        return error, None
    if not resource:
        assert result is variables[0]
    assert all(gpu.is_device_array(b.value) == (xp is not np) for b in buffers)
    return None, [gpu.to_host(b.value) for b in buffers]


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("resource", [False, True], ids=["ref", "resource"])
@pytest.mark.parametrize("name", UPDATE_OPS)
def test_training_updates(name, resource, backend_name):
    rng = _rng(11)
    op = ("ResourceApply" if resource else "Apply") + name
    for dtype, attrs, grad_shape in ((F32, {}, None), (np.float64, {"use_nesterov": True}, None),
                                     (F32, {"update_slots": False}, None), (F32, {}, (2, 2))):
        slots, rest = _update_inputs(name, rng, (3, 2), dtype, grad_shape)
        attrs = {"T": dtype, **attrs}
        cpu_error, cpu_values = _run_update(op, attrs, slots, rest, np, resource)
        with gpu_backend(backend_name) as current:
            gpu_error, gpu_values = _run_update(op, attrs, slots, rest, current.xp, resource)
        where = f"{op} {attrs} grad {grad_shape}"
        if cpu_error is not None:
            assert type(gpu_error) is type(cpu_error) and gpu_error.message == cpu_error.message
            continue
        assert gpu_error is None, f"{where}: {gpu_error!r}"
        for expected, actual in zip(cpu_values, gpu_values):
            assert actual.dtype == expected.dtype, where
            np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-7, err_msg=where)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_ref_update_writes_the_device_buffer_in_place(backend_name):
    rng = _rng(12)
    with gpu_backend(backend_name) as current:
        xp = current.xp
        buffer = xp.asarray(_normal(rng, (4,)))
        ref = Ref("var", None, buffer)
        ctx = KernelContext(make_node_def("ApplyGradientDescent", {"T": F32}), [], ResourceMgr())
        lookup("ApplyGradientDescent", "GPU")(ctx, ref, xp.asarray(F32(0.5)),
                                              xp.asarray(np.ones(4, F32)))
        assert ref.value is buffer and gpu.is_device_array(ref.value)
        uninitialized = Ref("empty", None)
        with pytest.raises(errors.FailedPreconditionError):
            lookup("ApplyGradientDescent", "GPU")(ctx, uninitialized, xp.asarray(F32(0.5)),
                                                  xp.asarray(np.ones(4, F32)))


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("value", [np.float32(-0.0), np.array(-0.0), np.array(np.nan, F32)],
                         ids=["f32 scalar", "0-d f64", "0-d nan"])
def test_a_0d_upload_keeps_its_bits(backend_name, value):
    """CuPy fills a 0-d array from the scalar and a zero fill is a memset (-0.0 became +0.0 on
    an H200, and a divide by it gave +inf where TensorFlow gives -inf): to_device copies bits."""
    with gpu_backend(backend_name) as current:
        uploaded = gpu.to_device(current.xp, value)
        assert gpu.is_device_array(uploaded) and uploaded.shape == ()
        back = gpu.to_host(uploaded)
        assert back.dtype == np.asarray(value).dtype
        assert np.asarray(back).tobytes() == np.asarray(value).tobytes()
