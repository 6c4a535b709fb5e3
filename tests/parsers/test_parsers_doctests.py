"""The examples in the parsers' docstrings hold (pytest collects tests/ only)."""

import doctest
import importlib
import pkgutil

import pytest

import parsers

MODULES = ["parsers"] + [f"parsers.{m.name}" for m in pkgutil.iter_modules(parsers.__path__)] + ["inspector.cmd_info"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
