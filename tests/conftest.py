"""Suite-wide: the tests run as on a machine without a GPU, unless marked `cuda`.

Most tests compare the engine with fixtures TensorFlow wrote on the CPU, and a program that
asks for /gpu:0 soft-places to the CPU there; on a machine with a CUDA GPU the same program
would run on it and be compared with CPU numbers. So where CuPy sees a GPU, every test not
marked `cuda` runs with no GPU backend (the `cuda` tests, tests/engine/cuda_twin.py, ask for
CuPy themselves), and the programs the tests start as subprocesses see no GPU either
(tests/gpu_env.py sets CUDA_VISIBLE_DEVICES empty once CUDA is initialised here, keeping
the first value for the `cuda` tests that start programs on the GPU). tools/gpu_checks.sh runs
the `cuda` tests on a lent GPU machine.
"""

import pytest

from engine.kernels.cuda import backend
from tests import gpu_env

# Programs the tests run as subprocesses, not test modules: --doctest-modules would import
# (so run) each of them while collecting, in the test process and on its backend.
collect_ignore_glob = ["programs/*.py", "inspector/scripts/*.py", "gpu_env.py"]
# Helpers that assert for several test modules: their failures explained as a test's are.
pytest.register_assert_rewrite("tests.engine.snippet_checks")

_REAL_GPU = gpu_env.REAL_GPU


def pytest_configure(config):
    controller = getattr(config, "workerinput", None) is None and (
        config.pluginmanager.hasplugin("xdist") and config.getoption("numprocesses", None))
    if not controller:
        gpu_env.hide_from_children()


@pytest.fixture
def optimizer_on(monkeypatch):
    """The graph optimizer on, even in a GRAPH_INSPECTOR_REWRITE=off run of the suite (it
    runs both ways): for tests about the passes, or that compare with TensorFlow's optimized
    graphs. A module asks with `pytestmark = pytest.mark.usefixtures("optimizer_on")`."""
    monkeypatch.delenv("GRAPH_INSPECTOR_REWRITE", raising=False)


@pytest.fixture(autouse=True)
def _no_gpu_unless_marked_cuda(request):
    if _REAL_GPU is None or request.node.get_closest_marker("cuda") is not None:
        yield
        return
    previous = backend.use(None)
    try:
        yield
    finally:
        backend.use(previous)
