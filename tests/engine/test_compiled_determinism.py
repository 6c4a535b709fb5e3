"""A program's values do not depend on whether, or when, the compiled kernels loaded.

Kernels whose compiled form gives the NumPy reference's bits (tools/compiled_bits.py measures
every one) may switch from one to the other mid-run; the convolutions, whose compiled sums
run in another order (engine/kernels/cpu/compiled_forms.py, FIRST_CALL), take their compiled
form from the first call, whatever the cache, or the reference throughout."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.kernels import compiled
from engine.kernels.cpu import compiled_forms, nn, nn_extra
from tests.engine.compiled_support import module_or_skip
from tests.engine.test_compiled_spatial import context

REPO = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).with_name("compiled_determinism_program.py")


def _run_program(kind, mode, *flags):
    env = {**os.environ, "GRAPH_INSPECTOR_COMPILED": mode}
    env.pop("GRAPH_INSPECTOR_REWRITE", None)  # the optimizer on: fused chains where asked
    result = subprocess.run([sys.executable, str(PROGRAM), kind, *flags], capture_output=True,
                            text=True, timeout=300, cwd=REPO, env=env)
    assert result.returncode == 0, result.stderr
    *losses, loaded = result.stdout.split("\n")[:-1]
    assert len(losses) == 24 and loaded.startswith("loaded")
    return losses, set(loaded.split()[1:])


@pytest.fixture
def fresh(monkeypatch):
    """No compiled module loaded or loading, and the cache taken as cold (a module other than
    FIRST_CALL's would load on the background thread)."""
    module_or_skip("conv")
    module_or_skip("depthwise")
    monkeypatch.setattr(compiled, "_loaded", {})
    monkeypatch.setattr(compiled, "_loading", {})
    monkeypatch.setattr(compiled, "_warm", False)
    monkeypatch.setattr(compiled_forms, "_DEMAND", {})
    monkeypatch.setenv("GRAPH_INSPECTOR_COMPILED", "1")


def _reference(monkeypatch, kernel, *args):
    with monkeypatch.context() as patch:
        patch.setenv("GRAPH_INSPECTOR_COMPILED", "0")
        return kernel(*args)


def test_a_processs_first_convolution_takes_the_compiled_form(fresh, monkeypatch):
    from engine.kernels.compiled import conv_numba
    rng = np.random.RandomState(0)
    x = rng.standard_normal((2, 6, 6, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 8)).astype(np.float32)
    ctx = context("Conv2D", np.float32, strides=[1, 1, 1, 1], padding=b"VALID")
    want = _reference(monkeypatch, nn.conv2d, ctx, x, filters)
    assert compiled.loaded("conv") is None
    got = nn.conv2d(ctx, x, filters)  # a tiny convolution: no Demand would load for it
    assert compiled.loaded("conv") is conv_numba
    np.testing.assert_array_equal(got, conv_numba.conv2d(x, filters, (1, 1), (1, 1), (4, 4)))
    assert not np.array_equal(got, want)  # the two paths' bits differ here: why it matters


def test_a_processs_first_depthwise_convolution_takes_the_compiled_form(fresh, monkeypatch):
    rng = np.random.RandomState(1)
    x = rng.standard_normal((2, 8, 8, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 1)).astype(np.float32)  # the row-aligned loops
    ctx = context("DepthwiseConv2dNative", np.float32, strides=[1, 1, 1, 1], padding=b"SAME")
    want = _reference(monkeypatch, nn_extra.depthwise_conv2d_native, ctx, x, filters)
    assert compiled.loaded("depthwise") is None
    got = nn_extra.depthwise_conv2d_native(ctx, x, filters)
    fast = compiled.loaded("depthwise")
    assert fast is not None
    # the compiled loop's own bits (stride 1, the 8x8 output, one row and column of padding)
    np.testing.assert_array_equal(got, fast.depthwise_conv2d(x, filters, (1, 1), (8, 8), (1, 1)))
    np.testing.assert_array_equal(nn_extra.depthwise_conv2d_native(ctx, x, filters), got)
    # The reference's einsum goes through BLAS: its bits differ from the loop's on OpenBLAS's
    # Haswell kernels and happen to equal them on its SkylakeX ones (2026-11-29), so which
    # path served is told by the loop's bits above, not by a difference from the reference.
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_without_the_compiled_module_the_reference_serves_throughout(fresh, monkeypatch):
    monkeypatch.setitem(compiled._MODULES, "conv", "engine.kernels.compiled.no_such_module")
    rng = np.random.RandomState(2)
    x = rng.standard_normal((2, 6, 6, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 8)).astype(np.float32)
    ctx = context("Conv2D", np.float32, strides=[1, 1, 1, 1], padding=b"SAME")
    want = _reference(monkeypatch, nn.conv2d, ctx, x, filters)
    for _ in range(3):
        np.testing.assert_array_equal(nn.conv2d(ctx, x, filters), want)
    assert compiled.loaded("conv") is None and "ModuleNotFoundError" in compiled.why_not("conv")


def test_a_cnn_trains_to_the_same_losses_whenever_the_kernels_load():
    """Cold cache (the modules other than the convolutions load in the background, the first
    steps on NumPy's path) and GRAPH_INSPECTOR_COMPILED=sync: the same 24 losses, every bit.
    (Before 2026-11-28 the convolutions too waited for their 16th request: the losses
    differed from the second step on.)"""
    pytest.importorskip("numba")
    cold, cold_loaded = _run_program("cnn", "1", "cold")
    waited, waited_loaded = _run_program("cnn", "sync")
    assert {"conv", "depthwise"} <= cold_loaded and {"conv", "depthwise"} <= waited_loaded
    assert cold == waited


@pytest.mark.parametrize("flags, modules", [
    ((), {"pool", "bias", "activation", "training", "eigen"}),
    (("fused",), {"pool", "bias", "activation", "training", "fused"})])
def test_a_pooling_network_trains_to_the_same_losses_with_and_without_compiled_kernels(
        flags, modules):
    """No convolution: every compiled form the program takes (pooling, BiasAdd and its
    gradient, Relu, GELU's Erf or its fused chain, Adam) gives the reference's bits, so
    GRAPH_INSPECTOR_COMPILED=0 and the modules loading mid-run (=sync: most at their 16th
    request) train alike. (Before 2026-11-28 AvgPool's and BiasAddGrad's references summed
    in other orders: the losses differed from the second step on.)"""
    pytest.importorskip("numba")
    reference, none_loaded = _run_program("pool", "0", *flags)
    waited, loaded = _run_program("pool", "sync", *flags)
    assert not none_loaded and modules <= loaded
    assert reference == waited
