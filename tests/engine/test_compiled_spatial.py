"""The compiled convolution and pooling kernels (engine/kernels/compiled/conv_numba.py,
pool_numba.py, depthwise_numba.py) against TensorFlow's fixtures and against the NumPy
reference kernels they stand in for, on every geometry the kernels take: strides, dilations,
SAME, VALID and explicit padding, NHWC and NCHW, float32 and float64, several threads. Pooling
and its gradients equal the reference exactly; the convolutions (their sums in another order,
with fused multiply-adds) to float rounding, so a process takes them from its first call
(compiled_forms.FIRST_CALL; tests/engine/test_compiled_determinism.py), never switching
between the two."""

import itertools

import numpy as np
import pytest

from engine.framework import dtypes
from engine.kernels import compiled
from engine.kernels.context import KernelContext
from engine.kernels.cpu import grad, nn, nn_extra
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr

from tests.engine import test_kernels_fixtures as fixtures

SPATIAL_OPS = {"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "AvgPool",
               "MaxPoolGrad", "AvgPoolGrad", "BiasAddGrad"}
TOLERANCE = {np.dtype(np.float32): dict(rtol=2e-5, atol=2e-5),
             np.dtype(np.float64): dict(rtol=1e-12, atol=1e-12)}


@pytest.fixture(scope="module")
def loaded():
    modules = {name: compiled.module(name, wait=True) for name in ("conv", "pool", "depthwise")}
    for name, module in modules.items():
        if module is None:
            pytest.skip(f"numba kernels unavailable: {compiled.why_not(name)}")
    return modules


def _conv_cases(x, filters, dy):
    """(op, kernel, inputs) of a convolution and both its gradients on these values."""
    return [("Conv2D", nn.conv2d, (x, filters)),
            ("Conv2DBackpropInput", grad.conv2d_backprop_input,
             (np.array(x.shape, np.int32), filters, dy)),
            ("Conv2DBackpropFilter", grad.conv2d_backprop_filter,
             (x, np.array(filters.shape, np.int32), dy))]


def reference(monkeypatch, kernel, ctx, *inputs):
    """The NumPy reference kernel's result: compiled kernels off for the call."""
    with monkeypatch.context() as patch:
        patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        return kernel(ctx, *inputs)


def context(op, dtype, **attrs):
    node = NodeDef(name="case", op=op)
    for key, value in attrs.items():
        if isinstance(value, bytes):
            node.attr[key].s = value
        else:
            node.attr[key].list.i.extend(value)
    node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
    return KernelContext(node, [dtypes.as_dtype(dtype)], ResourceMgr())


def _fixture_cases():
    data, manifest = fixtures._load("nn")
    return [pytest.param(entry, id=entry["name"]) for entry in manifest
            if entry["op"] in SPATIAL_OPS and not entry["error"]]


@pytest.mark.parametrize("entry", _fixture_cases())
def test_compiled_kernels_match_tensorflows_fixtures(loaded, entry):
    fixtures.test_kernel_matches_tensorflow("nn", entry)


def _conv_geometries():
    shapes = [(2, 7, 6, 3, 5, 3, 2), (1, 9, 9, 4, 8, 5, 5), (3, 5, 8, 1, 7, 1, 1),
              (2, 10, 7, 6, 4, 3, 3), (1, 6, 6, 40, 9, 3, 3)]
    for shape, stride, dilation, padding in itertools.product(
            shapes, [(1, 1), (2, 1), (2, 2), (3, 2)], [(1, 1), (2, 1), (1, 2)],
            [b"SAME", b"VALID", b"EXPLICIT"]):
        if dilation == (1, 1) or stride == (1, 1):  # TensorFlow takes no strided dilation
            yield shape, stride, dilation, padding


