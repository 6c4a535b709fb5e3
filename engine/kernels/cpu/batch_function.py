"""The CPU kernel of BatchFunction (tf.nondifferentiable_batch_function) for one invocation
at a time: TensorFlow's batch_kernels.cc gathers the tasks of concurrent runs into a batch
of at most max_batch_size rows, pads it up to the next allowed_batch_sizes with copies of its
first row, calls the function once and hands each task its rows back. The engine's session
runs one step's invocation alone, so a batch is that invocation's rows; results equal
TensorFlow's wherever the function treats rows apart (what batching assumes)."""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.functional import _call, _func


def _check_inputs(ctx, tensors):
    if any(t.ndim == 0 for t in tensors):
        raise invalid(ctx, "Batching input tensors must have at least one dimension.")
    if len({t.shape[0] for t in tensors}) > 1:
        raise invalid(ctx, "Batching input tensors supplied in a given op invocation must "
                           "have equal 0th-dimension size.")


@register("BatchFunction")
def batch_function(ctx, *inputs):
    count = len(ctx.attr("Tin") or ())
    tensors = [np.asarray(t) for t in inputs[:count]]
    captured = list(inputs[count:])
    _check_inputs(ctx, tensors)
    size = tensors[0].shape[0]
    max_batch_size = int(ctx.attr("max_batch_size"))
    if size > max_batch_size:
        raise invalid(ctx, f"Task size {size} is larger than maximum input batch size "
                           f"{max_batch_size}")
    allowed = sorted(int(a) for a in ctx.attr("allowed_batch_sizes") or ())
    padded = next((a for a in allowed if a >= size), size)
    if padded > size and size > 0:
        tensors = [np.concatenate([t, np.repeat(t[:1], padded - size, axis=0)])
                   for t in tensors]
    name, attrs = _func(ctx, "f")
    outputs = list(_call(ctx, name, attrs, tensors + captured))
    sliced = []
    for output in outputs:
        output = np.asarray(output)
        if output.ndim == 0:
            raise errors.FailedPreconditionError(ctx.node_def, None,
                                                 "Batched output tensor has 0 dimensions")
        if output.shape[0] != padded:
            raise errors.FailedPreconditionError(
                ctx.node_def, None,
                f"Batched output tensor's 0th dimension does not equal the sum of the 0th "
                f"dimension sizes of the input tensors. 0th dimension size: "
                f"{output.shape[0]}; batch size: {size}; unbatched tasks size: 0; padding "
                f"size: {padded - size}")
        sliced.append(output[:size])
    return sliced if len(sliced) > 1 else sliced[0]
