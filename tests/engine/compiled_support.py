"""What the tests of compiled (numba) kernels share: a module loaded now, or the test skipped
where numba is missing or turned off (GRAPH_INSPECTOR_COMPILED=0), saying why."""

import pytest


def module_or_skip(name):
    """The compiled module `name`, loaded and warm, else a skip naming the reason."""
    pytest.importorskip("numba")
    from engine.kernels import compiled
    module = compiled.module(name, wait=True)
    if module is None:
        pytest.skip(f"compiled kernels unavailable: {compiled.why_not(name)}")
    return module
