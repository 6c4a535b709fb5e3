"""Which array library the GPU kernels run on: CuPy on a CUDA GPU, or the simulated GPU.

`current()` is chosen once per process: the simulated GPU when the environment variable
GRAPH_INSPECTOR_SIMULATED_GPUS=N (N >= 1) is set, else CuPy when it imports and sees at least
one CUDA device, else None (no GPU device: requests for one soft-place to the CPU).

The simulated GPU (engine/kernels/cuda/simulated.py) is NumPy behind CuPy's API, holding
arrays in a type of its own that refuses NumPy's implicit conversions as CuPy does. It lets
anyone see how a graph is placed and cut across CPU and GPU on a machine without one, and
lets the GPU kernels and the host/device copies be tested everywhere. Its times are NumPy's.

Tests switch backends with `use(...)` / `simulated_gpus(n)`, which also forget the GPU kernels
already registered, so the next lookup registers them again for the new array module.
"""

import contextlib
import os
import threading

import numpy as np

from engine import kernels
from engine.kernels.cuda import simulated

SIMULATED_ENV = "GRAPH_INSPECTOR_SIMULATED_GPUS"

_UNSET = object()
_current = _UNSET
_lock = threading.Lock()


class Backend:
    """An array module for the GPU kernels: `xp` (cupy or the simulation), how many devices."""

    def __init__(self, name, xp, device_count):
        self.name = name
        self.xp = xp
        self.device_count = device_count

    @property
    def simulated(self):
        return self.name == "simulated"

    def __repr__(self):
        return f"<Backend {self.name} devices={self.device_count}>"


def _simulated_count():
    text = os.environ.get(SIMULATED_ENV, "").strip()
    if not text:
        return 0
    try:
        return max(0, int(text))
    except ValueError:
        raise ValueError(f"{SIMULATED_ENV}={text!r}: expected a number of GPUs") from None


def _cupy_backend():
    try:
        import cupy
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # noqa: BLE001  (no CuPy, no driver, no device: all mean no GPU)
        return None
    return Backend("cupy", cupy, count) if count > 0 else None


def _choose():
    count = _simulated_count()
    if count:
        return simulated_backend(count)
    return _cupy_backend()


def simulated_backend(device_count=1):
    return Backend("simulated", simulated.SimulatedCuPy(device_count), device_count)


def current():
    """The process's GPU backend, or None where there is no GPU (real or simulated)."""
    global _current
    if _current is _UNSET:
        with _lock:
            if _current is _UNSET:
                _current = _choose()
    return _current


def device_count():
    backend = current()
    return backend.device_count if backend is not None else 0


def device_description(index):
    """What TensorFlow's device mapping says of GPU `index`: name, PCI bus id, capability."""
    backend = current()
    if backend is None:
        return ""
    if backend.simulated:
        return "name: simulated GPU (NumPy)"
    props = backend.xp.cuda.runtime.getDeviceProperties(index)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    bus = f"{props['pciDomainID']:04x}:{props['pciBusID']:02x}:{props['pciDeviceID']:02x}.0"
    return (f"name: {name}, pci bus id: {bus}, "
            f"compute capability: {props['major']}.{props['minor']}")


def use(backend):
    """Make `backend` (a Backend, or None for no GPU) current; returns the previous one."""
    global _current
    with _lock:
        previous, _current = _current, backend
    kernels.forget("GPU")
    return None if previous is _UNSET else previous


@contextlib.contextmanager
def simulated_gpus(count=1):
    """Within the block, the process has `count` simulated GPUs."""
    previous = use(simulated_backend(count))
    try:
        yield current()
    finally:
        use(previous)


def is_device_array(value):
    """Whether `value` lives on a GPU (a CuPy array or a simulated one)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return False
    return hasattr(value, "__cuda_array_interface__") or isinstance(value, simulated.ndarray)


def to_host(value):
    """A GPU array copied to host memory (a NumPy array); anything else as it is."""
    if is_device_array(value):
        return value.get()
    return value


def to_device(xp, value):
    """`value` in device memory: a device array as it is, a host one copied (a fresh buffer,
    as cudaMemcpy gives: the sender may write its own later). A value the device cannot
    hold (strings, resource handles: NumPy object arrays) stays on the host, as TensorFlow
    keeps such tensors in host memory."""
    if is_device_array(value) or value is None:
        return value
    array = np.asarray(value)
    if array.dtype == object:
        return array
    if array.ndim == 0:  # CuPy fills a 0-d array from the scalar, and a zero fill is a
        # memset: -0.0 arrived as +0.0 (seen on an H200, CuPy 14). A 1-element copy keeps bits.
        return xp.array(array.reshape(1)).reshape(())
    return xp.array(array)


def placed(value, device):
    """`value` where a kernel on `device` (a full device name) reads it: copied to the GPU for
    a GPU device, to the host for any other (a value injected by the debugger, say)."""
    gpu = current() if "/device:GPU:" in (device or "") else None
    return to_host(value) if gpu is None else to_device(gpu.xp, value)
