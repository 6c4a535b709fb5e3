"""FusedBatchNormV3 and FusedBatchNormGradV3 against TensorFlow 2.21's CPU kernels, bit for
bit (tests/fixtures/ops/batch_norm.npz, tools/make_batch_norm_fixtures.py; the cases are
tests/engine/batch_norm_cases.py's): the summation orders, Eigen's rsqrt and Bessel's
correction engine/kernels/cpu/batch_norm.py follows."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.ops.op_def_library import apply_op
from tests.engine import batch_norm_cases as cases
EXPECTED = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "batch_norm.npz")


def _run(name, tensors):
    with tf.Session() as session:
        return session.run(tensors)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_outputs_are_tensorflows_bits(name):
    with tf.Graph().as_default():
        tensors = cases.build(lambda op, **kw: apply_op(op, **kw), name, tf.constant)
        keys = cases.compared(name)
        if cases.grad_refused(name):
            keys = [key for key in keys if key in cases.OUTPUTS[:5]]
            tensors = tensors[:5]
        values = dict(zip(cases.OUTPUTS, _run(name, tensors)))
    for key in keys:
        expected = EXPECTED[f"{name}__{key}"]
        got = values[key]
        assert got.dtype == expected.dtype and got.shape == expected.shape, key
        differing = int(np.sum(got.view(np.uint8).reshape(got.size, -1)
                               != expected.view(np.uint8).reshape(expected.size, -1), axis=1
                               ).astype(bool).sum()) if got.size else 0
        assert got.tobytes() == expected.tobytes(), f"{key}: {differing} values differ"


def test_inference_gradient_in_nchw_is_refused_as_tensorflow_does():
    name = "inference_nchw_8"
    assert cases.grad_refused(name)
    with tf.Graph().as_default():
        tensors = cases.build(lambda op, **kw: apply_op(op, **kw), name, tf.constant)
        with pytest.raises(tf.errors.InvalidArgumentError) as raised:
            _run(name, tensors[5])
    assert str(EXPECTED[f"{name}__grad_error"]) in str(raised.value)
