"""tf.io.matching_files / tf.matching_files (MatchingFiles: TensorFlow's glob, every
pattern's matches sorted together) and tf.train.match_filenames_once against TensorFlow 2.21
(tf.compat.v1): matches, static shapes, errors and the graph node for node
(tests/engine/matching_files_cases.py; fixtures by tools/make_matching_files_fixtures.py)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import matching_files_cases as cases  # noqa: E402

TF = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "matching_files"
                 / "cases.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_results_equal_tensorflows(name):
    assert json.loads(json.dumps(cases.CASES[name](tf))) == TF[name]
