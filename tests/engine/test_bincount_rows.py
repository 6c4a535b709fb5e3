"""DenseBincount of a matrix counts each row ([rows, size]) and RaggedBincount each ragged row,
as TensorFlow does (tests/fixtures/tf2_models/expected.npz `bincount/<case>`,
tools/make_tf2_model_fixtures.py's BINCOUNT_CASES): Keras 3's lookup layers' count, multi_hot
and tf_idf modes and TextVectorization's n-gram counts run them."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import BINCOUNT_CASES  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


@pytest.mark.parametrize("case", BINCOUNT_CASES)
def test_rows_counted_like_tensorflow(case):
    op, inputs, binary = BINCOUNT_CASES[case]
    want = EXPECTED[f"bincount/{case}"]
    with tf.Graph().as_default():
        counts = getattr(tf.raw_ops, op)(**inputs, binary_output=binary)
        assert counts.shape.as_list() == list(want.shape)
        with tf.Session() as sess:
            got = sess.run(counts)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
