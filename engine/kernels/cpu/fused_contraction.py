"""CPU kernels of the contractions Grappler's remapper fuses: _FusedMatMul and _FusedConv2D.

A MatMul or Conv2D, then the ops its `fused_ops` attr lists: BiasAdd (of `args`[0]), then an
activation (Relu, Relu6, Elu, LeakyRelu with `leakyrelu_alpha`), as TensorFlow's CPU kernels
compute them after the remapper (engine/optimizer/contraction_fusion.py) made the node. The
contraction is the unfused op's own kernel, so the values are the unfused graph's; the bias
is added in the contraction's fresh buffer.
"""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu import threaded_elementwise
from engine.kernels.cpu.math import elu, relu6, relu_kernel
from engine.kernels.cpu.nn import check_bias_add, conv2d, mat_mul

ACTIVATIONS = {
    "Relu": relu_kernel,  # compiled where that serves x: the same bits as np.maximum(x, 0)
    "Relu6": lambda ctx, x: relu6(x),
    "Elu": lambda ctx, x: elu(x),
    "LeakyRelu": lambda ctx, x: np.where(x > 0, x, x * x.dtype.type(
        ctx.attr("leakyrelu_alpha", 0.2))),
}


@register("_FusedMatMul")
def fused_mat_mul(ctx, a, b, *args):
    return _fused_ops(ctx, mat_mul(ctx, a, b), args)


@register("_FusedConv2D")
def fused_conv2d(ctx, x, filters, *args):
    return _fused_ops(ctx, conv2d(ctx, x, filters), args[:ctx.attr("num_args", len(args))])


def _fused_ops(ctx, value, args):
    ops = [op.decode() if isinstance(op, bytes) else op for op in ctx.attr("fused_ops", [])]
    if not ops or ops[0] != "BiasAdd" or len(ops) > 2 or len(args) != 1:
        raise errors.UnimplementedError(ctx.node_def, None, f"Fusion is not implemented: "
                                                           f"[{', '.join(ops)}]")
    check_bias_add(ctx, value, args[0])
    if value.flags.writeable and value.dtype == np.result_type(value, args[0]):
        # (the contraction's own buffer)
        threaded_elementwise.ufunc_call(np.add, value, args[0], out=value)
    else:
        value = value + args[0]
    if len(ops) == 2:
        activation = ACTIVATIONS.get(ops[1])
        if activation is None:
            raise invalid(ctx, f"Unsupported fusion: [{', '.join(ops)}]")
        value = activation(ctx, value)
    return value
