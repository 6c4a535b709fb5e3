"""tf.string_split, tf.strings.split, tf.substr, tf.as_string and tf.string_to_number against
TensorFlow 2.21: every value exactly (floats by their bits) and the kernels' error texts
(tests/fixtures/mathops/strings.json, tools/make_string_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
import string_cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
                      / "strings.json").read_text())


@pytest.mark.parametrize("name", sorted(string_cases.CASES))
def test_values_are_tensorflows(name):
    got = string_cases.run_case(tf, name)
    want = FIXTURE["values"][name]
    assert sorted(got) == sorted(want)
    for key in want:
        assert got[key] == want[key], key


# The regex ops compile with Python's re, not RE2: an invalid pattern's message is
# TensorFlow's up to RE2's own words for what is wrong.
RE2_WORDS = {"regex_replace_pattern"}


@pytest.mark.parametrize("name", sorted(string_cases.ERRORS))
def test_errors_are_tensorflows(name):
    got, want = string_cases.run_error(tf, name), FIXTURE["errors"][name]
    if name in RE2_WORDS:
        assert got[0] == want[0] and ", error: " in want[1]
        assert got[1].split(", error: ")[0] == want[1].split(", error: ")[0]
    else:
        assert got == want
