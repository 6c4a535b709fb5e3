"""Compare every compiled CPU kernel (engine/kernels/compiled) with its NumPy reference, bit
for bit: prints op -> identical / differs (fraction of values, largest difference in ulps).

    .venv/bin/python -m tools.compiled_bits
"""

import contextlib
import os

import numpy as np

from engine.framework import dtypes
from engine.kernels import compiled
from engine.kernels.context import KernelContext
from engine.kernels.cpu import (eigen_atan2, eigen_erf, eigen_float32, eigen_pow, eigen_trig,
                                grad, math as cpu_math, nn, nn_extra, reduce, training)
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr


def context(op, dtype, **attrs):
    node = NodeDef(name="case", op=op)
    for key, value in attrs.items():
        if isinstance(value, bytes):
            node.attr[key].s = value
        elif isinstance(value, bool):
            node.attr[key].b = value
        else:
            node.attr[key].list.i.extend(value)
    node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
    return KernelContext(node, [dtypes.as_dtype(dtype)], ResourceMgr())


@contextlib.contextmanager
def reference():
    """The NumPy reference: compiled forms off and no module counted as loaded."""
    saved, loading = dict(compiled._loaded), dict(compiled._loading)
    old = os.environ.get("GRAPH_INSPECTOR_COMPILED")
    os.environ["GRAPH_INSPECTOR_COMPILED"] = "0"
    compiled._loaded.clear()
    compiled._loading.clear()
    try:
        yield
    finally:
        compiled._loaded.update(saved)
        compiled._loading.update(loading)
        if old is None:
            del os.environ["GRAPH_INSPECTOR_COMPILED"]
        else:
            os.environ["GRAPH_INSPECTOR_COMPILED"] = old


def ulps(a, b):
    """Largest distance in units of the last place between a and b (same dtype)."""
    a, b = np.asarray(a).ravel(), np.asarray(b).ravel()
    kind = np.int32 if a.dtype == np.float32 else np.int64
    ia, ib = a.view(kind).astype(np.int64), b.view(kind).astype(np.int64)
    top = np.int64(np.iinfo(kind).min)
    ia = np.where(ia < 0, top - ia, ia)  # order the bit patterns as the values
    ib = np.where(ib < 0, top - ib, ib)
    both_nan = np.isnan(a) & np.isnan(b)
    return int(np.where(both_nan, 0, np.abs(ia - ib)).max(initial=0))


def compare(run):
    """(fraction of values that differ, max ulps) between run() compiled and its reference."""
    got = run()
    with reference():
        want = run()
    got, want = (got if isinstance(got, tuple) else (got,)), \
        (want if isinstance(want, tuple) else (want,))
    total = diff = worst = 0
    for g, w in zip(got, want):
        g, w = np.ascontiguousarray(g), np.ascontiguousarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        same = (g.view(np.uint8).reshape(g.size, -1) == w.view(np.uint8).reshape(
            w.size, -1)).all(axis=1) if g.size else np.ones(0, bool)
        total += g.size
        diff += int((~same).sum())
        worst = max(worst, ulps(g, w))
    return diff / max(total, 1), worst


