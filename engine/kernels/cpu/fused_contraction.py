"""CPU kernels of the contractions Grappler's remapper fuses: _FusedMatMul and _FusedConv2D.

A MatMul or Conv2D, then the ops its `fused_ops` attr lists: BiasAdd (of `args`[0]), then an
activation (Relu, Relu6, Elu, LeakyRelu with `leakyrelu_alpha`), as TensorFlow's CPU kernels
compute them after the remapper (engine/optimizer/contraction_fusion.py) made the node. The
contraction is the unfused op's own kernel, so the values are the unfused graph's; the bias
is added in the contraction's fresh buffer. Where a _FusedMatMul's product is split by rows
over the intra-op threads (engine/kernels/cpu/threaded_matmul.py), each thread adds the bias,
and applies the activation, to its row block right after the block's product, while the
block is in its cache, instead of a second pass over the whole product: the same elementwise
ops on the same values (tests/engine/test_threaded_matmul.py compares both).
"""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu import threaded_elementwise, threaded_matmul
from engine.kernels.cpu.math import elu, relu6, relu_kernel
from engine.kernels.cpu.nn import check_bias_add, check_mat_mul, conv2d

ACTIVATIONS = {
    "Relu": relu_kernel,  # compiled where that serves x: the same bits as np.maximum(x, 0)
    "Relu6": lambda ctx, x: relu6(x),
    "Elu": lambda ctx, x: elu(x),
    "LeakyRelu": lambda ctx, x: np.where(x > 0, x, x * x.dtype.type(
        ctx.attr("leakyrelu_alpha", 0.2))),
}


def _in_place(function):
    def apply(ctx, rows):
        rows[...] = function(ctx, rows)
    return apply


# The activations on one row block of a split product, in place: the whole-array kernel's
# operations (math.relu's maximum with a zero of the dtype, relu6's maximum then minimum),
# without its own split over the threads (a row block is one thread's piece already).
ROW_ACTIVATIONS = {
    "Relu": lambda ctx, rows: np.maximum(rows, rows.dtype.type(0), out=rows),
    "Relu6": lambda ctx, rows: np.minimum(np.maximum(rows, rows.dtype.type(0), out=rows),
                                          rows.dtype.type(6), out=rows),
    "Elu": _in_place(ACTIVATIONS["Elu"]),
    "LeakyRelu": _in_place(ACTIVATIONS["LeakyRelu"]),
}


@register("_FusedMatMul")
def fused_mat_mul(ctx, a, b, *args):
    transpose_a, transpose_b = check_mat_mul(ctx, a, b)
    a, b = (a.T if transpose_a else a), (b.T if transpose_b else b)
    epilogue = _row_epilogue(ctx, a, b, args)
    value, split = threaded_matmul.matmul_epilogue(a, b, epilogue)
    return value if split and epilogue is not None else _fused_ops(ctx, value, args)


def fused_mat_mul_then(ctx, a, b, args, prepare):
    """_FusedMatMul's value with more elementwise work on its rows as they are made:
    prepare(out), given the array the product will be written into, returns then(start, stop)
    to run on rows start..stop of it once they are final, on the thread that made them, while
    they are in its cache (engine/runtime/epilogue_steps.py runs an elementwise chain so), or
    None. Where the product is one piece, then(0, rows) once, after it. (value, ran): ran is
    whether `then` ran (its rows are the product, the fused ops applied, where it did not).
    None where the fusion is not a BiasAdd of the product's dtype: the kernel above serves."""
    transpose_a, transpose_b = check_mat_mul(ctx, a, b)
    a, b = (a.T if transpose_a else a), (b.T if transpose_b else b)
    epilogue = _row_epilogue(ctx, a, b, args)
    if epilogue is None:
        return None
    out = np.empty((a.shape[0], b.shape[1]), a.dtype)
    then = prepare(out)
    _, split = threaded_matmul.matmul_epilogue(a, b, epilogue, out=out, then=then)
    if not split:
        epilogue(out)
        if then is not None:
            then(0, out.shape[0])
    return out, then is not None


def _row_epilogue(ctx, a, b, args):
    """The bias add (and activation) on one row block of a split product, in place, where
    the fusion and its bias are valid and in the product's dtype; else None (the whole
    product's path below then applies them, or raises their errors)."""
    ops = _fused_op_names(ctx)
    if not ops or ops[0] != "BiasAdd" or len(ops) > 2 or len(args) != 1:
        return None
    bias = args[0]
    if not (isinstance(bias, np.ndarray) and bias.ndim == 1 and bias.dtype == a.dtype
            and a.dtype == b.dtype and bias.shape[0] == b.shape[1]):
        return None
    activation = None
    if len(ops) == 2:
        activation = ROW_ACTIVATIONS.get(ops[1])
        if activation is None:
            return None

    def epilogue(rows):
        np.add(rows, bias, out=rows)
        if activation is not None:
            activation(ctx, rows)

    return epilogue


@register("_FusedConv2D")
def fused_conv2d(ctx, x, filters, *args):
    return _fused_ops(ctx, conv2d(ctx, x, filters), args[:ctx.attr("num_args", len(args))])


def _fused_op_names(ctx):
    return [op.decode() if isinstance(op, bytes) else op for op in ctx.attr("fused_ops", [])]


def _fused_ops(ctx, value, args):
    ops = _fused_op_names(ctx)
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
