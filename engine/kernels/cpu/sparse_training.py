"""NumPy CPU kernels of the sparse training updates: SparseApply{Momentum, RMSProp,
CenteredRMSProp, Adagrad} on ref variables, their ResourceSparseApply* twins, and the
Unique and ResourceScatterAdd ops the optimizers' sparse paths build.

Each update touches only the rows its indices name, one index after the other as
TensorFlow's training_ops.cc loops (a repeated index is updated twice), with the formulas
of those loops, which are not the dense ops' (SparseApplyRMSProp multiplies by rsqrt
where ApplyRMSProp divides by sqrt).
"""

import numpy as np

from engine.framework.errors import InvalidArgumentError
from engine.kernels import register
from engine.kernels.common import shape_str
from engine.kernels.cpu.training import check_initialized, variable_buffer
from engine.runtime.resources import locked


def _rsqrt(x):
    return 1 / np.sqrt(x)


def _momentum(attrs, rows, lr, grad, momentum):
    var, accum = rows
    accum = accum * momentum + grad
    if attrs.get("use_nesterov"):
        var = var - (lr * grad + lr * momentum * accum)
    else:
        var = var - lr * accum
    return var, accum


def _rms_prop(attrs, rows, lr, rho, momentum, epsilon, grad):
    var, ms, mom = rows
    ms = ms * rho + np.square(grad) * (1 - rho)
    mom = mom * momentum + _rsqrt(ms + epsilon) * lr * grad
    return var - mom, ms, mom


def _centered_rms_prop(attrs, rows, lr, rho, momentum, epsilon, grad):
    var, mg, ms, mom = rows
    ms = ms * rho + np.square(grad) * (1 - rho)
    mg = mg * rho + grad * (1 - rho)
    mom = mom * momentum + _rsqrt(ms + epsilon - np.square(mg)) * lr * grad
    return var - mom, mg, ms, mom


def _adagrad(attrs, rows, lr, grad):
    var, accum = rows
    if attrs.get("update_slots", True):
        accum = accum + np.square(grad)
    if np.ndim(grad) == 0:  # one element per row: TensorFlow divides by sqrt here
        return var - lr * grad / np.sqrt(accum), accum
    return var - lr * grad * _rsqrt(accum), accum


def _proximal_adagrad(attrs, rows, lr, l1, l2, grad):
    var, accum = rows
    accum = accum + np.square(grad)
    learning_rate = lr * _rsqrt(accum) if np.ndim(grad) else lr / np.sqrt(accum)
    prox_var = var - grad * learning_rate
    if l1 > 0:
        prox_var = np.sign(prox_var) * np.maximum(np.abs(prox_var) - learning_rate * l1, 0)
    return prox_var / (1 + l2 * learning_rate), accum


def _adagrad_da(attrs, rows, grad, lr, l1, l2, global_step):
    var, gradient_accum, gradient_squared_accum = rows
    gradient_accum = gradient_accum + grad
    gradient_squared_accum = gradient_squared_accum + np.square(grad)
    step_lr = global_step * lr
    denominator = l2 + np.sqrt(gradient_squared_accum) / step_lr
    if l1 > 0:
        var = (-1 * np.sign(gradient_accum)
               * np.maximum(np.abs(gradient_accum) / global_step - l1, 0) / denominator)
    else:
        var = -1 * (gradient_accum / global_step) / denominator
    return var, gradient_accum, gradient_squared_accum


# op: (update, number of variables, positions of the scalars, of grad and of indices among
# the inputs after the variables)
SPARSE_UPDATES = {
    "Momentum": (_momentum, 2, (0, 3), 1, 2),
    "RMSProp": (_rms_prop, 3, (0, 1, 2, 3), 4, 5),
    "CenteredRMSProp": (_centered_rms_prop, 4, (0, 1, 2, 3), 4, 5),
    "Adagrad": (_adagrad, 2, (0,), 1, 2),
    "ProximalAdagrad": (_proximal_adagrad, 2, (0, 1, 2), 3, 4),
    "AdagradDA": (_adagrad_da, 3, (2, 3, 4, 5), 0, 1),
}
_SLOT_NAMES = {"Momentum": ["var", "accum"], "RMSProp": ["var", "ms", "mom"],
               "CenteredRMSProp": ["var", "mg", "ms", "mom"], "Adagrad": ["var", "accum"],
               "ProximalAdagrad": ["var", "accum"],
               "AdagradDA": ["var", "gradient_accumulator", "gradient_squared_accumulator"]}


