"""tf.data.AUTOTUNE, INFINITE_CARDINALITY and UNKNOWN_CARDINALITY against TensorFlow 2.21
(tests/engine/data_constants_cases.py; fixture by tools/make_data_constants_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine.data_constants_cases import replay

FIXTURE = (Path(__file__).resolve().parent.parent / "fixtures" / "data_constants" /
           "constants.json")
TF = json.loads(FIXTURE.read_text())
RESULT = replay(tf)


@pytest.mark.parametrize("key", sorted(TF))
def test_matches_tensorflow(key):
    assert RESULT[key] == TF[key]