def cases(dtype):
    rng = np.random.RandomState(0)

    def normal(*shape):
        return rng.standard_normal(shape).astype(dtype)

    convs = [((8, 28, 28, 1), (5, 5, 1, 32), (1, 1), b"SAME"),
             ((8, 14, 14, 32), (5, 5, 32, 64), (1, 1), b"SAME"),
             ((4, 15, 15, 16), (3, 3, 16, 24), (2, 2), b"VALID"),
             ((4, 16, 16, 8), (3, 3, 8, 16), (2, 2), b"SAME")]
    for xs, fs, stride, padding in convs:
        x, f = normal(*xs), normal(*fs)
        attrs = dict(strides=[1, *stride, 1], padding=padding)
        with reference():
            y = nn.conv2d(context("Conv2D", dtype, **attrs), x, f)
        dy = normal(*y.shape)
        tag = f"{xs}x{fs[:2]}->{fs[3]} s{stride[0]} {padding.decode()}"
        yield "Conv2D", tag, lambda: nn.conv2d(context("Conv2D", dtype, **attrs), x, f)
        yield "Conv2DBackpropInput", tag, lambda: grad.conv2d_backprop_input(
            context("Conv2DBackpropInput", dtype, **attrs), np.array(xs, np.int32), f, dy)
        yield "Conv2DBackpropFilter", tag, lambda: grad.conv2d_backprop_filter(
            context("Conv2DBackpropFilter", dtype, **attrs), x, np.array(fs, np.int32), dy)
    pools = [((8, 28, 28, 32), (2, 2), (2, 2), b"SAME"),
             ((4, 15, 15, 16), (3, 3), (2, 2), b"VALID"),
             ((4, 15, 15, 16), (3, 3), (2, 2), b"SAME"), ((4, 9, 9, 8), (3, 3), (1, 1), b"SAME"),
             ((8, 28, 28, 1), (2, 2), (2, 2), b"SAME"), ((4, 9, 9, 1), (3, 3), (1, 1), b"VALID")]
    for xs, window, stride, padding in pools:
        x = normal(*xs)
        ksize, strides = [1, *window, 1], [1, *stride, 1]
        attrs = dict(ksize=ksize, strides=strides, padding=padding)
        with reference():
            y = nn._max_pool(context("MaxPool", dtype, **attrs), x, ksize, strides)
        dy = normal(*y.shape)
        tag = f"{xs} {window} s{stride[0]} {padding.decode()}"
        yield "MaxPool", tag, lambda: nn._max_pool(context("MaxPool", dtype, **attrs), x, ksize,
                                                   strides)
        yield "AvgPool", tag, lambda: nn._avg_pool(context("AvgPool", dtype, **attrs), x, ksize,
                                                   strides)
        yield "MaxPoolGrad", tag, lambda: grad.max_pool_grad(
            context("MaxPoolGrad", dtype, **attrs), x, y, dy)
        yield "AvgPoolGrad", tag, lambda: grad.avg_pool_grad(
            context("AvgPoolGrad", dtype, **attrs), np.array(xs, np.int32), dy)
    for shape in [(8, 14, 14, 64), (64, 1000), (8, 28, 28, 32), (300, 1), (2, 64, 64, 256)]:
        dy = normal(*shape)
        yield "BiasAddGrad", str(shape), lambda: grad.bias_add_grad(
            context("BiasAddGrad", dtype), dy)
        b = normal(shape[-1])
        yield "BiasAdd", str(shape), lambda: nn.bias_add(context("BiasAdd", dtype), dy, b)
        yield "Relu", str(shape), lambda: cpu_math.relu_kernel(context("Relu", dtype), dy)
        g = normal(*shape)
        yield "ReluGrad", str(shape), lambda: grad.relu_grad(context("ReluGrad", dtype), g, dy)
        yield "Sum(leading axes)", str(shape), lambda: reduce._sum(
            dy, tuple(range(dy.ndim - 1)), False, np)
    for xs, fs, stride, padding in [((4, 16, 16, 8), (3, 3, 8, 2), 1, b"SAME"),
                                    ((4, 15, 15, 16), (3, 3, 16, 1), 2, b"VALID"),
                                    ((8, 28, 28, 32), (5, 5, 32, 1), 1, b"SAME")]:
        x, f = normal(*xs), normal(*fs)
        attrs = dict(strides=[1, stride, stride, 1], padding=padding)
        op = "DepthwiseConv2dNative"
        with reference():
            y = nn_extra.depthwise_conv2d_native(context(op, dtype, **attrs), x, f)
        dy = normal(*y.shape)
        tag = f"{xs}x{fs} s{stride} {padding.decode()}"
        yield op, tag, lambda: nn_extra.depthwise_conv2d_native(context(op, dtype, **attrs), x, f)
        yield op + "BackpropInput", tag, lambda: nn_extra.depthwise_conv2d_native_backprop_input(
            context(op + "BackpropInput", dtype, **attrs), np.array(xs, np.int32), f, dy)
        yield op + "BackpropFilter", tag, \
            lambda: nn_extra.depthwise_conv2d_native_backprop_filter(
                context(op + "BackpropFilter", dtype, **attrs), x, np.array(fs, np.int32), dy)
    for shape in [(1024, 768), (256, 128, 32)]:
        a, b = normal(*shape), normal(*shape)
        row = normal(*shape[:-1], 1)
        yield "SquaredDifference", str(shape), lambda: cpu_math._compiled_squared_difference(
            a, b, None) if compiled.loaded("activation") else cpu_math._squared_difference_cpu(a, b)
        yield "SquaredDifference(row)", str(shape), lambda: cpu_math._squared_difference_cpu(a, row)
        yield "Softmax", str(shape), lambda: nn.softmax(context("Softmax", dtype), a * 4)
        yield "Sum(innermost)", str(shape), lambda: reduce._sum(a, (a.ndim - 1,), False, np)
    for shape in [(1000,), (784, 256), (3, 3, 32, 64)]:
        var, m, v, g = normal(*shape), normal(*shape), np.abs(normal(*shape)), normal(*shape)
        scalars = [dtype(s) for s in (0.9 ** 3, 0.999 ** 3, 1e-3, 0.9, 0.999, 1e-8)]

        def adam(var=var, m=m, v=v, g=g, scalars=scalars):
            copies = [var.copy(), m.copy(), v.copy()]
            if not training._adam_in_place({}, *copies, *scalars, g):
                copies = list(training._adam(np, {}, *copies, *scalars, g))
            return tuple(copies)
        yield "ApplyAdam", str(shape), adam
    if dtype == np.float32:
        x = normal(1 << 17) * 3
        for name, fn in [("Exp", eigen_float32.exp), ("Log", lambda v: eigen_float32.log(abs(v))),
                         ("Log1p", lambda v: eigen_float32.log1p(abs(v))),
                         ("Expm1", eigen_float32.expm1), ("Sigmoid", eigen_float32.sigmoid),
                         ("Softplus", eigen_float32.softplus), ("Tanh", eigen_float32.tanh),
                         ("Rsqrt", lambda v: eigen_float32.rsqrt(abs(v))),
                         ("Reciprocal", eigen_float32.reciprocal), ("Erf", eigen_erf.erf),
                         ("Erfc", eigen_erf.erfc), ("Sin", eigen_trig.sin), ("Cos", eigen_trig.cos),
                         ("Pow", lambda v: eigen_pow.pow_float32(abs(v), v)),
                         ("Atan2", lambda v: eigen_atan2.atan2_float32(v, v[::-1].copy()))]:
            yield name, "2^17", lambda fn=fn: fn(x)
    else:
        x = normal(1 << 17) * 3
        yield "Erf", "2^17", lambda: eigen_erf.erf(x)
        yield "Erfc", "2^17", lambda: eigen_erf.erfc(x)


def main():
    for name in compiled.names():
        if name not in ("fused", "loops", "philox"):
            assert compiled.module(name, wait=True) is not None, compiled.why_not(name)
    table = {}
    for budget in (1, 2):
        threads.configure(budget)
        for dtype in (np.float32, np.float64):
            for op, tag, run in cases(dtype):
                with np.errstate(all="ignore"):
                    fraction, worst = compare(run)
                key = (op, np.dtype(dtype).name)
                old = table.get(key, (0.0, 0, []))
                table[key] = (max(old[0], fraction), max(old[1], worst),
                              old[2] + ([f"{tag} t{budget}"] if fraction else []))
    threads.configure(0)
    print(f"{'op':34} {'dtype':8} {'verdict':10} {'differ':>8} {'max ulp':>10}")
    for (op, dtype), (fraction, worst, where) in table.items():
        verdict = "differs" if fraction else "identical"
        print(f"{op:34} {dtype:8} {verdict:10} {fraction:8.2%} {worst:10d}"
              + (f"  ({len(where)} cases)" if where else ""))


if __name__ == "__main__":
    main()
