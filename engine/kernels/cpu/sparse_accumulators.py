"""NumPy CPU kernels of the sparse conditional accumulator (SparseConditionalAccumulator and
its SparseAccumulatorApplyGradient, SparseAccumulatorTakeGradient, AccumulatorNumAccumulated
and AccumulatorSetGlobalStep ops), as TensorFlow's sparse_conditional_accumulator.h keeps
one: its handle is a ref to a [container, name] string pair; a gradient's rows merge into
the sum by index (a merge of two sorted lists: the sum's indices stay sorted when every
gradient's are), each row counting how many gradients gave it, and a MEAN take divides each
row by its own count. Staleness, blocking takes and the global step are the dense
accumulators' (engine/kernels/cpu/accumulators.py)."""

import numpy as np

from engine.framework import dtypes, errors
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.accumulators import (_CREATE_LOCK, _Accumulator, _accumulators,
                                             check_num_required, num_accumulated,
                                             set_global_step, wait_for_gradients)
from engine.runtime.resources import Ref


class _SparseAccumulator(_Accumulator):
    """The sum as sorted row indices, their rows and how many gradients gave each row."""

    def __init__(self, name, dtype, shape, reduction_type):
        super().__init__(name, dtype, shape, reduction_type)
        self.indices, self.counts = None, None


_KERNEL_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


@register("SparseConditionalAccumulator")
def sparse_conditional_accumulator(ctx):
    dtype = ctx.attr("dtype")
    if dtype not in _KERNEL_DTYPES:   # TensorFlow registers its kernel for these alone
        attrs = ", ".join(f"{key}={_attr_text(ctx.attr(key))}" for key in (
            "dtype", "shape", "container", "shared_name", "reduction_type"))
        raise invalid(ctx, f"No OpKernel was registered to support Op "
                           f"'SparseConditionalAccumulator' used by {{{{node {ctx.name}}}}} "
                           f"with these attrs: [{attrs}]")
    shared = ctx.attr("shared_name", b"")
    shared = shared.decode() if isinstance(shared, bytes) else shared
    name = shared or ctx.name
    table = _accumulators(ctx.resources)
    with _CREATE_LOCK:
        if name not in table:
            shape = ctx.attr("shape")
            dims = shape.as_list() if shape is not None and shape.ndims is not None else None
            reduction = ctx.attr("reduction_type", b"MEAN")
            reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
            table[name] = _SparseAccumulator(name, ctx.attr("dtype"), dims, reduction)
    return Ref(name, dtypes.string, np.array([b"", name.encode()], object))


def _attr_text(value):
    if isinstance(value, dtypes.DType):
        return "DT_" + value.name.upper()
    if isinstance(value, bytes):
        return f'"{value.decode()}"'
    if isinstance(value, str):
        return f'"{value}"'
    if value is None or getattr(value, "ndims", 0) is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in value.as_list()) + "]"


def _lookup(ctx, handle):
    value = handle.value if isinstance(handle, Ref) else handle
    name = np.asarray(value, object).ravel()[1]
    name = name.decode() if isinstance(name, bytes) else str(name)
    accumulator = _accumulators(ctx.resources).get(name)
    if accumulator is None:
        raise errors.NotFoundError(ctx.node_def, None,
                                   f"Resource localhost/{name} does not exist.")
    return accumulator


