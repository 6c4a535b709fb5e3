"""ApproxTopK's gradient as TensorFlow's nn_grad.py builds it: the output gradient scattered
back to the input's elements at the indices, with static shapes throughout."""

import functools
import itertools
import operator

from engine.ops import array_ops, math_ops, segment_ops
from engine.ops.gradient_registry import RegisterGradient


@RegisterGradient("ApproxTopK")
def _approx_top_k_grad(op, grad, _):
    idx_shape = op.outputs[1].shape
    lifted_idx_shape = idx_shape.as_list() + [1]
    flat_shape_len = functools.reduce(operator.mul, idx_shape.as_list())
    rank = idx_shape.ndims
    reduction_dim = op.get_attr("reduction_dimension")
    if reduction_dim < 0:
        reduction_dim = rank + reduction_dim

    def lifted_idx(d):
        if d == reduction_dim:
            return array_ops.reshape(op.outputs[1], lifted_idx_shape)
        iota_len = idx_shape.as_list()[d]
        iota_shape = list(itertools.repeat(1, rank + 1))
        iota_shape[d] = iota_len
        iota = array_ops.reshape(math_ops.range(iota_len), iota_shape)
        return array_ops.broadcast_to(iota, lifted_idx_shape)

    lifted = array_ops.concat([lifted_idx(d) for d in range(rank)], axis=rank)
    flat_idx = array_ops.reshape(lifted, [flat_shape_len, rank])
    flat_grad = array_ops.reshape(grad, [flat_shape_len])
    return segment_ops.scatter_nd(flat_idx, flat_grad, op.inputs[0].shape.as_list())
