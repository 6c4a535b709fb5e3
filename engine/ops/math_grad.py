"""Gradients of the math ops: elementwise, broadcasting binaries, reductions, matmul, cast.

Ported from TensorFlow's math_grad.py, node for node: the same ops in the same order, so a
training graph built here names its gradient nodes as TensorFlow's does.
"""

import numpy as np

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.complex_ops import conj
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient, is_zeros_tensor
from engine.ops.indexed_slices import dense
from engine.ops.op_def_library import apply_op
from engine.framework.tensor_util import constant_value


def _shape_tuple(t):
    shape = t.shape
    return None if shape.ndims is None else tuple(shape.as_list())


def _is_scalar(t):
    return _shape_tuple(t) == ()


# -- broadcasting --

def _infer_gradient_reduction_axes(x_shape, y_shape):
    if x_shape.ndims is None or y_shape.ndims is None:
        return None, None
    x_rank, y_rank = x_shape.ndims, y_shape.ndims
    x_list, y_list = x_shape.as_list(), y_shape.as_list()
    b_rank = max(x_rank, y_rank)
    x_axes, y_axes = [], []
    for axis in range(b_rank):
        x_dim = 1 if axis < b_rank - x_rank else x_list[axis - (b_rank - x_rank)]
        y_dim = 1 if axis < b_rank - y_rank else y_list[axis - (b_rank - y_rank)]
        if x_dim == 1 and y_dim != 1:
            x_axes.append(axis)
        elif y_dim == 1 and x_dim != 1:
            y_axes.append(axis)
        elif x_dim is None or y_dim is None:
            return None, None
    return x_axes, y_axes


def smart_broadcast_gradient_args(x, y):
    """((x_shape, x_axes, must_reduce), (y_shape, y_axes, must_reduce)), as TensorFlow's."""
    x_shape = array_ops.shape(x)
    y_shape = array_ops.shape(y)
    x_axes, y_axes = _infer_gradient_reduction_axes(x.shape, y.shape)
    if x_axes is None or y_axes is None:
        x_axes, y_axes = apply_op("BroadcastGradientArgs", s0=x_shape, s1=y_shape)
        x_must_reduce = y_must_reduce = True
    else:
        x_must_reduce = x_axes or x.shape.ndims < y.shape.ndims
        y_must_reduce = y_axes or y.shape.ndims < x.shape.ndims
    return (x_shape, x_axes, x_must_reduce), (y_shape, y_axes, y_must_reduce)


def _reduce_gradient_arg(grad, shape_axes_must_reduce):
    shape, axes, must_reduce = shape_axes_must_reduce
    if grad is not None and must_reduce:
        grad = math_ops.reduce_sum(grad, axes, keepdims=True)
        grad = array_ops.reshape(grad, shape)
    return grad


def reduce_gradient_args(x, y, gx, gy):
    if gx is not None or gy is not None:
        bx, by = smart_broadcast_gradient_args(x, y)
        gx = _reduce_gradient_arg(gx, bx)
        gy = _reduce_gradient_arg(gy, by)
    return gx, gy


def _fully_specified_and_equal(x, y, grad):
    x_shape, y_shape, grad_shape = _shape_tuple(x), _shape_tuple(y), _shape_tuple(grad)
    return (x_shape == y_shape and x_shape == grad_shape and x_shape is not None
            and None not in x_shape)


@RegisterGradient("Add")
@RegisterGradient("AddV2")
def _add_grad(op, grad):
    x, y = op.inputs
    if _fully_specified_and_equal(x, y, grad):
        return grad, grad
    return reduce_gradient_args(x, y, grad, grad)


@RegisterGradient("Sub")
def _sub_grad(op, grad):
    x, y = op.inputs
    if _fully_specified_and_equal(x, y, grad):
        return grad, -grad
    return reduce_gradient_args(x, y, grad, -grad)


@RegisterGradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    if _fully_specified_and_equal(x, y, grad) and grad.dtype in (dtypes.int32,
                                                                 dtypes.float32):
        return apply_op("Mul", x=grad, y=y), apply_op("Mul", x=grad, y=x)
    # (conj is the tensor itself, no node, unless it is complex)
    gx = apply_op("Mul", x=grad, y=conj(y))
    gy = apply_op("Mul", x=conj(x), y=grad)
    return reduce_gradient_args(x, y, gx, gy)


@RegisterGradient("Div")
def _div_grad(op, grad):
    x, y = op.inputs
    xc, yc = conj(x), conj(y)  # the tensors themselves unless complex
    gx = math_ops.divide(grad, yc)
    gy = grad * math_ops.divide(math_ops.divide(-xc, yc), yc)
    return reduce_gradient_args(x, y, gx, gy)


@RegisterGradient("RealDiv")
def _real_div_grad(op, grad):
    x, y = op.inputs
    xc, yc = conj(x), conj(y)  # the tensors themselves unless complex
    gx = math_ops.realdiv(grad, yc)
    gy = grad * math_ops.realdiv(math_ops.realdiv(-xc, yc), yc)
    return reduce_gradient_args(x, y, gx, gy)


def _div_no_nan(x, y):
    """math_ops.div_no_nan as TensorFlow's wrapper names it ("div_no_nan")."""
    with get_default_graph().name_scope("div_no_nan") as name:
        return apply_op("DivNoNan", x=x, y=y, name=name)


@RegisterGradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = op.inputs
    gx = _div_no_nan(grad, y)
    gy = grad * _div_no_nan(_div_no_nan(-x, y), y)
    return reduce_gradient_args(x, y, gx, gy)


@RegisterGradient("FloorMod")
def _floor_mod_grad(op, grad):
    x, y = op.inputs
    floor_xy = math_ops.floor_div(x, y)
    return reduce_gradient_args(x, y, grad, grad * math_ops.negative(floor_xy))


@RegisterGradient("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    gx = grad * y * math_ops.pow(x, y - 1)
    mask = x > 0
    safe_x = array_ops.where(mask, x, array_ops.ones_like(x))
    log_x = array_ops.where(mask, math_ops.log(safe_x), array_ops.zeros_like(x))
    gy = grad * op.outputs[0] * log_x
    return reduce_gradient_args(x, y, gx, gy)


def _maximum_minimum_grad(op, grad, selector_op):
    x, y = op.inputs
    zeros = array_ops.zeros_like(grad)
    xmask = selector_op(x, y)
    gx = array_ops.where_v2(xmask, grad, zeros)
    gy = array_ops.where_v2(xmask, zeros, grad)
    return reduce_gradient_args(x, y, gx, gy)


RegisterGradient("Maximum")(lambda op, grad: _maximum_minimum_grad(op, grad,
                                                                   math_ops.greater_equal))
RegisterGradient("Minimum")(lambda op, grad: _maximum_minimum_grad(op, grad,
                                                                   math_ops.less_equal))


@RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    with get_default_graph().control_dependencies([grad]):
        x_grad = math_ops.scalar_mul(2.0, grad) * (x - y)
    if _fully_specified_and_equal(x, y, grad):
        return x_grad, -x_grad
    return reduce_gradient_args(x, y, x_grad, -x_grad)


@RegisterGradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


for _op_type in ("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "ApproximateEqual",
                 "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Range", "LinSpace",
                 "FloorDiv", "TruncateDiv", "Floor", "Ceil", "Round", "Rint", "Sign",
                 "ArgMax", "ArgMin",
                 "_FusedElementwise"):  # made only by the optimizer, after gradients exist
    NotDifferentiable(_op_type)


@RegisterGradient("Select")
def _select_grad(op, grad):
    c, x = op.inputs[0], op.inputs[1]
    zeros = array_ops.zeros_like(x)
    return None, array_ops.where(c, grad, zeros), array_ops.where(c, zeros, grad)


@RegisterGradient("SelectV2")
def _select_v2_grad(op, grad):
    c, x, y = op.inputs
    z = op.outputs[0]
    zeros = array_ops.zeros([], dtype=grad.dtype.base_dtype)
    gx = array_ops.where_v2(c, grad, zeros)
    gy = array_ops.where_v2(c, zeros, grad)
    gx, _ = reduce_gradient_args(x, z, gx, None)
    gy, _ = reduce_gradient_args(y, z, gy, None)
    return None, gx, gy


# -- unary --

def _with_grad_deps(grad, fn):
    with get_default_graph().control_dependencies([grad]):
        return fn()


RegisterGradient("Abs")(lambda op, grad: grad * math_ops.sign(op.inputs[0]))
RegisterGradient("Neg")(lambda op, grad: -grad)
RegisterGradient("Reciprocal")(lambda op, grad: apply_op("ReciprocalGrad", y=op.outputs[0],
                                                         dy=grad))
RegisterGradient("Inv")(lambda op, grad: apply_op("ReciprocalGrad", y=op.outputs[0], dy=grad))
RegisterGradient("Sqrt")(lambda op, grad: apply_op("SqrtGrad", y=op.outputs[0], dy=grad))
RegisterGradient("Rsqrt")(lambda op, grad: apply_op("RsqrtGrad", y=op.outputs[0], dy=grad))
RegisterGradient("Tanh")(lambda op, grad: _with_grad_deps(
    grad, lambda: apply_op("TanhGrad", y=op.outputs[0], dy=grad)))
RegisterGradient("Sigmoid")(lambda op, grad: _with_grad_deps(
    grad, lambda: apply_op("SigmoidGrad", y=op.outputs[0], dy=grad)))
RegisterGradient("Exp")(lambda op, grad: _with_grad_deps(grad, lambda: grad * op.outputs[0]))
RegisterGradient("Expm1")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.exp(op.inputs[0])))
RegisterGradient("Log")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.reciprocal(op.inputs[0])))
RegisterGradient("Log1p")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.reciprocal(1 + op.inputs[0])))
RegisterGradient("Sinh")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.cosh(op.inputs[0])))
RegisterGradient("Cosh")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.sinh(op.inputs[0])))
RegisterGradient("Sin")(lambda op, grad: _with_grad_deps(
    grad, lambda: grad * math_ops.cos(op.inputs[0])))