def _validate(ctx, accumulator, indices, values, shape, has_known_shape):
    """TensorFlow's GetAndValidateTensorInputForApplyGrad and ValidateShape, in order."""
    if indices.ndim != 1:
        raise invalid(ctx, f"Input indices should be vector but received shape: "
                           f"{shape_str(list(indices.shape))}")
    if values.ndim == 0:
        raise invalid(ctx, "Values cannot be 0-dimensional.")
    if values.shape[0] != indices.shape[0]:
        raise invalid(ctx, f"Expected {indices.shape[0]} non-empty input values, got "
                           f"{values.shape[0]}")
    dims = accumulator.shape if accumulator.shape is not None else []
    dims = [-1 if d is None else d for d in dims]
    if has_known_shape:
        flat = np.asarray(shape).ravel()
        if len(dims) > flat.size:
            raise invalid(ctx, f"Shape mismatch: expected shape rank at least {len(dims)}, "
                               f"got {flat.size}")
        for i, d in enumerate(dims):
            if d != -1 and d != flat[i]:
                raise invalid(ctx, f"Shape mismatch: expected shape dim {i} to be {d}, got "
                                   f"{flat[i]}")
    if dims and dims[0] != -1:
        for i, index in enumerate(indices):
            if index >= dims[0]:
                raise invalid(ctx, f"Shape mismatch: index of slice {i} exceeded limits of "
                                   f"shape; index is {index} exceeded {dims[0]}")
    if accumulator.counter > 0:
        if accumulator.sum.ndim != values.ndim:
            raise invalid(ctx, f"Shape mismatch: expected values rank {accumulator.sum.ndim}, "
                               f"got {values.ndim}")
        for i in range(1, values.ndim):
            if accumulator.sum.shape[i] != values.shape[i]:
                raise invalid(ctx, f"Shape mismatch: expected values dim {i} to be "
                                   f"{accumulator.sum.shape[i]}, got {values.shape[i]}")
    else:
        if len(dims) > values.ndim:
            raise invalid(ctx, f"Shape mismatch: expected values rank at least {len(dims)}, "
                               f"got {values.ndim}")
        for i in range(1, len(dims)):
            if dims[i] != -1 and dims[i] != values.shape[i]:
                raise invalid(ctx, f"Shape mismatch: expected values dim {i} to be {dims[i]}, "
                                   f"got {values.shape[i]}")


def _merge(accumulator, indices, values):
    """AddToAccumGradFunction: the sum's rows and the gradient's merged by index."""
    old_indices, old_values, old_counts = accumulator.indices, accumulator.sum, accumulator.counts
    merged_indices, rows, counts = [], [], []
    i = j = 0
    while i < len(old_indices) or j < len(indices):
        if j >= len(indices) or (i < len(old_indices) and old_indices[i] < indices[j]):
            merged_indices.append(old_indices[i]), rows.append(old_values[i])
            counts.append(old_counts[i])
            i += 1
        elif i >= len(old_indices) or old_indices[i] > indices[j]:
            merged_indices.append(indices[j]), rows.append(values[j]), counts.append(1)
            j += 1
        else:
            merged_indices.append(old_indices[i]), rows.append(values[j] + old_values[i])
            counts.append(old_counts[i] + 1)
            i += 1
            j += 1
    accumulator.indices = np.array(merged_indices, np.int64)
    accumulator.sum = (np.stack(rows).astype(values.dtype, copy=False) if rows
                       else np.zeros((0,) + values.shape[1:], values.dtype))
    accumulator.counts = counts


@register("SparseAccumulatorApplyGradient")
def sparse_accumulator_apply_gradient(ctx, handle, local_step, gradient_indices,
                                      gradient_values, gradient_shape):
    accumulator = _lookup(ctx, handle)
    indices = np.asarray(gradient_indices, np.int64)
    values = np.asarray(gradient_values)
    with accumulator.condition:
        if int(local_step) < accumulator.global_step:
            return  # stale: computed before the last update
        _validate(ctx, accumulator, indices, values, gradient_shape,
                  bool(ctx.attr("has_known_shape", False)))
        if accumulator.counter > 0:
            _merge(accumulator, indices, values)
        else:
            accumulator.indices = indices.copy()
            accumulator.sum = values.copy()
            accumulator.counts = [1] * len(indices)
        accumulator.counter += 1
        accumulator.condition.notify_all()


@register("SparseAccumulatorTakeGradient")
def sparse_accumulator_take_gradient(ctx, handle, num_required):
    accumulator = _lookup(ctx, handle)
    num_required = check_num_required(ctx, num_required)
    with accumulator.condition:
        wait_for_gradients(ctx, accumulator, num_required)
        values = accumulator.sum
        if accumulator.reduction_type == "MEAN":
            counts = np.array(accumulator.counts, values.dtype).reshape(
                (-1,) + (1,) * (values.ndim - 1))
            values = (values / counts).astype(values.dtype, copy=False)
        dims = accumulator.shape or []
        first = dims[0] if dims and dims[0] is not None else -1
        shape = np.array([first] + list(values.shape[1:]), np.int64)[:values.ndim]
        accumulator.counter = 0
        accumulator.global_step += 1
        return accumulator.indices.copy(), np.asarray(values), shape


@register("AccumulatorNumAccumulated")
def accumulator_num_accumulated(ctx, handle):
    return num_accumulated(_lookup(ctx, handle))


@register("AccumulatorSetGlobalStep")
def accumulator_set_global_step(ctx, handle, new_global_step):
    set_global_step(_lookup(ctx, handle), new_global_step)
