"""GPU kernels of the TensorList ops: the CPU's (engine/kernels/cpu/list_ops.py) over the
device's array module. A list is a host value, as TensorFlow keeps a variant in host memory;
its elements live on the device; shapes, indices and sizes are read in host memory
(TensorFlow's HostMemory arguments, memory_types.HOST_MEMORY_INPUTS)."""

from engine.kernels import register_table
from engine.kernels.cpu.list_ops import list_kernels
from engine.kernels.cuda.common import host


def register_all(xp):
    register_table(list_kernels(xp, host), "GPU")
