"""Math ops (tf.add, tf.matmul, tf.reduce_sum, ...) and the Tensor operators, as TF 1.x builds them."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.framework.tensor import Tensor


def _unary(op_type):
    def fn(x, name=None):
        return apply_op(op_type, x=x, name=name)
    fn.__name__ = op_type.lower()
    return fn


negative = neg = _unary("Neg")
square = _unary("Square")
sqrt = _unary("Sqrt")
rsqrt = _unary("Rsqrt")
exp = _unary("Exp")
log = _unary("Log")
log1p = _unary("Log1p")
expm1 = _unary("Expm1")
tanh = _unary("Tanh")
sign = _unary("Sign")
floor = _unary("Floor")
ceil = _unary("Ceil")
reciprocal = _unary("Reciprocal")
sin, cos, tan = _unary("Sin"), _unary("Cos"), _unary("Tan")
asin, acos, atan = _unary("Asin"), _unary("Acos"), _unary("Atan")
sinh, cosh = _unary("Sinh"), _unary("Cosh")
erf, erfc = _unary("Erf"), _unary("Erfc")
is_nan, is_inf, is_finite = _unary("IsNan"), _unary("IsInf"), _unary("IsFinite")
logical_not = _unary("LogicalNot")


def _binary(op_type):
    def fn(x, y, name=None):
        return apply_op(op_type, x=x, y=y, name=name)
    fn.__name__ = op_type.lower()
    return fn


subtract = sub = _binary("Sub")
multiply = mul = _binary("Mul")
maximum = _binary("Maximum")
minimum = _binary("Minimum")
floor_div = _binary("FloorDiv")
floormod = mod = _binary("FloorMod")
truncatediv = _binary("TruncateDiv")
truncatemod = _binary("TruncateMod")
squared_difference = _binary("SquaredDifference")
realdiv = _binary("RealDiv")
equal = _binary("Equal")
not_equal = _binary("NotEqual")
less = _binary("Less")
less_equal = _binary("LessEqual")
greater = _binary("Greater")
greater_equal = _binary("GreaterEqual")
logical_and = _binary("LogicalAnd")
logical_or = _binary("LogicalOr")


def atan2(y, x, name=None):
    """atan2(y, x): the OpDef's inputs are y, then x (a _binary wrapper fed y as x)."""
    return apply_op("Atan2", y=y, x=x, name=name)


def add(x, y, name=None):
    with name_scope(name, "Add", [x]) as name:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        op_type = "Add" if x.dtype == dtypes.string else "AddV2"
        return apply_op(op_type, x=x, y=y, name=name)


def add_n(inputs, name=None):
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")
    inputs = [t if isinstance(t, IndexedSlices) else convert_to_tensor(t) for t in inputs]
    if len(inputs) == 1:
        # TensorFlow returns a single input itself; an Identity only when a name is given.
        value = convert_to_tensor(inputs[0])
        return apply_op("Identity", input=value, name=name) if name else value
    return apply_op("AddN", inputs=inputs, name=name)


def abs(x, name=None):  # noqa: A001  (TensorFlow's name)
    with name_scope(name, "Abs", [x]) as name:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return apply_op("ComplexAbs", x=x, Tout=x.dtype.real_dtype, name=name)
        return apply_op("Abs", x=x, name=name)


def sigmoid(x, name=None):
    with name_scope(name, "Sigmoid", [x]) as name:
        x = convert_to_tensor(x, name="x")
        return apply_op("Sigmoid", x=x, name=name)


def round(x, name=None):  # noqa: A001
    x = convert_to_tensor(x, name="x")
    if x.dtype.is_integer:
        return x
    return apply_op("Round", x=x, name=name)


def pow(x, y, name=None):  # noqa: A001
    with name_scope(name, "Pow", [x]) as name:
        return apply_op("Pow", x=x, y=y, name=name)


_TRUEDIV_TABLE = {
    dtypes.uint8: dtypes.float32, dtypes.int8: dtypes.float32, dtypes.uint16: dtypes.float32,
    dtypes.int16: dtypes.float32, dtypes.uint32: dtypes.float64, dtypes.int32: dtypes.float64,
    dtypes.uint64: dtypes.float64, dtypes.int64: dtypes.float64, dtypes.bfloat16: None,
    dtypes.float16: None, dtypes.float32: None, dtypes.float64: None, dtypes.complex64: None,
    dtypes.complex128: None}


