"""RaggedCross (tf.ragged.cross, tf.ragged.cross_hashed): each row's crosses of ragged, sparse
and dense features in input_order, joined or hashed, as TensorFlow gives them
(tests/fixtures/tf2_models/expected.npz `ragged_cross/<case>`, tools/make_tf2_model_fixtures.py's
RAGGED_CROSS_CASES)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import RAGGED_CROSS_CASES  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


@pytest.mark.parametrize("case", RAGGED_CROSS_CASES)
def test_crossed_like_tensorflow(case):
    arguments = {k: (getattr(tf, v) if k.startswith("out_") else v)
                 for k, v in RAGGED_CROSS_CASES[case].items()}
    with tf.Graph().as_default():
        values, splits = tf.raw_ops.RaggedCross(**arguments)
        with tf.Session() as sess:
            values, splits = sess.run([values, splits])
    want_values = EXPECTED[f"ragged_cross/{case}/values"]
    want_splits = EXPECTED[f"ragged_cross/{case}/splits"]
    if want_values.dtype.kind == "S":  # the engine's strings are bytes in object arrays
        assert values.dtype == object
        values = values.astype(bytes)
    assert (values.dtype, splits.dtype) == (want_values.dtype, want_splits.dtype)
    np.testing.assert_array_equal(values, want_values)
    np.testing.assert_array_equal(splits, want_splits)
