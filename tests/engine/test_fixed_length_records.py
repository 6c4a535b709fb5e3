"""tf.data.FixedLengthRecordDataset against TensorFlow 2.21 (tf.compat.v1): records between
headers and footers, GZIP and ZLIB files, the body-length error, the graph and the argument
errors (tests/engine/fixed_length_record_cases.py; fixture by
tools/make_fixed_length_record_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine.fixed_length_record_cases import replay

FIXTURE = (Path(__file__).resolve().parent.parent / "fixtures" / "fixed_length_records" /
           "records.json")
TF = json.loads(FIXTURE.read_text())


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return replay(tf, str(tmp_path_factory.mktemp("records")))


@pytest.mark.parametrize("key", sorted(TF))
def test_matches_tensorflow(result, key):
    assert result[key] == TF[key]
