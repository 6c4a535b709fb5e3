"""RaggedRange (tf.ragged.range), RaggedGather (tf.gather of a RaggedTensor) and
RaggedTensorToSparse (RaggedTensor.to_sparse), the ops a TF2 signature holding RaggedTensors
runs: outputs and gradients as TensorFlow's (tests/fixtures/tf2_models/expected.npz
`ragged_ops/<case>`, tools/make_tf2_model_fixtures.py's RAGGED_OP_CASES)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import RAGGED_OP_CASES, ragged_weights  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


def _flatten(outputs):
    """A raw op's outputs in order, a list output's tensors in place."""
    if not isinstance(outputs, (list, tuple)):
        return [outputs]
    return [t for o in outputs for t in (_flatten(o) if isinstance(o, (list, tuple)) else [o])]


@pytest.mark.parametrize("case", RAGGED_OP_CASES)
def test_outputs_and_gradients_like_tensorflow(case):
    op, inputs, attrs = RAGGED_OP_CASES[case]
    attrs = {k: (getattr(tf, v) if k == "Tsplits" else v) for k, v in attrs.items()
             if k != "grad"}
    wants = [EXPECTED[f"ragged_ops/{case}/{i}"] for i in range(4)
             if f"ragged_ops/{case}/{i}" in EXPECTED.files]
    with tf.Graph().as_default():
        tensors = {k: ([tf.constant(a) for a in v] if isinstance(v, list) else tf.constant(v))
                   for k, v in inputs.items()}
        outputs = getattr(tf.raw_ops, op)(**tensors, **attrs)
        flat = _flatten(outputs)
        fetches = {"outputs": flat}
        if RAGGED_OP_CASES[case][2].get("grad"):
            values = flat[1] if op == "RaggedTensorToSparse" else flat[-1]
            watched = tensors.get("params_dense_values", tensors.get("rt_dense_values"))
            loss = tf.reduce_sum(tf.cast(values, tf.float64) * ragged_weights(
                wants[1 if op == "RaggedTensorToSparse" else -1].shape, np.float64))
            fetches["grad"] = tf.convert_to_tensor(tf.gradients(loss, watched)[0])
        for tensor, want in zip(flat, wants):
            shape = tensor.shape
            assert shape.ndims is None or shape.ndims == want.ndim
            assert all(d is None or d == w for d, w in zip(shape.as_list() or [], want.shape))
        with tf.Session() as sess:
            got = sess.run(fetches)
    assert len(got["outputs"]) == len(wants)
    for value, want in zip(got["outputs"], wants):
        assert value.dtype == want.dtype
        np.testing.assert_array_equal(value, want)
    if "grad" in got:
        np.testing.assert_array_equal(got["grad"], EXPECTED[f"ragged_ops/{case}/grad"])