RegisterGradient("Cos")(lambda op, grad: _with_grad_deps(
    grad, lambda: -grad * math_ops.sin(op.inputs[0])))


# TensorFlow's functions below take math_ops.conj of their inputs first, which for a real
# tensor is the tensor itself (no node); the engine's ops here are real, so there is none.

@RegisterGradient("Erf")
def _erf_grad(op, grad):
    """grad * 2/sqrt(pi) * exp(-x**2)."""
    x = op.inputs[0]
    two_over_root_pi = constant(2 / np.sqrt(np.pi), dtype=grad.dtype)
    with get_default_graph().control_dependencies([grad]):
        return grad * two_over_root_pi * math_ops.exp(-math_ops.square(x))


@RegisterGradient("Erfc")
def _erfc_grad(op, grad):
    """-grad * 2/sqrt(pi) * exp(-x**2)."""
    x = op.inputs[0]
    minus_two_over_root_pi = constant(-2 / np.sqrt(np.pi), dtype=grad.dtype)
    with get_default_graph().control_dependencies([grad]):
        return grad * minus_two_over_root_pi * math_ops.exp(-math_ops.square(x))


@RegisterGradient("Tan")
def _tan_grad(op, grad):
    """grad * sec(x)**2."""
    x = op.inputs[0]
    with get_default_graph().control_dependencies([grad]):
        secx = math_ops.reciprocal(math_ops.cos(x))
        secx2 = math_ops.square(secx)
        return secx2 * grad


def _one_over_root_one_minus_square(x, grad):
    """1 / sqrt(1 - x**2), as Asin's and Acos's gradients build it."""
    x2 = math_ops.square(x)
    one = constant(1, dtype=grad.dtype)
    den = math_ops.sqrt(math_ops.subtract(one, x2))
    return math_ops.reciprocal(den)


@RegisterGradient("Asin")
def _asin_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        return grad * _one_over_root_one_minus_square(op.inputs[0], grad)


