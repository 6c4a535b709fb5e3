"""NumPy CPU kernels of the gradient accumulators SyncReplicasOptimizer puts on the ps
(ResourceConditionalAccumulator and its ApplyGradient, TakeGradient, SetGlobalStep and
NumAccumulated ops), as TensorFlow's conditional_accumulator_base.cc keeps them.

An accumulator holds the sum of the gradients applied since it was last taken, their count
and its own global step. ApplyGradient adds a gradient unless its local_step is older than
that step (a stale gradient, silently dropped); TakeGradient blocks until num_required
gradients are in, then returns their mean (or sum), empties the accumulator and adds one
to its step; SetGlobalStep sets the step (a smaller one is logged, and set all the same).
Like the queues (engine/kernels/cpu/queues.py), an accumulator lives in the session's
resources under its shared_name, and a blocked take wakes on every change, on its run's
deadline and when the session closes.
"""

import threading

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle, shape_str
from engine.platform import tf_logging as logging
from engine.runtime.deadline import check as check_deadline
from engine.runtime.resources import ResourceHandle

_POLL_SECONDS = 0.05  # how often a blocked take looks at its run's deadline
_CREATE_LOCK = threading.Lock()


class _Accumulator:
    """One accumulator: the running sum, how many it holds, its global step."""

    def __init__(self, name, dtype, shape, reduction_type):
        self.name, self.dtype, self.shape = name, dtype, shape
        self.reduction_type = reduction_type
        self.sum, self.counter, self.global_step = None, 0, 0
        self.cancelled = False
        self.condition = threading.Condition()

    def cancel(self):
        with self.condition:
            self.cancelled = True
            self.condition.notify_all()


def _accumulators(resources):
    table = resources.table("accumulators")
    if not getattr(resources, "accumulators_cancelled_on_clear", False):
        with _CREATE_LOCK:
            if not getattr(resources, "accumulators_cancelled_on_clear", False):
                resources.clear_hooks.append(
                    lambda: [a.cancel() for a in list(table.values())])
                resources.accumulators_cancelled_on_clear = True
    return table


def _lookup(ctx, handle):
    handle = resource_handle(handle)
    accumulator = _accumulators(ctx.resources).get(handle.name)
    if accumulator is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource localhost/{handle.name} does not exist.")
    return accumulator


@register("ResourceConditionalAccumulator")
def resource_conditional_accumulator(ctx):
    shared = ctx.attr("shared_name", b"")
    shared = shared.decode() if isinstance(shared, bytes) else shared
    name = ctx.resources.resource_name(ctx.name, shared)
    table = _accumulators(ctx.resources)
    with _CREATE_LOCK:
        if name not in table:
            shape = ctx.attr("shape")
            dims = shape.as_list() if shape is not None and shape.ndims is not None else None
            reduction = ctx.attr("reduction_type", b"MEAN")
            reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
            table[name] = _Accumulator(name, ctx.attr("dtype"), dims, reduction)
    return ResourceHandle("", name, ctx.device, None, ())


@register("ResourceAccumulatorApplyGradient")
def resource_accumulator_apply_gradient(ctx, handle, local_step, gradient):
    accumulator = _lookup(ctx, handle)
    gradient = np.asarray(gradient)
    with accumulator.condition:
        if int(local_step) < accumulator.global_step:
            return  # stale: computed before the last update
        expected = accumulator.sum.shape if accumulator.counter > 0 else None
        if expected is not None and tuple(expected) != gradient.shape:
            raise invalid(ctx, f"Shape mismatch: expected {shape_str(list(expected))}, got "
                               f"{shape_str(list(gradient.shape))}")
        if accumulator.shape is not None and (
                len(accumulator.shape) != gradient.ndim or
                any(d not in (-1, None, g) for d, g in zip(accumulator.shape, gradient.shape))):
            raise invalid(ctx, f"Shape mismatch: expected {shape_str(accumulator.shape)}, got "
                               f"{shape_str(list(gradient.shape))}")
        if accumulator.counter > 0:
            accumulator.sum = accumulator.sum + gradient
        else:
            accumulator.sum = gradient.copy()
        accumulator.counter += 1
        accumulator.condition.notify_all()


def check_num_required(ctx, num_required):
    """num_required as an int, refused unless positive (TensorFlow's TakeGrad check)."""
    num_required = int(num_required)
    if num_required <= 0:
        raise invalid(ctx, f"Argument num_required must be positive, but was {num_required}")
    return num_required


def wait_for_gradients(ctx, accumulator, num_required):
    """Blocks (its condition held) until the accumulator holds num_required gradients, looking
    at the run's deadline and at a cancel between waits (TakeGrad)."""
    while accumulator.counter < num_required:
        check_deadline()
        accumulator.condition.wait(_POLL_SECONDS)
        if accumulator.cancelled:
            raise errors.CancelledError(ctx.node_def, None, "TakeGrad operation was cancelled")


def set_global_step(accumulator, new_global_step):
    """SetGlobalStep: a step below the current one is taken, with TensorFlow's warning."""
    new_step = int(new_global_step)
    with accumulator.condition:
        if new_step < accumulator.global_step:
            logging.warning("Attempt to set current_global_step_ to smaller value: "
                            "current_global_step_ = %d >= %d = new_global_step.",
                            accumulator.global_step, new_step)
        accumulator.global_step = new_step


def num_accumulated(accumulator):
    with accumulator.condition:
        return np.array(accumulator.counter, np.int32)


@register("ResourceAccumulatorTakeGradient")
def resource_accumulator_take_gradient(ctx, handle, num_required):
    accumulator = _lookup(ctx, handle)
    num_required = check_num_required(ctx, num_required)
    with accumulator.condition:
        wait_for_gradients(ctx, accumulator, num_required)
        accumulator.global_step += 1
        total = accumulator.sum
        if accumulator.reduction_type == "MEAN":
            total = total / np.array(accumulator.counter, total.dtype)
        accumulator.counter, accumulator.sum = 0, None
        return np.asarray(total)


@register("ResourceAccumulatorSetGlobalStep")
def resource_accumulator_set_global_step(ctx, handle, new_global_step):
    set_global_step(_lookup(ctx, handle), new_global_step)


@register("ResourceAccumulatorNumAccumulated")
def resource_accumulator_num_accumulated(ctx, handle):
    return num_accumulated(_lookup(ctx, handle))
