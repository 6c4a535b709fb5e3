"""GPU kernels: the optimizers' Apply* and ResourceApply* ops.

The CPU kernels' own code (cpu/training.py) with the array module swapped: the updates run on
the device arrays that the variables' Ref / resource buffers hold, the hyperparameters become
0-d device arrays of the variable's dtype, and a ref form writes in place with `copyto`.
"""

from engine.kernels import register_table
from engine.kernels.cpu.training import UPDATES, ref_kernel, resource_kernel
from engine.kernels.cuda.common import device


def register_all(xp):
    def operands(values, dtype):
        return [device(xp, value, dtype) for value in values]

    def store(ref, new):
        xp.copyto(ref.value, new, casting="unsafe")

    table = {}
    for name, (update, count, grad_index) in UPDATES.items():
        table[f"Apply{name}"] = ref_kernel(update, count, grad_index, xp, operands, store)
        table[f"ResourceApply{name}"] = resource_kernel(update, count, grad_index, xp, operands)
    register_table(table, "GPU")