@RegisterGradient("Acos")
def _acos_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        inv = _one_over_root_one_minus_square(op.inputs[0], grad)
        return -grad * inv


@RegisterGradient("Atan")
def _atan_grad(op, grad):
    """grad / (1 + x**2)."""
    x = op.inputs[0]
    with get_default_graph().control_dependencies([grad]):
        x2 = math_ops.square(x)
        one = constant(1, dtype=grad.dtype)
        inv = math_ops.reciprocal(math_ops.add(one, x2))
        return grad * inv


@RegisterGradient("Atan2")
def _atan2_grad(op, grad):
    """atan2(y, x): grad * x / (x**2 + y**2) for y, grad * -y / (x**2 + y**2) for x."""
    y, x = op.inputs
    with get_default_graph().control_dependencies([grad]):
        grad_inv = grad / (math_ops.square(y) + math_ops.square(x))
        gy = x * grad_inv
        gx = -y * grad_inv
        return reduce_gradient_args(y, x, gy, gx)


@RegisterGradient("SqrtGrad")
def _sqrt_grad_grad(op, grad):
    """SqrtGrad(a, b) = 0.5 * b / a: -grad * y / a for a, 0.5 * grad / a for b."""
    a = op.inputs[0]
    y = op.outputs[0]
    with get_default_graph().control_dependencies([grad]):
        ga = grad / a
        return -ga * y, 0.5 * ga


@RegisterGradient("RsqrtGrad")
def _rsqrt_grad_grad(op, grad):
    """RsqrtGrad(a, b) = -0.5 * b * a**3."""
    a, b = op.inputs
    with get_default_graph().control_dependencies([grad]):
        grad_a = -1.5 * grad * b * math_ops.square(a)
        grad_b = apply_op("RsqrtGrad", y=a, dy=grad)
        return grad_a, grad_b


def _reciprocal_grad_grad(op, grad):
    """ReciprocalGrad(a, b) = -b * a**2 (InvGrad the same; both answer with ReciprocalGrad)."""
    a, b = op.inputs
    with get_default_graph().control_dependencies([grad]):
        return grad * -2.0 * b * a, apply_op("ReciprocalGrad", y=a, dy=grad)


RegisterGradient("ReciprocalGrad")(_reciprocal_grad_grad)
RegisterGradient("InvGrad")(_reciprocal_grad_grad)


@RegisterGradient("Square")
def _square_grad(op, grad):
    x = op.inputs[0]
    with get_default_graph().control_dependencies([grad]):
        y = constant(2.0, dtype=x.dtype)
        return math_ops.multiply(grad, math_ops.multiply(x, y))


@RegisterGradient("TanhGrad")
def _tanh_grad_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        a, b = op.inputs
        return grad * -2.0 * b * a, apply_op("TanhGrad", y=a, dy=grad)


@RegisterGradient("SigmoidGrad")
def _sigmoid_grad_grad(op, grad):
    with get_default_graph().control_dependencies([grad]):
        a, b = op.inputs
        gb = grad * b
        return gb - 2.0 * gb * a, apply_op("SigmoidGrad", y=a, dy=grad)


@RegisterGradient("Cast")
def _cast_grad(op, grad):
    floats = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.bfloat16,
              dtypes.complex64, dtypes.complex128)
    src_type = op.inputs[0].dtype.base_dtype
    if src_type in floats and grad.dtype.base_dtype in floats:
        return math_ops.cast(grad, src_type)
    return None


# -- reductions --

def reduced_shape(input_shape, axes):
    """The shape of a reduction with kept dims: a constant where both are known."""
    shape_value = constant_value(input_shape) if not isinstance(input_shape, tuple) \
        else np.array(input_shape)
    axes_value = axes if isinstance(axes, np.ndarray) else constant_value(axes)
    if shape_value is not None and axes_value is not None:
        result = np.array(shape_value, dtype=np.int32)
        result[np.array(axes_value, dtype=np.int32)] = 1
        return result
    # TensorFlow 2.21's math_ops.reduced_shape: no casts, ones of the shape's dtype.
    axes = convert_to_tensor(axes)
    input_rank = array_ops.size(input_shape, out_type=axes.dtype)
    axes = (axes + input_rank) % input_rank
    axes_shape = array_ops.shape(axes)
    return apply_op("DynamicStitch", indices=[math_ops.range(input_rank), axes],
                    data=[input_shape, array_ops.ones(axes_shape, dtype=input_shape.dtype)])


