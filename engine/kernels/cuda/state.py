"""GPU kernels: constants, identities, placeholders, variables (ref and resource), control flow.

What these ops compute does not depend on the device, so most kernels are the CPU's, bound
to the GPU's array module: a Const's value is copied to the device once (the executor
computes a plan's constants when it binds it); a variable's buffer is a device array, and
assigning a host value (a feed arriving through _Recv, a CPU result) copies it to the
device. Identity, the control-flow ops and the handle ops only move values or handles, so
their CPU kernels serve as they are (TensorFlow keeps a resource handle and Merge's
value_index in host memory on a GPU as well).
"""

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu.array import identity, identity_n, placeholder
from engine.kernels.cpu.control_flow import CONTROL_FLOW_KERNELS
from engine.kernels.cpu.state import (Arrays, destroy_resource_op, ref_variable_kernels,
                                      resource_variable_kernels, var_handle_op)
from engine.kernels.cuda.backend import to_device
from engine.kernels.cuda.common import device


def device_arrays(xp):
    """Variable buffers in `xp`'s device memory."""
    def owned(value):  # a fresh buffer: xp.array copies a device array and a host one alike
        return xp.array(value) if _holdable(value) else np.array(value, copy=True)

    def on_device(value):
        return device(xp, value) if _holdable(value) else value
    return Arrays(xp, owned, on_device, xp.asarray)


def _holdable(value):
    """Whether the device can hold `value` (not strings or other objects)."""
    dtype = getattr(value, "dtype", None)
    return (dtype if dtype is not None else np.asarray(value).dtype) != object


def register_all(xp):
    arrays = device_arrays(xp)

    def const(ctx):
        return to_device(xp, ctx.attrs["value"])

    table = {op: identity for op in ("Identity", "Snapshot", "StopGradient",
                                     "PreventGradient", "PlaceholderWithDefault")}
    table.update({
        "Const": const,
        "IdentityN": identity_n,
        "NoOp": lambda ctx: None,
        "Placeholder": placeholder, "PlaceholderV2": placeholder,
        "VarHandleOp": var_handle_op, "DestroyResourceOp": destroy_resource_op,
    })
    table.update(CONTROL_FLOW_KERNELS)
    table.update(ref_variable_kernels(arrays))
    table.update(resource_variable_kernels(arrays))
    register_table(table, "GPU")
