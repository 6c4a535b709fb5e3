"""The suite's view of the machine's GPU (tests/conftest.py hides it from tests not marked
`cuda`): whether CuPy sees a real one, and the environment for a subprocess that may use it.

One module, imported by name (`tests.gpu_env`) from the conftest and the tests alike, so the
CUDA_VISIBLE_DEVICES it saves before hiding the GPU is read once, before it is changed.
"""

import os

from engine.kernels.cuda import backend

REAL_GPU = None if os.environ.get(backend.SIMULATED_ENV) else backend._cupy_backend()
VISIBLE_DEVICES = os.environ.get("CUDA_VISIBLE_DEVICES")  # None: unset


def hide_from_children():
    """The programs tests start see no GPU (CUDA here is initialised already, so this process
    keeps it). Not in pytest-xdist's controller: its workers are children that run tests."""
    if REAL_GPU is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = ""


def real_gpu_env(env):
    """`env` for a subprocess that may use the machine's real GPU (the `cuda` tests)."""
    env = dict(env)
    env.pop(backend.SIMULATED_ENV, None)
    if VISIBLE_DEVICES is None:
        env.pop("CUDA_VISIBLE_DEVICES", None)
    else:
        env["CUDA_VISIBLE_DEVICES"] = VISIBLE_DEVICES
    return env
