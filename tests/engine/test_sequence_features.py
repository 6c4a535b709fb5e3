"""tf.io.FixedLenSequenceFeature in tf.parse_example and tf.parse_single_example against
TensorFlow 2.21 (tf.compat.v1): padded values, static shapes, the ParseExampleV2 node, the
kernel's stride and type errors and the Python errors with TensorFlow's texts
(tests/engine/sequence_feature_cases.py; fixture by tools/make_sequence_feature_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine import sequence_example_cases
from tests.engine.sequence_feature_cases import replay

FIXTURE = (Path(__file__).resolve().parent.parent / "fixtures" / "sequence_features" /
           "fixed_len_sequence.json")
TF = json.loads(FIXTURE.read_text())
RESULT = replay(tf)


@pytest.mark.parametrize("key", sorted(TF))
def test_matches_tensorflow(key):
    assert RESULT[key] == TF[key]


SEQUENCE_TF = json.loads((FIXTURE.parent / "sequence_example.json").read_text())
SEQUENCE_RESULT = sequence_example_cases.replay(tf)


@pytest.mark.parametrize("key", sorted(SEQUENCE_TF))
def test_sequence_examples_match_tensorflow(key):
    assert SEQUENCE_RESULT[key] == SEQUENCE_TF[key]
