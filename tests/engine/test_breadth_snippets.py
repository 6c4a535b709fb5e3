"""Issue 15's APIs (breadth_snippets.py) build the GraphDef and print what TensorFlow 2.21 did."""

import pytest

from tests.engine.breadth_snippets import OUTPUT_ONLY
from tests.engine.snippet_checks import (assert_graph_def_matches, assert_output_matches,
                                         graph_cases, load)

FIXTURES = load("breadth_snippets.json")

# A PyFunc's token names its Python function in a process-wide registry ("pyfunc_<n>"): the
# number depends on how many py_funcs the process made before, so it is left out.
_PROCESS_DEPENDENT_ATTRS = ("token",)


def _without_process_dependent_attrs(graph_def):
    for node in graph_def.node:
        for key in _PROCESS_DEPENDENT_ATTRS:
            if node.op in ("PyFunc", "PyFuncStateless") and key in node.attr:
                del node.attr[key]
    return graph_def


@pytest.mark.parametrize("name", graph_cases(FIXTURES, OUTPUT_ONLY))
def test_graph_def_matches_tensorflow(name):
    assert_graph_def_matches(FIXTURES[name], _without_process_dependent_attrs)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_output_matches_tensorflow(name):
    assert_output_matches(FIXTURES[name])