def _reduced_shape_and_scaling(input_shape, axes):
    """(kept dims, tile multiples) of a static Sum, cached per graph as TensorFlow's
    _SumGrad caches them; a miss builds (and leaves unused) its Maximum and floordiv nodes,
    as TensorFlow's _SafeShapeDiv does."""
    graph = get_default_graph()
    cache = graph.__dict__.setdefault("_reduced_shape_cache", {})
    key = (input_shape, tuple(int(a) for a in axes))
    if key not in cache:
        kept = tuple(int(d) for d in reduced_shape(input_shape, axes))
        math_ops.floordiv(input_shape, math_ops.maximum(kept, 1))
        cache[key] = kept, tuple(d // max(k, 1) for d, k in zip(input_shape, kept))
    return cache[key]


@RegisterGradient("Sum")
def _sum_grad(op, grad):
    input_0_shape = _shape_tuple(op.inputs[0])
    if input_0_shape is not None:
        axes = constant_value(op.inputs[1])
        if axes is not None:
            rank = len(input_0_shape)
            if np.array_equal(axes, np.arange(rank)):
                grad = array_ops.reshape(grad, [1] * rank)
                if None not in input_0_shape:
                    input_shape = constant(input_0_shape, dtype=dtypes.int32)
                else:
                    input_shape = array_ops.shape(op.inputs[0])
                return [array_ops.tile(grad, input_shape), None]
            if None not in input_0_shape:
                axes = np.asarray(axes).reshape(-1)
                kept, scaling = _reduced_shape_and_scaling(tuple(input_0_shape), axes)
                grad = array_ops.reshape(grad, kept)
                return [array_ops.tile(grad, scaling), None]
    input_shape = array_ops.shape(op.inputs[0])
    if not op.get_attr("keep_dims"):
        with get_default_graph().colocate_with(input_shape):
            kept = reduced_shape(input_shape, op.inputs[1])
        grad = array_ops.reshape(grad, kept)
    return [array_ops.broadcast_to(grad, input_shape), None]


@RegisterGradient("Mean")
def _mean_grad(op, grad):
    sum_grad = _sum_grad(op, grad)[0]
    input_shape = _shape_tuple(op.inputs[0])
    output_shape = _shape_tuple(op.outputs[0])
    if (input_shape is not None and output_shape is not None
            and None not in input_shape and None not in output_shape):
        factor = int(np.prod(input_shape, dtype=np.int64)) // max(
            int(np.prod(output_shape, dtype=np.int64)), 1)
        factor = constant(factor, dtype=sum_grad.dtype)
    else:
        input_shape = array_ops.shape(op.inputs[0])
        input_rank = array_ops.size(input_shape)
        axes = math_ops.cast(op.inputs[1], input_rank.dtype)
        axes = (axes + input_rank) % input_rank
        factor = math_ops.reduce_prod(array_ops.gather(input_shape, axes))
    return math_ops.truediv(sum_grad, math_ops.cast(factor, sum_grad.dtype)), None


def _min_or_max_grad(op, grad):
    input_shape = array_ops.shape(op.inputs[0])
    y = op.outputs[0]
    if not op.get_attr("keep_dims"):
        kept = reduced_shape(input_shape, op.inputs[1])
        y = array_ops.reshape(y, kept)
        grad = array_ops.reshape(grad, kept)
    else:
        kept = array_ops.shape(y)
    indicators = math_ops.cast(math_ops.equal(y, op.inputs[0]), grad.dtype)
    num_selected = array_ops.reshape(math_ops.reduce_sum(indicators, op.inputs[1]), kept)
    return [math_ops.divide(indicators, num_selected) * grad, None]