@pytest.mark.parametrize("shape, stride, dilation, padding", list(_conv_geometries()))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_convolutions_equal_the_reference(loaded, monkeypatch, shape, stride, dilation, padding,
                                          dtype):
    n, h, w, c, k, kh, kw = shape
    rng = np.random.RandomState(sum(shape))
    x = rng.standard_normal((n, h, w, c)).astype(dtype)
    filters = rng.standard_normal((kh, kw, c, k)).astype(dtype)
    attrs = dict(strides=[1, *stride, 1], dilations=[1, *dilation, 1], padding=padding)
    if padding == b"EXPLICIT":
        attrs["explicit_paddings"] = [0, 0, 1, 2, 0, 1, 0, 0]
    forward = reference(monkeypatch, nn.conv2d, context("Conv2D", dtype, **attrs), x, filters)
    if forward.size == 0:
        pytest.skip("no output")
    dy = rng.standard_normal(forward.shape).astype(dtype)
    for op, kernel, inputs in _conv_cases(x, filters, dy):
        ctx = context(op, dtype, **attrs)
        want = reference(monkeypatch, kernel, ctx, *inputs)
        got = kernel(ctx, *inputs)
        assert got.dtype == want.dtype and got.shape == want.shape, op
        np.testing.assert_allclose(got, want, err_msg=op, **TOLERANCE[np.dtype(dtype)])