def _true_division_operands(x, y, where):
    """x and y of one dtype, cast to the float type a true division takes (_TRUEDIV_TABLE:
    integers to floats), or TensorFlow's TypeError naming `where`."""
    x_dtype, y_dtype = x.dtype.base_dtype, y.dtype.base_dtype
    if x_dtype != y_dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x_dtype!r} != "
                        f"{y_dtype!r}.")
    try:
        dtype = _TRUEDIV_TABLE[x_dtype]
    except KeyError:
        raise TypeError(f"Invalid dtype {x_dtype!r} in {where}") from None
    if dtype is not None:
        x = cast(x, dtype)
        y = cast(y, dtype)
    return x, y


def _truediv_python3(x, y, name=None):
    with name_scope(name, "truediv", [x, y]) as name:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        x, y = _true_division_operands(x, y, "__truediv__")
        return apply_op("RealDiv", x=x, y=y, name=name)


def truediv(x, y, name=None):
    return _truediv_python3(x, y, name)


def div_no_nan(x, y, name=None):
    """tf.math.divide_no_nan (tf.div_no_nan): x / y, 0 where y is 0, under name scope
    "div_no_nan" as TensorFlow's wrapper (integers divided as floats, as truediv)."""
    with name_scope(name, "div_no_nan", [x, y]) as name:
        if not isinstance(x, Tensor) and isinstance(y, Tensor):
            y = convert_to_tensor(y, name="y")
            x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
        else:
            x = convert_to_tensor(x, name="x")
            y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        x, y = _true_division_operands(x, y, "tf.math.divide_no_nan.")
        return apply_op("DivNoNan", x=x, y=y, name=name)


def divide(x, y, name=None):
    if name is not None:
        return _truediv_python3(x, y, name)
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype if isinstance(y, Tensor) else None)
    return x / y


def div(x, y, name=None):
    """TF 1.x tf.div: RealDiv for floats, FloorDiv for integers."""
    with name_scope(name, "div", [x, y]) as name:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.is_floating or x.dtype.is_complex:
            return apply_op("RealDiv", x=x, y=y, name=name)
        return apply_op("FloorDiv", x=x, y=y, name=name)


def floordiv(x, y, name=None):
    with name_scope(name, "floordiv", [x, y]) as name:
        return apply_op("FloorDiv", x=x, y=y, name=name)


def scalar_mul(scalar, x, name=None):
    scalar = convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
    if scalar.shape.ndims != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape "
                         f"{scalar.shape}.")
    return apply_op("Mul", x=scalar, y=x, name=name)


def saturate_cast(value, dtype, name=None):
    """The value clamped (ClipByValue "clamp") to what `dtype` holds, then cast: TensorFlow
    2.21 clamps whatever the dtypes (forward compatibility past 2024-11-01)."""
    with name_scope(name, "saturate_cast", [value]) as name:
        value = convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        in_dtype = value.dtype
        if in_dtype.is_complex or dtype.is_complex:
            return cast(value, dtype, name=name)
        np_dtype = in_dtype.as_numpy_dtype
        try:
            promoted_type = np.promote_types(np_dtype, dtype.as_numpy_dtype)
        except TypeError:
            promoted_type = float
        min_limit = np_dtype(np.maximum(in_dtype.min, dtype.min))
        promoted = np.array([min_limit, dtype.min], dtype=promoted_type)
        if promoted[0] < promoted[1]:
            min_limit = np.nextafter(min_limit, np_dtype(0), dtype=np_dtype)
        max_limit = np_dtype(np.minimum(float(in_dtype.max), float(dtype.max)))
        promoted = np.array([max_limit, dtype.max], dtype=promoted_type)
        if promoted[0] > promoted[1]:
            max_limit = np.nextafter(max_limit, np_dtype(0), dtype=np_dtype)
        value = apply_op("ClipByValue", t=value,
                         clip_value_min=convert_to_tensor(min_limit, dtype=in_dtype),
                         clip_value_max=convert_to_tensor(max_limit, dtype=in_dtype),
                         name="clamp")
        return cast(value, dtype, name=name)


def _cast_fn(dtype, default_name):
    def fn(x, name=default_name):
        return cast(x, dtype, name=name)
    fn.__name__ = default_name
    return fn


to_float = _cast_fn(dtypes.float32, "ToFloat")
to_double = _cast_fn(dtypes.float64, "ToDouble")
to_int32 = _cast_fn(dtypes.int32, "ToInt32")
to_int64 = _cast_fn(dtypes.int64, "ToInt64")
to_bfloat16 = _cast_fn(dtypes.bfloat16, "ToBFloat16")
to_complex64 = _cast_fn(dtypes.complex64, "ToComplex64")