RegisterGradient("Max")(_min_or_max_grad)
RegisterGradient("Min")(_min_or_max_grad)


@RegisterGradient("Prod")
def _prod_grad(op, grad):
    """Cumulative products left and right of each element, on the reduced axes moved first."""
    input_shape = array_ops.shape(op.inputs[0])
    reduction_indices = array_ops.reshape(op.inputs[1], [-1])
    if not op.get_attr("keep_dims"):
        kept = reduced_shape(input_shape, op.inputs[1])
        grad = array_ops.reshape(grad, kept)
    grad = array_ops.broadcast_to(grad, input_shape)
    with get_default_graph().device("/cpu:0"):
        rank = array_ops.rank(op.inputs[0])
        reduction_indices = math_ops.cast(reduction_indices, rank.dtype)
        reduced = (reduction_indices + rank) % rank
        idx = math_ops.range(0, rank)
        other, _ = apply_op("ListDiff", x=idx, y=reduced, out_idx=reduced.dtype)
        perm = array_ops.concat([reduced, other], 0)
        reduced_num = math_ops.reduce_prod(array_ops.gather(input_shape, reduced))
        other_num = math_ops.reduce_prod(array_ops.gather(input_shape, other))
    permuted = array_ops.transpose(op.inputs[0], perm)
    permuted_shape = array_ops.shape(permuted)
    reshaped = array_ops.reshape(permuted, (reduced_num, other_num))
    left = math_ops.cumprod(reshaped, axis=0, exclusive=True)
    right = math_ops.cumprod(reshaped, axis=0, exclusive=True, reverse=True)
    y = array_ops.reshape(left * right, permuted_shape)
    out = grad * array_ops.transpose(y, array_ops.invert_permutation(perm))
    return array_ops.reshape(out, input_shape), None


# -- matmul --

@RegisterGradient("MatMul")
def _mat_mul_grad(op, grad):
    t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    a, b = op.inputs

    def mat_mul(x, y, ta=False, tb=False, **kw):
        return apply_op("MatMul", a=x, b=y, transpose_a=ta, transpose_b=tb, **kw)

    if not t_a and not t_b:
        grad_a = mat_mul(grad, b, tb=True, grad_a=True)
        grad_b = mat_mul(a, grad, ta=True, grad_b=True)
    elif not t_a and t_b:
        grad_a = mat_mul(grad, b, grad_a=True)
        grad_b = mat_mul(grad, a, ta=True, grad_b=True)
    elif t_a and not t_b:
        grad_a = mat_mul(b, grad, tb=True, grad_a=True)
        grad_b = mat_mul(a, grad, grad_b=True)
    else:
        grad_a = mat_mul(b, grad, ta=True, tb=True, grad_a=True)
        grad_b = mat_mul(grad, a, ta=True, tb=True, grad_b=True)
    return grad_a, grad_b


def _batch_mat_mul(x, y, adj_x, adj_y, grad_x=False, grad_y=False, v1=False):
    """math_ops.matmul(x, y, adjoint_a=, adjoint_b=, grad_a=, grad_b=) as TensorFlow builds it."""
    x_rank, y_rank = x.shape.ndims, y.shape.ndims
    if x_rank is None or x_rank > 2 or y_rank is None or y_rank > 2:
        grads = {} if v1 else {"grad_x": grad_x, "grad_y": grad_y}
        # math_ops.matmul names its batched product as its plain one: "MatMul"
        return apply_op("BatchMatMulV2", x=x, y=y, adj_x=adj_x, adj_y=adj_y, name="MatMul",
                        **grads)
    grads = {} if v1 else {"grad_a": grad_x, "grad_b": grad_y}
    return apply_op("MatMul", a=x, b=y, transpose_a=adj_x, transpose_b=adj_y, **grads)