@pytest.mark.parametrize("k", [1, 15, 16, 24, 33, 64, 70, 100, 129])
@pytest.mark.parametrize("stride, dilation", [((1, 1), (1, 1)), ((2, 3), (1, 1)),
                                              ((1, 1), (2, 3))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_register_blocks_take_every_column_group_and_tail(loaded, monkeypatch, k, stride,
                                                          dilation, dtype):
    """conv_numba's register blocks (windows of 3x3x8 = 72 values) with filter counts that
    leave a masked last vector, groups of 4, 3, 2 and 1 vectors (float32: 16 lanes, float64:
    8), pixel counts and filter rows that are no multiple of a block's rows, filter gradients
    split by rows and by images, and any thread budget giving the same bits. A value is up to 900 terms added one after
    another, the reference's in BLAS's blocks; where terms cancel, the error is float
    rounding of the terms' scale (the largest output), not of the value."""
    rng = np.random.RandomState(k)
    x = rng.standard_normal((3, 9, 11, 8)).astype(dtype)
    filters = rng.standard_normal((3, 3, 8, k)).astype(dtype)
    attrs = dict(strides=[1, *stride, 1], dilations=[1, *dilation, 1], padding=b"SAME")
    forward = reference(monkeypatch, nn.conv2d, context("Conv2D", dtype, **attrs), x, filters)
    dy = rng.standard_normal(forward.shape).astype(dtype)
    for op, kernel, inputs in _conv_cases(x, filters, dy):
        ctx = context(op, dtype, **attrs)
        want = reference(monkeypatch, kernel, ctx, *inputs)
        got = []
        # pieces of any size, so that two and three threads split even these small convolutions
        monkeypatch.setattr(loaded["conv"], "_MIN_MACS_PER_PIECE", 1)
        try:
            for budget in (1, 2, 3):
                threads.configure(budget)
                got.append(kernel(ctx, *inputs))
        finally:
            threads.configure(0)
        assert got[0].dtype == want.dtype and got[0].shape == want.shape, op
        tolerance = TOLERANCE[np.dtype(dtype)]
        np.testing.assert_allclose(got[0], want, err_msg=op, rtol=tolerance["rtol"],
                                   atol=tolerance["atol"] * np.abs(want).max())
        for again in got[1:]:
            np.testing.assert_array_equal(again, got[0], err_msg=op)


@pytest.mark.parametrize("shape", [(2, 7, 6, 3, 1, 3, 2), (1, 9, 9, 4, 2, 5, 5),
                                   (3, 5, 8, 1, 3, 1, 1), (2, 10, 7, 6, 1, 3, 3)])
@pytest.mark.parametrize("stride", [1, 2, 3])
@pytest.mark.parametrize("padding", [b"SAME", b"VALID", b"EXPLICIT"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_depthwise_convolutions_equal_the_reference(loaded, monkeypatch, shape, stride, padding,
                                                    dtype):
    n, h, w, c, multiplier, kh, kw = shape
    rng = np.random.RandomState(sum(shape) + stride)
    x = rng.standard_normal((n, h, w, c)).astype(dtype)
    filters = rng.standard_normal((kh, kw, c, multiplier)).astype(dtype)
    attrs = dict(strides=[1, stride, stride, 1], padding=padding)
    if padding == b"EXPLICIT":
        attrs["explicit_paddings"] = [0, 0, 2, 1, 0, 1, 0, 0]
    op = "DepthwiseConv2dNative"
    forward = reference(monkeypatch, nn_extra.depthwise_conv2d_native,
                        context(op, dtype, **attrs), x, filters)
    if forward.size == 0:
        pytest.skip("no output")
    dy = rng.standard_normal(forward.shape).astype(dtype)
    cases = [(op, nn_extra.depthwise_conv2d_native, (x, filters)),
             (op + "BackpropInput", nn_extra.depthwise_conv2d_native_backprop_input,
              (np.array(x.shape, np.int32), filters, dy)),
             (op + "BackpropFilter", nn_extra.depthwise_conv2d_native_backprop_filter,
              (x, np.array(filters.shape, np.int32), dy))]
    for name, kernel, inputs in cases:
        ctx = context(name, dtype, **attrs)
        want = reference(monkeypatch, kernel, ctx, *inputs)
        got = kernel(ctx, *inputs)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_allclose(got, want, err_msg=name, **TOLERANCE[np.dtype(dtype)])


@pytest.mark.parametrize("weight", [np.inf, np.nan])
def test_depthwise_convolution_multiplies_the_padding_by_a_non_finite_weight(loaded, monkeypatch,
                                                                             weight):
    """The compiled forward pass skips the taps over the padding (zeros times the weights add
    nothing) unless a weight is infinite or NaN: then zero times it is NaN, as TensorFlow's
    kernel, which reads a padded copy, and the reference give."""
    rng = np.random.RandomState(3)
    x = rng.standard_normal((2, 5, 6, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 1)).astype(np.float32)
    filters[0, 0, 2, 0] = weight
    ctx = context("DepthwiseConv2dNative", np.float32, strides=[1, 1, 1, 1], padding=b"SAME")
    with np.errstate(all="ignore"):  # as a session runs its kernels
        want = reference(monkeypatch, nn_extra.depthwise_conv2d_native, ctx, x, filters)
    got = nn_extra.depthwise_conv2d_native(ctx, x, filters)
    assert np.isnan(got[:, 0, :, 2]).all() and np.isnan(got[:, :, 0, 2]).all()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, **TOLERANCE[np.dtype(np.float32)])


@pytest.mark.parametrize("value", [np.inf, np.nan])
def test_depthwise_filter_gradient_multiplies_the_padding_by_a_non_finite_gradient(
        loaded, monkeypatch, value):
    """The compiled filter gradient reads the unpadded input and adds zero times the gradient
    where a tap is over the padding, so a corner pixel's infinite or NaN gradient makes NaN
    of the taps that reach the padding there, as over TensorFlow's padded copy."""
    rng = np.random.RandomState(4)
    x = rng.standard_normal((2, 5, 6, 16)).astype(np.float32)
    dy = rng.standard_normal((2, 5, 6, 16)).astype(np.float32)
    dy[1, 0, 0, 3] = value
    inputs = (x, np.array([3, 3, 16, 1], np.int32), dy)
    ctx = context("DepthwiseConv2dNativeBackpropFilter", np.float32, strides=[1, 1, 1, 1],
                  padding=b"SAME")
    with np.errstate(all="ignore"):
        want = reference(monkeypatch, nn_extra.depthwise_conv2d_native_backprop_filter, ctx,
                         *inputs)
    got = nn_extra.depthwise_conv2d_native_backprop_filter(ctx, *inputs)
    assert np.isnan(got[0, :, 3, 0]).all() and np.isnan(got[:, 0, 3, 0]).all()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, **TOLERANCE[np.dtype(np.float32)])


def test_depthwise_fixtures_of_tensorflow_hold_with_compiled_kernels(loaded):
    """tests/engine/test_conv_norm_ops.py's TensorFlow values, the compiled kernels loaded."""
    from tests.engine import test_conv_norm_ops as conv_norm
    for name in conv_norm.cases.CASES:
        if name.startswith("dw_"):
            conv_norm.test_values_and_gradients_equal_tensorflows(name)


def _pool_geometries():
    return itertools.product([(2, 7, 6, 3), (3, 9, 9, 17), (1, 4, 5, 1)],
                             [(2, 2), (3, 3), (3, 2), (1, 1)], [(2, 2), (1, 1), (2, 1), (3, 3)],
                             [b"SAME", b"VALID"], [b"NHWC", b"NCHW"])


@pytest.mark.parametrize("shape, window, stride, padding, layout", list(_pool_geometries()))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pooling_equals_the_reference(loaded, monkeypatch, shape, window, stride, padding,
                                      layout, dtype):
    rng = np.random.RandomState(sum(shape) + sum(window))
    x = rng.standard_normal(shape).astype(dtype)
    ksize, strides = [1, *window, 1], [1, *stride, 1]
    if layout == b"NCHW":
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        ksize, strides = [1, 1, *window], [1, 1, *stride]
    attrs = dict(ksize=ksize, strides=strides, padding=padding, data_format=layout)
    for forward_op, backward_op in (("MaxPool", "MaxPoolGrad"), ("AvgPool", "AvgPoolGrad")):
        forward = nn._max_pool if forward_op == "MaxPool" else nn._avg_pool
        ctx = context(forward_op, dtype, **attrs)
        want = reference(monkeypatch, forward, ctx, x, ksize, strides)
        got = forward(ctx, x, ksize, strides)
        dy = rng.standard_normal(want.shape).astype(dtype)
        if forward_op == "MaxPool":
            inputs, kernel = (x, want, dy), grad.max_pool_grad
        else:
            inputs, kernel = (np.array(x.shape, np.int32), dy), grad.avg_pool_grad
        np.testing.assert_array_equal(got, want)
        ctx = context(backward_op, dtype, **attrs)
        want_grad = reference(monkeypatch, kernel, ctx, *inputs)
        got_grad = kernel(ctx, *inputs)
        assert got_grad.dtype == want_grad.dtype and got_grad.shape == want_grad.shape
        # the same values added in the same order: the same bits, so a program's values do not
        # change where the compiled module loads (AvgPoolGrad's reference added each input
        # element's shares in the other order before 2026-11-28: 60% of values differed)
        np.testing.assert_array_equal(got_grad, want_grad)


def test_max_pool_takes_nan_and_its_gradient_the_first_maximum(loaded):
    x = np.array([1, 5, 5, 2, np.nan, 3, 0, 5, 4], np.float32).reshape(1, 3, 3, 1)
    attrs = dict(ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding=b"VALID")
    pooled = nn._max_pool(context("MaxPool", np.float32, **attrs), x, attrs["ksize"],
                          attrs["strides"])
    assert np.isnan(pooled.reshape(-1)).tolist() == [True, True, True, True]
    # TensorFlow's CPU gradient (SpatialMaxPoolWithArgMaxHelper): the window's first valid
    # element, replaced only by a greater one, which NaN never is; so the window holding the
    # NaN in its corner sends its gradient there, the others to their first 5.
    dx = grad.max_pool_grad(context("MaxPoolGrad", np.float32, **attrs), x, pooled,
                            np.ones((1, 2, 2, 1), np.float32))
    assert dx.reshape(-1).tolist() == [0, 2, 0, 0, 1, 0, 0, 1, 0]


@pytest.mark.parametrize("budget", [1, 2, 3])
def test_any_thread_budget_gives_the_same_values(loaded, budget):
    rng = np.random.RandomState(7)
    x = rng.standard_normal((8, 12, 12, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 24)).astype(np.float32)
    dy = rng.standard_normal((8, 12, 12, 24)).astype(np.float32)
    attrs = dict(strides=[1, 1, 1, 1], padding=b"SAME")
    conv = context("Conv2D", np.float32, **attrs)
    backprop = context("Conv2DBackpropFilter", np.float32, **attrs)
    bias = context("BiasAddGrad", np.float32)

    def outputs():
        return (nn.conv2d(conv, x, filters),
                grad.conv2d_backprop_filter(backprop, x, np.array(filters.shape), dy),
                grad.bias_add_grad(bias, dy))

    threads.configure(1)
    try:
        single = outputs()
        threads.configure(budget)
        for once, again in zip(single, outputs()):
            np.testing.assert_allclose(again, once, rtol=1e-6, atol=1e-5)
        for once, again in zip(outputs(), outputs()):  # the same budget: the same bits
            np.testing.assert_array_equal(again, once)
    finally:
        threads.configure(0)
