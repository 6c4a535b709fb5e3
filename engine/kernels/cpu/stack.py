"""NumPy CPU kernels of the stack ops a while loop's gradient uses: StackV2, StackPushV2,
StackPopV2, StackCloseV2.

A stack lives in the session's resources, found by its handle (a ResourceHandle named as
TensorFlow names stacks: "<stack_name>_<counter>"). The forward loop pushes one value per
iteration and the gradient loop pops them in reverse order; the control edges TensorFlow's
gradient code adds (push before the loop counter's NextIteration, pop after the backprop
counter's Sub) keep the pushes and pops in iteration order on every executor path. TensorFlow
keeps a stack in the step's container; here one is dropped when a later step creates a
stack and it is empty (a gradient run pops all it pushed), or when it is closed.
"""

import itertools

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import (datatype_string, int_scalar, invalid, open_resource,
                                   resource_handle)
from engine.runtime.resources import ResourceHandle

_COUNTER = itertools.count()


class _Stack:
    __slots__ = ("name", "elem_type", "max_size", "items", "closed", "step_id")

    def __init__(self, name, elem_type, max_size, step_id):
        self.name, self.elem_type, self.max_size = name, elem_type, max_size
        self.items, self.closed, self.step_id = [], False, step_id

    def label(self):
        return f"Stack[{self.name}]"


def _lookup(ctx, handle):
    return open_resource(ctx, "stacks", handle)


@register("StackV2")
def stack_v2(ctx, max_size):
    stacks = ctx.resources.table("stacks")
    for key in [k for k, s in stacks.items() if s.step_id != ctx.step_id and not s.items]:
        del stacks[key]
    name = ctx.attrs.get("stack_name") or b""
    name = (name.decode() if isinstance(name, bytes) else name) + f"_{next(_COUNTER)}"
    elem_type = dtypes.as_dtype(ctx.attrs["elem_type"])
    stacks[name] = _Stack(name, elem_type, int_scalar(ctx, max_size, "max_size"), ctx.step_id)
    # shape (): no element shape is known, and step stats describe the handle as a scalar.
    return ResourceHandle("", name, ctx.device, elem_type, ())


@register("StackPushV2")
def stack_push_v2(ctx, handle, elem):
    stack = _lookup(ctx, handle)
    if isinstance(elem, np.ndarray) and elem.dtype == object and elem.size == 1:
        elem = elem.item()
    # A resource (the handle of a TensorArray read in an inner loop, which the gradient of
    # nested loops keeps per iteration) is a ResourceHandle, not an array.
    if isinstance(elem, ResourceHandle):
        elem_type = dtypes.resource
    else:
        elem = np.asarray(elem)
        elem_type = dtypes.as_dtype(elem.dtype)
    if elem_type != stack.elem_type:
        raise invalid(ctx, f"Must have type {datatype_string(stack.elem_type)} but got "
                           f"{datatype_string(elem_type)}")
    if 0 <= stack.max_size <= len(stack.items):
        raise invalid(ctx, f"{stack.label()} overflowed its max_size ({stack.max_size})")
    stack.items.append(elem)
    return elem


@register("StackPopV2")
def stack_pop_v2(ctx, handle):
    stack = _lookup(ctx, handle)
    if not stack.items:
        raise invalid(ctx, f"{stack.label()} is empty.")
    return stack.items.pop()


@register("StackCloseV2")
def stack_close_v2(ctx, handle):
    ctx.resources.table("stacks").pop(resource_handle(handle).name, None)
