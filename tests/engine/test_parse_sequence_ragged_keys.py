"""ParseSequenceExampleV2 with ragged keys (tf.io.parse_sequence_example with RaggedFeatures):
a context key's values and row splits, each feature list's values with inner (step) and outer
(example) splits, as TensorFlow gives them (tests/fixtures/tf2_models/expected.npz
`parse_sequence/<case>`, tools/make_tf2_model_fixtures.py's SEQUENCE_CASES)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import SEQUENCE_CASES, load_records  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")
# For one SequenceExample (a scalar input) TensorFlow returns the feature lists' outer splits
# as a scalar it never writes (uninitialized memory): those outputs are not compared.
OUTER_SPLITS = (4, 5)


@pytest.mark.parametrize("case", SEQUENCE_CASES)
def test_ragged_keys_like_tensorflow(case):
    _, scalar = SEQUENCE_CASES[case]
    records = load_records(EXPECTED, f"parse_sequence/{case}")
    with tf.Graph().as_default():
        outputs = tf.raw_ops.ParseSequenceExampleV2(
            serialized=records[0] if scalar else records, debug_name=[],
            context_sparse_keys=[], context_dense_keys=[], context_ragged_keys=["user"],
            feature_list_sparse_keys=[], feature_list_dense_keys=[],
            feature_list_ragged_keys=["clicks", "terms"],
            feature_list_dense_missing_assumed_empty=[], context_dense_defaults=[],
            context_sparse_types=[], context_ragged_value_types=[tf.string],
            context_ragged_split_types=[tf.int64], feature_list_dense_types=[],
            feature_list_sparse_types=[], feature_list_ragged_value_types=[tf.int64, tf.string],
            feature_list_ragged_split_types=[tf.int32, tf.int64])
        flat = [t for group in outputs for t in (group if isinstance(group, list) else [group])]
        with tf.Session() as sess:
            got = sess.run(flat)
    assert len(got) == 8
    for index, value in enumerate(got):
        want = EXPECTED[f"parse_sequence/{case}/{index}"]
        value = np.asarray(value)
        if want.dtype.kind == "S":
            assert value.dtype == object
            value = value.astype(bytes)
        assert (value.dtype, value.shape) == (want.dtype, want.shape), index
        if not (scalar and index in OUTER_SPLITS):
            np.testing.assert_array_equal(value, want, err_msg=str(index))
