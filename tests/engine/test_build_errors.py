"""Graphs TensorFlow refuses while they are built, refused in its words and class
(tests/fixtures/build_errors/cases.json, tools/make_build_error_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine import build_error_cases as cases

EXPECTED = json.loads((Path(__file__).parent.parent / "fixtures" / "build_errors" /
                       "cases.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_built_or_refused_as_tensorflow(name):
    assert cases.build(tf, cases.CASES[name]) == EXPECTED[name]
