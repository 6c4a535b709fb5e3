"""Registers the GPU kernels for the current backend's array module (engine.kernels calls
`load_kernels` the first time a GPU kernel is looked up, and again after a backend switch)."""

import importlib

from engine import kernels
from engine.kernels.cuda import backend

# Each module has register_all(xp): its kernels, closures over the array module xp.
KERNEL_MODULES = tuple(f"engine.kernels.cuda.{name}" for name in (
    "state", "transfers", "math", "reduce", "random", "array", "nn", "training", "fused",
    "list_ops"))


def load_kernels():
    current = backend.current()
    if current is None:  # no GPU: no GPU kernels, every GPU request soft-places to the CPU
        return
    for name in KERNEL_MODULES:
        importlib.import_module(name).register_all(current.xp)


def kernel_table():
    """Op type -> GPU kernel as the CUDA modules provide them, on any machine (built over the
    simulated backend's array module; nothing is registered)."""
    with kernels.collecting() as table:
        xp = backend.simulated_backend(1).xp
        for name in KERNEL_MODULES:
            importlib.import_module(name).register_all(xp)
    return table