def _apply_rows(ctx, name, values, rest):
    """The update of op `name` applied in place to the variables' arrays `values`."""
    update, _, scalar_at, grad_at, indices_at = SPARSE_UPDATES[name]
    var, dtype = values[0], values[0].dtype
    for slot, value in zip(_SLOT_NAMES[name][1:], values[1:]):
        if value.shape != var.shape:
            raise InvalidArgumentError(ctx.node_def, None,
                                       f"var and {slot} do not have the same shape"
                                       f"{shape_str(var.shape)} {shape_str(value.shape)}")
    scalars = [dtype.type(np.asarray(rest[i]).reshape(())) for i in scalar_at]
    grad = np.asarray(rest[grad_at], dtype)
    indices = np.asarray(rest[indices_at]).reshape(-1)
    if var.ndim < 1:
        raise InvalidArgumentError(ctx.node_def, None, "var must be at least 1 dimensional")
    if np.ndim(rest[indices_at]) != 1:
        raise InvalidArgumentError(ctx.node_def, None, "indices must be one-dimensional")
    if grad.shape[1:] != var.shape[1:]:
        raise InvalidArgumentError(ctx.node_def, None,
                                   "var and grad must match in dimension 1 and beyond")
    if grad.shape[0] != indices.shape[0]:
        raise InvalidArgumentError(ctx.node_def, None,
                                   "grad must be the same size as indices in the first "
                                   "dimension.")
    for i, index in enumerate(indices.tolist()):
        if not 0 <= index < var.shape[0]:
            raise InvalidArgumentError(ctx.node_def, None,
                                       f"Index {index} at offset {i} in indices is out of "
                                       f"range")
        rows = update(ctx.attrs, [v[index] for v in values], *scalars[:grad_at],
                      grad[i], *scalars[grad_at:])
        for value, row in zip(values, rows):
            value[index] = row


def _sparse_ref_kernel(name):
    count = SPARSE_UPDATES[name][1]

    def kernel(ctx, *inputs):
        refs, rest = inputs[:count], inputs[count:]
        check_initialized(ctx, refs)
        with locked(refs, ctx.attrs.get("use_locking", False)):
            _apply_rows(ctx, name, [ref.value for ref in refs], rest)
        return refs[0]
    return kernel


def _sparse_resource_kernel(name):
    count = SPARSE_UPDATES[name][1]

    def kernel(ctx, *inputs):
        buffers = [variable_buffer(ctx, h) for h in inputs[:count]]
        with locked(buffers, ctx.attrs.get("use_locking", False)):
            # a copy: a fetched value read before the update keeps what it read
            values = [np.array(b.value) for b in buffers]
            _apply_rows(ctx, name, values, inputs[count:])
            for buffer, value in zip(buffers, values):
                buffer.value = value
    return kernel


for _name in SPARSE_UPDATES:
    register(f"SparseApply{_name}")(_sparse_ref_kernel(_name))
    register(f"ResourceSparseApply{_name}")(_sparse_resource_kernel(_name))


@register("Unique")
def unique(ctx, x):
    """(the distinct values in order of first appearance, each element's position in them)."""
    x = np.asarray(x)
    if x.ndim != 1:
        raise InvalidArgumentError(ctx.node_def, None,
                                   "unique expects a 1D vector.")
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # sorted uniques -> first-appearance order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    out_idx = ctx.attrs.get("out_idx")
    idx_dtype = out_idx.as_numpy_dtype if out_idx is not None else np.int32
    return x[np.sort(first)], rank[inverse.reshape(-1)].astype(idx_dtype)


@register("ResourceScatterAdd")
def resource_scatter_add(ctx, resource, indices, updates):
    buffer = variable_buffer(ctx, resource)
    with locked([buffer], True):
        value = np.array(buffer.value)
        indices = np.asarray(indices)
        updates = np.asarray(updates, value.dtype)
        for i, index in enumerate(indices.reshape(-1).tolist()):
            if not 0 <= index < value.shape[0]:
                raise InvalidArgumentError(ctx.node_def, None,
                                           f"indices[{i}] = {index} is not in "
                                           f"[0, {value.shape[0]})")
        if updates.ndim == 0:
            np.add.at(value, indices.reshape(-1), updates)
        else:
            np.add.at(value, indices, updates.reshape(indices.shape + value.shape[1:]))
        buffer.value = value