def logical_xor(x, y, name="LogicalXor"):
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    with name_scope(name, "MatMul", [a, b]) as name:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, dtype_hint=a.dtype.base_dtype, name="b")
        a_rank, b_rank = a.shape.ndims, b.shape.ndims
        if (a_rank is None or a_rank > 2) or (b_rank is None or b_rank > 2):
            adj_x = adjoint_a or transpose_a
            adj_y = adjoint_b or transpose_b
            # TensorFlow 2.21 makes a BatchMatMulV3 only for an output type of its own.
            if output_type and (output_type != a.dtype or output_type != b.dtype):
                return apply_op("BatchMatMulV3", x=a, y=b, adj_x=adj_x, adj_y=adj_y,
                                Tout=output_type, name=name)
            return apply_op("BatchMatMulV2", x=a, y=b, adj_x=adj_x, adj_y=adj_y, name=name)
        # MatMul has no adjoint: TensorFlow conjugates a complex operand first.
        if adjoint_a and a.dtype.is_complex:
            a = apply_op("Conj", input=a)
        if adjoint_b and b.dtype.is_complex:
            b = apply_op("Conj", input=b)
        return apply_op("MatMul", a=a, b=b, transpose_a=transpose_a or adjoint_a,
                        transpose_b=transpose_b or adjoint_b, name=name)


# -- reductions --

def _reduction_dims(x, axis):
    if axis is not None:
        return axis
    x = convert_to_tensor(x)
    rank = x.shape.ndims
    if rank:  # TensorFlow's test: a rank-0 input, like an unknown rank, gets Rank + range
        return constant(np.arange(rank, dtype=np.int32))
    return range(0, array_ops.rank(x), 1)


def _may_reduce_to_scalar(keepdims, axis, output):
    """A reduction over all axes without keepdims is a scalar, whatever the input's rank."""
    if not output.shape.is_fully_defined() and not keepdims and axis is None:
        output.set_shape(())
    return output


