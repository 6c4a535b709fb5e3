"""Helpers shared by the GPU kernels: TensorFlow's host-memory arguments, device copies.

A TensorFlow GPU kernel takes its shape-like arguments (a Reshape's shape, a reduction's
axes, a Slice's begin and size, ...) in host memory (HostMemory in its registration). Here
such an argument may arrive as a device array (a GPU Const) or a host one (a feed, a _Recv):
`host()` reads either as NumPy, so the CPU kernels' validation helpers apply unchanged.
"""

import numpy as np

from engine.kernels.cuda.backend import is_device_array, to_device


def host(value):
    """A (small, shape-like) argument as a NumPy array, copied back from the device if needed."""
    if is_device_array(value):
        return value.get()
    return np.asarray(value)


def device(xp, value, dtype=None):
    """`value` (host or device) as a device array of `dtype` when given."""
    array = value if is_device_array(value) else to_device(xp, value)
    if dtype is not None and array.dtype != dtype:
        array = array.astype(dtype)
    return array


def with_host_inputs(kernel, positions):
    """`kernel` with the inputs at `positions` read in host memory (TF's HostMemory args)."""
    if not positions:
        return kernel

    def run(ctx, *inputs):
        return kernel(ctx, *[host(v) if i in positions else v for i, v in enumerate(inputs)])
    return run
