"""The linear-algebra snippets (linalg_snippets.py) build the GraphDef and print what
TensorFlow 2.21 did."""

import pytest

from tests.engine.linalg_snippets import OUTPUT_ONLY
from tests.engine.snippet_checks import (assert_graph_def_matches, assert_output_matches,
                                         graph_cases, load)

FIXTURES = load("linalg_snippets.json")


@pytest.mark.parametrize("name", graph_cases(FIXTURES, OUTPUT_ONLY))
def test_graph_def_matches_tensorflow(name):
    assert_graph_def_matches(FIXTURES[name])


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_output_matches_tensorflow(name):
    assert_output_matches(FIXTURES[name])
