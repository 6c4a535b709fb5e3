"""Each TF1 snippet (api_snippets.py) builds the GraphDef and prints what TensorFlow 2.21 did."""

import pytest

from tests.engine.snippet_checks import assert_graph_def_matches, assert_output_matches, load

FIXTURES = load("snippets.json")


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_graph_def_matches_tensorflow(name):
    assert_graph_def_matches(FIXTURES[name])


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_output_matches_tensorflow(name):
    assert_output_matches(FIXTURES[name])
