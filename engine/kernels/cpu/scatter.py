"""NumPy CPU kernels of ScatterSub and ScatterAdd on ref variables: the sparse updates
GradientDescent applies for IndexedSlices gradients (and tf.scatter_sub / scatter_add)."""

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
