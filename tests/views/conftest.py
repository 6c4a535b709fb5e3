"""Shared by the view tests: tests marked needs_dot skip, saying why, where dot is missing."""

import shutil

import pytest

DOT_MISSING = "Graphviz's dot binary is not on PATH (`make setup` installs it)"


@pytest.fixture(autouse=True)
def _skip_without_dot(request):
    if request.node.get_closest_marker("needs_dot") and shutil.which("dot") is None:
        pytest.skip(DOT_MISSING)
