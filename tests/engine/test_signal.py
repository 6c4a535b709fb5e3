"""tf.fft & co., tf.spectral, tf.signal and tf.audio against TensorFlow 2.21
(tests/fixtures/signal/, tools/make_signal_fixtures.py, graphs in signal_cases.py): values
and tf.gradients, static shapes, the nodes each API function builds, and error texts.

Tolerances, of the array's largest magnitude: 5e-7 for float32 and complex64, 2e-15 for
float64 and complex128. TensorFlow's CPU kernels run DUCC's FFT and the engine NumPy's
pocketfft, the same family of algorithms in another order of operations: measured, float32
values and gradients through an FFT within 3.1e-7 of the largest (mdct's inverse; most
within 1.5e-7), complex128 bit for bit, float64 within 2e-16 (9.5e-16 for the float64 mel
matrix, whose log and exp are NumPy's where TensorFlow's are Eigen's). The float32 windows
and mel matrix come out bit for bit; integers, frames, fftshift, the WAV bytes and decoded
samples are compared exactly."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import signal_cases as cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "signal"
EXPECTED = np.load(FIXTURES / "values.npz")
RTOL = {np.dtype(np.float32): 5e-7, np.dtype(np.complex64): 5e-7,
        np.dtype(np.float64): 2e-15, np.dtype(np.complex128): 2e-15}
EXACT_CASES = {"frames", "wav_decode", "wav_decode_desired", "wav_decode_fewer", "wav_encode",
               "shifts"}


def _expected(name):
    prefix = name + "--"
    return {k[len(prefix):].replace("__", ":"): EXPECTED[k] for k in EXPECTED.files
            if k.startswith(prefix)}


def assert_close(got, want, what, exact=False):
    assert got.dtype == want.dtype and got.shape == want.shape, \
        f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
    if exact or want.dtype not in RTOL or want.size == 0:
        np.testing.assert_array_equal(got, want, err_msg=what, strict=True)
        return
    scale = float(np.max(np.abs(want)))
    np.testing.assert_allclose(got, want, rtol=0, atol=RTOL[want.dtype] * max(scale, 1e-30),
                               err_msg=what)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_values_and_gradients_are_tensorflows(name):
    got = cases.run_case(tf, name)
    want = _expected(name)
    assert sorted(got) == sorted(want)
    for key in want:
        assert_close(got[key], want[key], f"{name} {key}", exact=name in EXACT_CASES)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_are_tensorflows(name):
    want = json.loads((FIXTURES / "errors.json").read_text())[name]
    assert cases.run_error(tf, name) == want


def test_static_shapes_are_tensorflows():
    want = json.loads((FIXTURES / "shapes.json").read_text())
    assert cases.static_shapes(tf) == want


@pytest.mark.parametrize("name", sorted(cases.NODE_CASES))
def test_graph_nodes_are_tensorflows(name):
    want = json.loads(gzip.decompress((FIXTURES / "nodes.json.gz").read_bytes()))[name]
    assert cases.graph_nodes(tf, name) == want


def test_the_api_names_are_bound():
    for name in ("fft", "ifft", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d",
                 "fft2d", "ifft2d", "fft3d", "ifft3d", "dct", "idct"):
        assert getattr(tf.signal, name) is getattr(tf.spectral, name)
    assert tf.fft is tf.signal.fft and tf.ifft3d is tf.spectral.ifft3d


def test_signatures_are_tensorflows():
    want = json.loads((FIXTURES / "signatures.json").read_text())
    assert cases.signatures(tf) == want
