"""NumPy CPU kernels of the scatter ops: ScatterSub and ScatterAdd on ref variables (the sparse
updates GradientDescent applies for IndexedSlices gradients, and tf.scatter_sub / scatter_add),
ScatterUpdate, ScatterMul, ScatterDiv, ScatterMin, ScatterMax, ScatterNdUpdate, ScatterNdAdd,
ScatterNdSub, and the functional TensorScatterUpdate, TensorScatterAdd, TensorScatterSub,
TensorScatterMax, TensorScatterMin."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.state import uninitialized


def _scatter(ufunc):
    def kernel(ctx, ref, indices, updates):
        current = ref.value
        if current is None:
            raise uninitialized(ctx, ref)
        indices = np.asarray(indices).reshape(-1)
        if ((indices < 0) | (indices >= current.shape[0])).any():
            bad = indices[(indices < 0) | (indices >= current.shape[0])][0]
            raise invalid(ctx, f"indices[0] = {bad} is not in [0, {current.shape[0]})")
        # sequentially, so that repeated indices each apply, as TensorFlow's scatter functor
        ufunc.at(current, indices, np.asarray(updates).reshape((len(indices),)
                                                               + current.shape[1:]))
        return ref
    return kernel


# The sparse updates of GradientDescent (and tf.scatter_sub/add) on ref variables.
register("ScatterSub")(_scatter(np.subtract))
register("ScatterAdd")(_scatter(np.add))


def _truncating_divide(a, b):
    """C++'s division: integers truncated toward zero."""
    if np.issubdtype(np.asarray(a).dtype, np.integer):
        return np.fix(np.true_divide(a, b)).astype(np.asarray(a).dtype)
    return np.true_divide(a, b)


def _assign(current, indices, updates):
    current[indices] = updates  # a repeated index: the last update stays, as TensorFlow's


register("ScatterMul")(_scatter(np.multiply))
register("ScatterMin")(_scatter(np.minimum))
register("ScatterMax")(_scatter(np.maximum))


@register("ScatterDiv")
def scatter_div(ctx, ref, indices, updates):
    current = ref.value
    if current is None:
        raise uninitialized(ctx, ref)
    flat = np.asarray(indices).reshape(-1)
    _check_rows(ctx, flat, current.shape[0])
    updates = np.asarray(updates).reshape((len(flat),) + current.shape[1:])
    for i, index in enumerate(flat.tolist()):  # in order, as the scatter functor
        current[index] = _truncating_divide(current[index], updates[i])
    return ref


@register("ScatterUpdate")
def scatter_update(ctx, ref, indices, updates):
    current = ref.value
    if current is None:
        raise uninitialized(ctx, ref)
    flat = np.asarray(indices).reshape(-1)
    _check_rows(ctx, flat, current.shape[0])
    updates = np.asarray(updates)
    if updates.ndim == 0:
        current[flat] = updates
    else:
        _assign(current, flat, updates.reshape((len(flat),) + current.shape[1:]))
    return ref


def _check_rows(ctx, flat, rows):
    bad = np.flatnonzero((flat < 0) | (flat >= rows))
    if bad.size:
        raise invalid(ctx, f"indices[{bad[0]}] = {flat[bad[0]]} is not in [0, {rows})")


def _nd_positions(ctx, shape, indices, what="shape"):
    """ScatterNd's indices [..., K] as tuples of row indices into the first K dims of `shape`,
    checked as TensorFlow checks them."""
    indices = np.asarray(indices)
    depth = indices.shape[-1] if indices.ndim else 0
    flat = indices.reshape(-1, depth) if depth else np.zeros((1, 0), np.int64)
    bad = [i for i, row in enumerate(flat.tolist())
           if any(not 0 <= v < shape[d] for d, v in enumerate(row))]
    if bad:  # TensorFlow's ScatterNdFunctor records the last index out of bounds
        row = flat[bad[-1]].tolist()
        shape_text = ",".join(str(d) for d in shape)
        raise invalid(ctx, f"indices[{bad[-1]}] = [{', '.join(str(v) for v in row)}] does not "
                           f"index into {what} [{shape_text}]")
    return flat, depth


def _scatter_nd_into(ctx, target, indices, updates, mode, what="shape"):
    flat, depth = _nd_positions(ctx, target.shape, indices, what)
    slice_shape = target.shape[depth:]
    updates = np.asarray(updates, target.dtype).reshape((len(flat),) + slice_shape)
    for row, update in zip(flat.tolist(), updates):
        position = tuple(row)
        if mode == "update":
            target[position] = update
        elif mode == "add":
            target[position] = target[position] + update
        elif mode == "max":
            target[position] = np.maximum(target[position], update)
        elif mode == "min":
            target[position] = np.minimum(target[position], update)
        else:
            target[position] = target[position] - update
    return target


def _scatter_nd_ref(mode):
    def kernel(ctx, ref, indices, updates):
        current = ref.value
        if current is None:
            raise uninitialized(ctx, ref)
        _scatter_nd_into(ctx, current, indices, updates, mode)
        return ref
    return kernel


register("ScatterNdUpdate")(_scatter_nd_ref("update"))
register("ScatterNdAdd")(_scatter_nd_ref("add"))
register("ScatterNdSub")(_scatter_nd_ref("sub"))


def _tensor_scatter(mode):
    def kernel(ctx, tensor, indices, updates):
        result = np.array(tensor, copy=True)
        return _scatter_nd_into(ctx, result, indices, updates, mode)
    return kernel


register("TensorScatterUpdate")(_tensor_scatter("update"))
register("TensorScatterAdd")(_tensor_scatter("add"))
register("TensorScatterSub")(_tensor_scatter("sub"))
register("TensorScatterMax")(_tensor_scatter("max"))
register("TensorScatterMin")(_tensor_scatter("min"))
