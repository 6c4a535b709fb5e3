"""TF1-era snippets (tf1_snippets.py) build the GraphDef and print what TensorFlow 2.21 did."""

import json
from pathlib import Path

import pytest
from google.protobuf import text_format

from engine.proto import graph_pb2
from tests.engine.test_api_snippets import diff_nodes, run_snippet
from tests.engine.tf1_snippets import OUTPUT_ONLY

FIXTURES = json.loads((Path(__file__).parent.parent / "fixtures" / "engine_api" /
                       "tf1_snippets.json").read_text())


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.skip(reason=OUTPUT_ONLY[name]))
    if name in OUTPUT_ONLY else name for name in sorted(FIXTURES)])
def test_graph_def_matches_tensorflow(name):
    fixture = FIXTURES[name]
    want = graph_pb2.GraphDef()
    text_format.Parse(fixture["graph_def"], want)
    _, got = run_snippet(fixture["code"])
    assert diff_nodes(want, got) == []
    assert [n.name for n in got.node] == [n.name for n in want.node]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_output_matches_tensorflow(name):
    fixture = FIXTURES[name]
    stdout, _ = run_snippet(fixture["code"])
    assert stdout.splitlines() == fixture["stdout"].splitlines()
