"""The examples in engine.checkpoint's docstrings hold (the format's small facts, shown by example)."""

import doctest
import importlib

import pytest

MODULES = ["engine.checkpoint.table", "engine.checkpoint.slice_key", "engine.checkpoint.tensor_bytes",
           "inspector.info_checkpoint", "views.checkpoint_compare"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