def _reducer(op_type, input_name="input"):
    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
           keep_dims=None):
        axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
        keepdims = bool(deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
        return _may_reduce_to_scalar(keepdims, axis, apply_op(
            op_type, input=input_tensor, reduction_indices=_reduction_dims(input_tensor, axis),
            keep_dims=keepdims, name=name))
    fn.__name__ = "reduce_" + op_type.lower()
    return fn


reduce_sum = _reducer("Sum")
reduce_mean = _reducer("Mean")
reduce_max = _reducer("Max")
reduce_min = _reducer("Min")
reduce_prod = _reducer("Prod")
reduce_all = _reducer("All")
reduce_any = _reducer("Any")


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    input_tensor = deprecated_argument_lookup("input", input, "input_tensor", input_tensor)
    axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    with name_scope(name, "count_nonzero", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input")
        if input_tensor.dtype == dtypes.bool:  # a bool tensor is its own predicate
            predicate = input_tensor
        else:
            zero = array_ops.zeros([], dtype=input_tensor.dtype)
            predicate = apply_op("NotEqual", x=input_tensor, y=zero)
        return cast(reduce_sum(cast(predicate, dtypes.int64), axis=axis, keepdims=keepdims),
                    dtype=dtype)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None,
                     reduction_indices=None, keep_dims=None):
    axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(deprecated_argument_lookup("keepdims", keepdims or None, "keep_dims", keep_dims))
    with name_scope(name, "ReduceLogSumExp", [input_tensor]) as name:
        raw_max = reduce_max(input_tensor, axis=axis, keepdims=True)
        my_max = array_ops.stop_gradient(
            apply_op("SelectV2", condition=is_finite(raw_max), t=raw_max, e=0))
        result = log(reduce_sum(exp(subtract(input_tensor, my_max)), axis=axis,
                                keepdims=keepdims))
        if not keepdims:
            my_max = array_ops.reshape(my_max, apply_op("Shape", input=result))
        return _may_reduce_to_scalar(keepdims, axis, add(result, my_max, name=name))


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
    axis = deprecated_argument_lookup("axis", axis, "dimension", dimension)
    return apply_op("ArgMax", input=input, dimension=0 if axis is None else axis,
                    output_type=output_type, name=name)


def argmin(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
    axis = deprecated_argument_lookup("axis", axis, "dimension", dimension)
    return apply_op("ArgMin", input=input, dimension=0 if axis is None else axis,
                    output_type=output_type, name=name)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    with name_scope(name, "Cumsum", [x]) as name:
        x = convert_to_tensor(x, name="x")
        return apply_op("Cumsum", x=x, axis=axis, exclusive=exclusive, reverse=reverse,
                        name=name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    with name_scope(name, "Cumprod", [x]) as name:
        x = convert_to_tensor(x, name="x")
        return apply_op("Cumprod", x=x, axis=axis, exclusive=exclusive, reverse=reverse,
                        name=name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    with name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as name:
        values = convert_to_tensor(t, name="t")
        t_min = minimum(values, clip_value_max)
        return maximum(t_min, clip_value_min, name=name)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    with name_scope(name, "Range", [start, limit, delta]) as name:
        if not isinstance(start, Tensor):
            start = convert_to_tensor(start, dtype=dtype, name="start")
        if not isinstance(limit, Tensor):
            limit = convert_to_tensor(limit, dtype=dtype, name="limit")
        if not isinstance(delta, Tensor):
            delta = convert_to_tensor(delta, dtype=dtype, name="delta")
        if dtype is None:
            order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
            inferred = max((start.dtype, limit.dtype, delta.dtype), key=order.index)
        else:
            inferred = dtypes.as_dtype(dtype)
        # Cast even with dtype given: a tensor limit of another dtype (as TensorFlow).
        start, limit, delta = (cast(v, inferred) for v in (start, limit, delta))
        return apply_op("Range", start=start, limit=limit, delta=delta, name=name)


def bias_add(value, bias, data_format=None, name=None):
    with name_scope(name, "BiasAdd", [value, bias]) as name:
        value = convert_to_tensor(value, name="input")
        bias = convert_to_tensor(bias, dtype=value.dtype, name="bias")
        return apply_op("BiasAdd", value=value, bias=bias, data_format=data_format or "NHWC",
                        name=name)


# -- the Tensor operators --

def _binary_operator(op_name, func):
    def binary(x, y):
        with name_scope(None, op_name, [x, y]) as name:
            try:
                y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
            except TypeError:
                # A RaggedTensor: its reflected operator, in this scope as TensorFlow's
                # binary_op_wrapper calls it
                reflected = getattr(type(y), f"__r{op_name}__", None)
                if reflected is not None and hasattr(y, "nested_row_splits"):
                    return reflected(y, x)
                return NotImplemented
            return func(x, y, name=name)

    def r_binary(y, x):
        with name_scope(None, op_name, [x, y]) as name:
            x = convert_to_tensor(x, dtype_hint=y.dtype.base_dtype, name="x")
            return func(x, y, name=name)

    return binary, r_binary


def _add_dispatch(x, y, name=None):
    if x.dtype == dtypes.string:
        return apply_op("Add", x=x, y=y, name=name)
    return apply_op("AddV2", x=x, y=y, name=name)


def _mul_dispatch(x, y, name=None):
    return apply_op("Mul", x=x, y=y, name=name)


def _install_operators():
    table = {
        "add": ("add", _add_dispatch),
        "sub": ("sub", subtract),
        "mul": ("mul", _mul_dispatch),
        "truediv": ("truediv", _truediv_python3),
        "floordiv": ("floordiv", floordiv),
        "mod": ("mod", mod),
        "pow": ("pow", pow),
        "and": ("and", logical_and),
        "or": ("or", logical_or),
        "xor": ("xor", logical_xor),
        "matmul": ("matmul", matmul),
    }
    for dunder, (op_name, func) in table.items():
        binary, r_binary = _binary_operator(op_name, func)
        setattr(Tensor, f"__{dunder}__", binary)
        setattr(Tensor, f"__r{dunder}__", r_binary)
    Tensor.__div__ = Tensor.__truediv__
    Tensor.__rdiv__ = Tensor.__rtruediv__
    Tensor.__neg__ = lambda self: negative(self)
    Tensor.__abs__ = lambda self: abs(self)
    Tensor.__invert__ = lambda self: logical_not(self)
    Tensor.__lt__ = lambda self, other: less(self, other)
    Tensor.__le__ = lambda self, other: less_equal(self, other)
    Tensor.__gt__ = lambda self, other: greater(self, other)
    Tensor.__ge__ = lambda self, other: greater_equal(self, other)


_install_operators()
