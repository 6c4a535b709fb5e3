"""GPU kernels: reductions, ArgMax/ArgMin, Cumsum/Cumprod, L2Loss.

The kernels are cpu_reduce's, given `xp=cupy`; their axis arguments are read in host memory
(`common.host`), as TensorFlow's GPU kernels take them (HostMemory("reduction_indices"), ...).
"""

import functools

from engine.kernels import register_table
from engine.kernels.cpu import reduce as cpu_reduce
from engine.kernels.cuda.common import with_host_inputs


def register_all(xp):
    register_table({
        op: with_host_inputs(functools.partial(kernel, xp=xp), cpu_reduce.HOST_INPUTS.get(op, ()))
        for op, kernel in cpu_reduce.KERNELS.items()}, "GPU")
