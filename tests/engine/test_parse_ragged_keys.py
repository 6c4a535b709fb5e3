"""ParseExampleV2 with ragged keys (tf.io.RaggedFeature, as a serving signature parsing
tf.train.Examples asks): each key's values and row splits, a scalar input's values alone, and
TensorFlow's error for a feature of the wrong kind (tests/fixtures/tf2_models/expected.npz
`parse/<case>`, tools/make_tf2_model_fixtures.py's PARSE_CASES)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.framework import errors

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import PARSE_CASES, PARSE_RAGGED, load_records  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


def _parse(case):
    _, scalar, split_types = PARSE_CASES[case]
    records = load_records(EXPECTED, f"parse/{case}")
    with tf.Graph().as_default():
        outputs = tf.raw_ops.ParseExampleV2(
            serialized=records[0] if scalar else records, names=[], sparse_keys=[],
            dense_keys=["age"], ragged_keys=PARSE_RAGGED["ragged_keys"],
            dense_defaults=[np.int64(0)], num_sparse=0, sparse_types=[], dense_shapes=[[]],
            ragged_value_types=[getattr(tf, t) for t in PARSE_RAGGED["ragged_value_types"]],
            ragged_split_types=[getattr(tf, t) for t in split_types])
        flat = [t for group in outputs for t in (group if isinstance(group, list) else [group])]
        with tf.Session() as sess:
            return sess.run(flat)


@pytest.mark.parametrize("case", [c for c in PARSE_CASES
                                  if f"parse/{c}/0" in EXPECTED.files])
def test_ragged_keys_like_tensorflow(case):
    got = _parse(case)
    wants = [EXPECTED[f"parse/{case}/{i}"] for i in range(len(got))]
    for value, want in zip(got, wants):
        value = np.asarray(value)
        if want.dtype.kind == "S":
            assert value.dtype == object
            value = value.astype(bytes)
        assert (value.dtype, value.shape) == (want.dtype, want.shape)
        np.testing.assert_array_equal(value, want)


@pytest.mark.parametrize("case", [c for c in PARSE_CASES
                                  if f"parse/{c}/error" in EXPECTED.files])
def test_errors_like_tensorflow(case):
    with pytest.raises(errors.InvalidArgumentError) as raised:
        _parse(case)
    assert str(EXPECTED[f"parse/{case}/error"]) in raised.value.message
