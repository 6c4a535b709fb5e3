"""GPU kernels: seeded random ops (RandomUniform, RandomStandardNormal, TruncatedNormal,
RandomUniformInt).

cpu_random's kernels with xp=cupy: the node's generator (ctx.rng()) hands out the counters
exactly as on the CPU, and the Philox rounds and samplers run on the device, so for the same
seeds a GPU gives the CPU's values, as TensorFlow's GPU Philox does. The shape and the
bounds are read in host memory (common.host), as TensorFlow's GPU kernels take them.
"""

import functools

from engine.kernels import register_table
from engine.kernels.cpu import random as cpu_random
from engine.kernels.cuda.common import with_host_inputs


def register_all(xp):
    register_table({
        op: with_host_inputs(functools.partial(kernel, xp=xp), cpu_random.HOST_INPUTS[op])
        for op, kernel in cpu_random.KERNELS.items()}, "GPU")
