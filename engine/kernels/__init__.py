"""Kernels per device: registered by op type and device type, looked up with a CPU fallback.

A kernel is `fn(ctx, *inputs) -> output`, where inputs are NumPy arrays (CuPy arrays on a
GPU; `Ref` objects for an OpDef input arg with is_ref; ResourceHandle values for DT_RESOURCE)
and the result is one array for a one-output op, a tuple or list for several, None for none.
The CPU's are registered by `engine.kernels.cpu.load_kernels()` (NumPy: each module of
engine/kernels/cpu/ registers its table at import); the GPU's by
`engine.kernels.cuda.registry.load_kernels()` for the array module of the process's GPU backend (CuPy, or the simulated GPU: engine/kernels/cuda/backend.py), and none
where there is no GPU. An op with no kernel for a device is placed on the CPU, as
TensorFlow's soft placement does (the placer asks `has_kernel`).
"""

import contextlib
import importlib
import threading
from typing import Callable

Kernel = Callable[..., object]

_KERNELS: dict[str, dict[str, Kernel]] = {}
_DEVICE_MODULES = {
    "CPU": ("engine.kernels.cpu",),
    "GPU": ("engine.kernels.cuda.registry",),
}
_loaded: set[str] = set()
_collecting = threading.local()
_load_lock = threading.RLock()


def register(op_type: str, device_type: str = "CPU"):
    """Decorator: register `fn` as the kernel of `op_type` on `device_type`."""
    def decorate(fn: Kernel) -> Kernel:
        _KERNELS.setdefault(device_type, {})[op_type] = fn
        return fn
    return decorate


def register_table(table: dict[str, Kernel], device_type: str = "CPU") -> None:
    """Register many kernels at once: `{"AddV2": add, "Mul": multiply, ...}`."""
    sink = getattr(_collecting, "table", None)
    if sink is not None:
        sink.update(table)
        return
    _KERNELS.setdefault(device_type, {}).update(table)


@contextlib.contextmanager
def collecting():
    """Within the block, this thread's register_table calls fill the yielded dict instead of
    the registry: what a device's modules would register, registering nothing."""
    _collecting.table = table = {}
    try:
        yield table
    finally:
        _collecting.table = None


def _load(device_type: str) -> None:
    if device_type in _loaded:
        return
    with _load_lock:  # partitions' executors may look kernels up from several threads at once
        if device_type in _loaded:
            return
        for name in _DEVICE_MODULES.get(device_type, ()):
            module = importlib.import_module(name)
            load_kernels = getattr(module, "load_kernels", None)
            if load_kernels is not None:  # registers for the current backend (GPU)
                load_kernels()
        _loaded.add(device_type)


def forget(device_type: str) -> None:
    """Drop `device_type`'s kernels; the next lookup registers them again (a GPU backend
    switched by engine.kernels.cuda.backend.use)."""
    with _load_lock:
        _loaded.discard(device_type)
        _KERNELS.pop(device_type, None)


def lookup(op_type: str, device_type: str = "CPU") -> Kernel | None:
    _load(device_type)
    return _KERNELS.get(device_type, {}).get(op_type)


def has_kernel(op_type: str, device_type: str = "CPU") -> bool:
    return lookup(op_type, device_type) is not None


def registered_ops(device_type: str = "CPU") -> list[str]:
    _load(device_type)
    return sorted(_KERNELS.get(device_type, {}))