@RegisterGradient("BatchMatMul")
@RegisterGradient("BatchMatMulV2")
@RegisterGradient("BatchMatMulV3")
def _batch_mat_mul_grad(op, grad):
    x, y = op.inputs
    adj_x, adj_y = op.get_attr("adj_x"), op.get_attr("adj_y")
    v1 = op.type == "BatchMatMul"
    if not adj_x:
        if not adj_y:
            grad_x = _batch_mat_mul(grad, y, False, True, grad_x=True, v1=v1)
            grad_y = _batch_mat_mul(x, grad, True, False, grad_y=True, v1=v1)
        else:
            grad_x = _batch_mat_mul(grad, y, False, False, grad_x=True, v1=v1)
            grad_y = _batch_mat_mul(grad, x, True, False, grad_y=True, v1=v1)
    elif not adj_y:
        grad_x = _batch_mat_mul(y, grad, False, True, grad_x=True, v1=v1)
        grad_y = _batch_mat_mul(x, grad, False, False, grad_y=True, v1=v1)
    else:
        grad_x = _batch_mat_mul(y, grad, True, True, grad_x=True, v1=v1)
        grad_y = _batch_mat_mul(grad, x, True, True, grad_y=True, v1=v1)
    sx_static, sy_static = x.shape, y.shape
    may_batch = (sx_static.ndims is None or sx_static.ndims > 2
                 or sy_static.ndims is None or sy_static.ndims > 2)
    batch_match = (sx_static.ndims is not None and sy_static.ndims is not None
                   and sx_static[:-2].is_fully_defined() and sy_static[:-2].is_fully_defined()
                   and sx_static[:-2].as_list() == sy_static[:-2].as_list())
    if op.type == "BatchMatMul" or not may_batch or batch_match:
        return grad_x, grad_y
    sx, sy = array_ops.shape(x), array_ops.shape(y)
    rx, ry = apply_op("BroadcastGradientArgs", s0=sx[:-2], s1=sy[:-2])
    grad_x = array_ops.reshape(math_ops.reduce_sum(grad_x, rx), sx)
    grad_y = array_ops.reshape(math_ops.reduce_sum(grad_y, ry), sy)
    return grad_x, grad_y


@RegisterGradient("Cumprod")
def _cumprod_grad(op, grad):
    """The cumulative sum, the other way, of the products times grad, over x (0 where x is
    0: div_no_nan)."""
    x, axis = op.inputs
    exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
    prod = math_ops.cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = math_ops.cumsum(prod * grad, axis, exclusive=exclusive, reverse=not reverse)
    return [_div_no_nan(out, x), None]


@RegisterGradient("ClipByValue")
def _clip_by_value_grad(op, grad):
    """grad where x is inside [min, max]; below min it goes to min, above max to max, each
    summed down to its input's shape (TensorFlow registers it in clip_ops.py)."""
    x, y, z = op.inputs
    gdtype = grad.dtype
    sx = array_ops.shape(x)
    sy = array_ops.shape(y)
    sz = array_ops.shape(z)
    gradshape = array_ops.shape(grad)
    zeros = array_ops.zeros(gradshape, gdtype)
    xymask = math_ops.less(x, y)
    xzmask = math_ops.greater(x, z)
    _, ry = apply_op("BroadcastGradientArgs", s0=sx, s1=sy)
    _, rz = apply_op("BroadcastGradientArgs", s0=sx, s1=sz)
    xgrad = array_ops.where(math_ops.logical_or(xymask, xzmask), zeros, grad)
    ygrad = array_ops.where(xymask, grad, zeros)
    zgrad = array_ops.where(xzmask, grad, zeros)
    gy = array_ops.reshape(math_ops.reduce_sum(ygrad, ry), sy)
    gz = array_ops.reshape(math_ops.reduce_sum(zgrad, rz), sz)
    return xgrad, gy, gz


@RegisterGradient("Cumsum")
def _cumsum_grad(op, grad):
    axis = op.inputs[1]
    return [math_ops.cumsum(grad, axis, exclusive=op.get_attr("exclusive"),
                            reverse=not op.get_attr("reverse")), None]


__all__ = ["reduce_gradient_args", "smart_broadcast_gradient_args", "reduced_shape", "dense",
           "is_zeros_tensor"]
