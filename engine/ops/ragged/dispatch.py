"""The dispatch of TensorFlow's elementwise ops, reductions, concat, stack, gather and
boolean_mask onto RaggedTensors (ragged_dispatch.py, dynamic_ragged_shape.py's binary
handler): a wrapper per API function that passes anything not ragged straight through."""

import functools

from engine.ops import array_ops, math_ops
from engine.ops.ragged import ragged_array, ragged_math, ragged_ops
from engine.ops.ragged.getitem import ragged_getitem
from engine.ops.ragged.ragged_tensor import RaggedTensor

UNARY = """abs negative square sqrt rsqrt exp expm1 log log1p sigmoid tanh sin cos tan asin acos
atan sinh cosh asinh acosh atanh floor ceil round rint sign reciprocal logical_not cast
saturate_cast ones_like zeros_like is_nan is_inf is_finite erf erfc lgamma digamma
softplus softsign relu relu6 elu selu leaky_relu log_sigmoid imag real conj angle
as_string length lower upper strip to_hash_bucket_fast to_hash_bucket to_hash_bucket_strong
substr regex_full_match regex_replace clip_by_value""".split()
BINARY = """add subtract multiply divide truediv floordiv realdiv div maximum minimum pow equal
not_equal less less_equal greater greater_equal logical_and logical_or logical_xor
squared_difference floormod mod truncatediv truncatemod div_no_nan atan2 xdivy xlogy""".split()
REDUCTIONS = {"reduce_sum": ragged_math.reduce_sum, "reduce_mean": ragged_math.reduce_mean,
              "reduce_max": ragged_math.reduce_max, "reduce_min": ragged_math.reduce_min,
              "reduce_prod": ragged_math.reduce_prod, "reduce_all": ragged_math.reduce_all,
              "reduce_any": ragged_math.reduce_any}
_API = []  # the tf module, once installed: variance and std call its dispatched functions


def _reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """ragged_math_ops.reduce_variance: mean of squares less the squared mean, at least 0."""
    from engine.framework.default_graph import name_scope
    tf = _API[0]
    with name_scope(name, "RaggedReduceVariance", [input_tensor, axis]):
        input_tensor = ragged_ops.convert_to_tensor_or_ragged_tensor(input_tensor,
                                                                     name="input_tensor")
        if input_tensor.dtype.is_complex:
            raise ValueError("reduce_variance is not supported for RaggedTensors with complex "
                             "dtypes.")
        square_of_input = tf.square(input_tensor)
        mean_of_square = ragged_math.reduce_mean(square_of_input, axis=axis, keepdims=keepdims)
        mean = ragged_math.reduce_mean(input_tensor, axis=axis, keepdims=keepdims)
        square_of_mean = tf.square(mean)
        return tf.maximum(mean_of_square - square_of_mean, 0)


def _reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    from engine.framework.default_graph import name_scope
    with name_scope(name, "RaggedReduceStd", [input_tensor, axis]):
        variance = _reduce_variance(input_tensor, axis=axis, keepdims=keepdims)
        return _API[0].sqrt(variance)


REDUCTIONS.update(reduce_variance=_reduce_variance, reduce_std=_reduce_std)


def _is_ragged(value):
    return type(value) is RaggedTensor


def unary(fn):
    @functools.wraps(fn)
    def dispatch(*args, **kwargs):
        if args and _is_ragged(args[0]):
            x, rest = args[0], args[1:]
            return x.with_values(dispatch(x.values, *rest, **kwargs))
        return fn(*args, **kwargs)
    return dispatch


def binary_elementwise(op, x, y):
    """ragged_binary_elementwise_op_impl for operands of equal row partitions, or a ragged
    operand with a dense one of lower rank than its flat values' (broadcast inside them)."""
    x_is_ragged, y_is_ragged = _is_ragged(x), _is_ragged(y)
    x = ragged_ops.convert_to_tensor_or_ragged_tensor(
        x, preferred_dtype=(y.dtype if y_is_ragged else None))
    y = ragged_ops.convert_to_tensor_or_ragged_tensor(y, preferred_dtype=x.dtype)
    if x_is_ragged and y_is_ragged:
        x, y = ragged_ops.match_row_splits_dtypes(x, y)
        if x.ragged_rank != y.ragged_rank:
            raise ValueError("the engine applies a binary op to two RaggedTensors of the same "
                             "ragged_rank only")
        # DynamicRaggedShape.from_tensor's inner shapes, which TensorFlow builds (unused)
        for operand in (x, y):
            math_ops.cast(array_ops.shape(operand.flat_values), operand.row_splits.dtype)
        if all(a is b for a, b in zip(x._nested_row_partitions, y._nested_row_partitions)):
            return from_partitions(op(x.flat_values, y.flat_values),
                                   x._nested_row_partitions)
        return ragged_ops.map_flat_values(op, x, y)
    if x_is_ragged and x.flat_values.shape.ndims <= y.shape.ndims:
        return x.with_flat_values(op(x.flat_values, _dense_per_value(y, x)))
    if y_is_ragged and y.flat_values.shape.ndims <= x.shape.ndims:
        return y.with_flat_values(op(_dense_per_value(x, y), y.flat_values))
    x_values = x.flat_values if x_is_ragged else x
    y_values = y.flat_values if y_is_ragged else y
    mapped = op(x_values, y_values)
    return (x if x_is_ragged else y).with_flat_values(mapped)


def from_partitions(flat_values, partitions):
    result = flat_values
    for partition in reversed(partitions):
        result = RaggedTensor(result, partition, internal=True)
    return result


def _dense_per_value(dense, rt):
    """A dense operand of the ragged one's rank, size 1 along the ragged dimension, as one
    row per flat value (gathered by value_rowids). TensorFlow broadcasts through its
    DynamicRaggedShape (other nodes, the same values); other shapes are refused."""
    dims = dense.shape.as_list() if dense.shape.ndims is not None else None
    if (rt.ragged_rank != 1 or dims is None or len(dims) != rt.shape.ndims
            or dims[1] != 1):
        raise ValueError("the engine broadcasts a RaggedTensor (ragged_rank 1) with a Tensor "
                         "of lower rank than its flat_values, or of its rank and size 1 along "
                         "the ragged dimension, only")
    rows = array_ops.squeeze(dense, axis=[1])
    if dims[0] == 1:
        return rows[0]
    return array_ops.gather(rows, rt.value_rowids())


def binary(fn):
    @functools.wraps(fn)
    def dispatch(*args, **kwargs):
        if len(args) >= 2 and (_is_ragged(args[0]) or _is_ragged(args[1])):
            x, y, rest = args[0], args[1], args[2:]
            return binary_elementwise(lambda a, b: fn(a, b, *rest, **kwargs), x, y)
        if any(_is_ragged(v) for v in kwargs.values()) or any(_is_ragged(a) for a in args):
            names = list(fn.__code__.co_varnames[:2])
            bound = dict(zip(names, args))
            bound.update(kwargs)
            x, y = bound.pop(names[0]), bound.pop(names[1])
            return binary_elementwise(lambda a, b: fn(a, b, **bound), x, y)
        return fn(*args, **kwargs)
    return dispatch


def reduction(fn, ragged_fn):
    @functools.wraps(fn)
    def dispatch(*args, **kwargs):
        names = ("input_tensor", "axis", "keepdims", "name", "reduction_indices", "keep_dims")
        bound = dict(zip(names, args))
        bound.update(kwargs)
        if not _is_ragged(bound.get("input_tensor")):
            return fn(*args, **kwargs)
        axis = bound.get("axis")
        if axis is None:
            axis = bound.get("reduction_indices")
        keepdims = bound.get("keepdims")
        if keepdims is None:
            keepdims = bound.get("keep_dims")
        return ragged_fn(bound["input_tensor"], axis, bool(keepdims), bound.get("name"))
    return dispatch


def _any_ragged(values):
    return isinstance(values, (list, tuple)) and any(_is_ragged(v) for v in values)


def concat(fn):
    @functools.wraps(fn)
    def dispatch(values, axis, name="concat"):
        if _any_ragged(values):
            return ragged_array.concat(values, axis, name=None if name == "concat" else name)
        return fn(values, axis, name)
    return dispatch


def stack(fn):
    @functools.wraps(fn)
    def dispatch(values, axis=0, name="stack"):
        if _any_ragged(values):
            return ragged_array.stack(values, axis, name=None if name == "stack" else name)
        return fn(values, axis, name)
    return dispatch


def gather(fn):
    @functools.wraps(fn)
    def dispatch(params, indices, *args, **kwargs):
        if _is_ragged(params) or _is_ragged(indices):
            names = ("validate_indices", "name", "axis", "batch_dims")
            bound = dict(zip(names, args))
            bound.update(kwargs)
            return ragged_array.gather(params, indices, axis=bound.get("axis"),
                                     batch_dims=bound.get("batch_dims", 0),
                                     name=bound.get("name"))
        return fn(params, indices, *args, **kwargs)
    return dispatch


def first_argument(ragged_fn, names):
    """A function dispatched on its first argument (or keyword `names`) being ragged."""
    def make(fn):
        @functools.wraps(fn)
        def dispatch(*args, **kwargs):
            value = args[0] if args else next((kwargs[n] for n in names if n in kwargs), None)
            if _is_ragged(value):
                return ragged_fn(*args, **kwargs)
            return fn(*args, **kwargs)
        return dispatch
    return make


def _size(input=None, name=None, out_type=None):  # noqa: A002  (tf.compat.v1.size's order)
    from engine.framework import dtypes
    return ragged_ops.size(input, out_type=out_type or dtypes.int32, name=name)


def _expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    return ragged_ops.expand_dims(input, axis if axis is not None else dim, name=name)


def _squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    return ragged_array.squeeze(input, axis if axis is not None else squeeze_dims, name)


def _reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                 reduction_indices=None, keepdims=None):
    from engine.ops.text_ops import reduce_join
    from engine.ops.unicode_ops import unsorted_segment_join
    axis = axis if axis is not None else reduction_indices
    keepdims = keepdims if keepdims is not None else keep_dims
    return ragged_math.reduce_aggregate(reduce_join, unsorted_segment_join, inputs, axis,
                                       keepdims, separator, name or "RaggedSegmentJoin")


def embedding_lookup(fn):
    """ragged_embedding_ops.embedding_lookup: the lookup of the flat ids, rows kept."""
    @functools.wraps(fn)
    def dispatch(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                 max_norm=None):
        if not _is_ragged(ids):
            return fn(params, ids, partition_strategy, name, validate_indices, max_norm)
        from engine.framework import dtypes
        from engine.framework.default_graph import name_scope
        if params is None:
            raise ValueError("params must be specified.")
        if isinstance(params, (list, tuple)) and not params:
            raise ValueError("params should not be empty.")
        if ids.dtype != dtypes.int32 and ids.dtype != dtypes.int64:
            raise ValueError(f"The values contained by the inputs have type {ids.dtype} and "
                             "cannot be processed. All values should be indices, either of "
                             "type `int32` or `int64`.")
        with name_scope(name, "embedding_lookup_ragged"):
            return ragged_ops.map_flat_values(fn, params=params, ids=ids,
                                              partition_strategy=partition_strategy,
                                              max_norm=max_norm)
    return dispatch


def segment_op(ragged_fn):
    def make(fn):
        @functools.wraps(fn)
        def dispatch(data, segment_ids, num_segments, name=None):
            if _is_ragged(data) or _is_ragged(segment_ids):
                return ragged_fn(data, segment_ids, num_segments, name=name)
            return fn(data, segment_ids, num_segments, name=name)
        return dispatch
    return make


def where(fn):
    @functools.wraps(fn)
    def dispatch(condition, x=None, y=None, name=None):
        if any(_is_ragged(v) for v in (condition, x, y)):
            return ragged_array.where(condition, x, y, name=name)
        return fn(condition, x, y, name)
    return dispatch


def _add_n(fn):
    @functools.wraps(fn)
    def dispatch(inputs, name=None):
        if _any_ragged(inputs):
            return ragged_ops.add_n(inputs, name=name)
        return fn(inputs, name=name)
    return dispatch


def _wrappers(api_module):
    table = {}
    for name in UNARY:
        table[name] = unary
    for name in BINARY:
        table[name] = binary
    for name, ragged_fn in REDUCTIONS.items():
        table[name] = functools.partial(lambda f, r: reduction(f, r), r=ragged_fn)
    # tf.compat.v1.boolean_mask is v1's own function, which TensorFlow does not dispatch
    table.update({name: segment_op(fn) for name, fn in ragged_math.SEGMENT_OPS.items()})
    table.update(concat=concat, stack=stack, gather=gather, add_n=_add_n,
                 embedding_lookup=embedding_lookup, where=where,
                 one_hot=first_argument(ragged_array.one_hot, ("indices",)),
                 identity=first_argument(ragged_ops.identity, ("input",)),
                 size=first_argument(_size, ("input",)),
                 rank=first_argument(ragged_ops.rank, ("input",)),
                 expand_dims=first_argument(_expand_dims, ("input",)),
                 squeeze=first_argument(_squeeze, ("input",)),
                 reduce_join=first_argument(_reduce_join, ("inputs",)))
    return table


def _namespaces(api_module):
    """tf and every namespace under it (tf.math, tf.nn, tf.strings, ...), once each."""
    seen, order = set(), []

    def visit(namespace, depth):
        if id(namespace) in seen or depth > 3:
            return
        seen.add(id(namespace))
        order.append(namespace)
        for value in list(vars(namespace).values()):
            kind = type(value).__name__
            if kind in ("Namespace", "module") and (
                    kind == "Namespace" or getattr(value, "__name__", "").startswith("engine")):
                visit(value, depth + 1)
    visit(api_module, 0)
    return order


def install(api_module):
    """Replaces each dispatched function, under every name TensorFlow gives it, with its
    ragged-aware wrapper (one wrapper per function, so the alias groups stay one object)."""
    _API[:] = [api_module]
    table = _wrappers(api_module)
    originals = {}
    for name, make in table.items():
        for namespace in (api_module, getattr(api_module, "math", None),
                          getattr(api_module, "nn", None), getattr(api_module, "strings", None)):
            fn = vars(namespace).get(name) if namespace is not None else None
            if callable(fn) and id(fn) not in originals and not hasattr(fn, "__ragged__"):
                wrapper = make(fn)
                wrapper.__ragged__ = True
                originals[id(fn)] = (fn, wrapper)
    for namespace in _namespaces(api_module):
        for attr, value in list(vars(namespace).items()):
            entry = originals.get(id(value))
            if entry is not None and entry[0] is value:
                setattr(namespace, attr, entry[1])


_OPERATORS = {"__add__": ("add", False), "__radd__": ("add", True),
              "__sub__": ("subtract", False), "__rsub__": ("subtract", True),
              "__mul__": ("multiply", False), "__rmul__": ("multiply", True),
              "__truediv__": ("truediv", False), "__rtruediv__": ("truediv", True),
              "__div__": ("div", False), "__rdiv__": ("div", True),
              "__floordiv__": ("floordiv", False), "__rfloordiv__": ("floordiv", True),
              "__mod__": ("floormod", False), "__rmod__": ("floormod", True),
              "__pow__": ("pow", False), "__rpow__": ("pow", True),
              "__lt__": ("less", False), "__le__": ("less_equal", False),
              "__gt__": ("greater", False), "__ge__": ("greater_equal", False),
              "__and__": ("logical_and", False), "__rand__": ("logical_and", True),
              "__or__": ("logical_or", False), "__ror__": ("logical_or", True),
              "__xor__": ("logical_xor", False), "__rxor__": ("logical_xor", True)}


def install_operators(api_module):
    """RaggedTensor's operators (ragged_operators.py): the dispatched API functions."""
    for method, (name, reflected) in _OPERATORS.items():
        fn = getattr(api_module, name)
        if reflected:
            # a Tensor on the left calls this inside its operator scope (math_ops.py)
            setattr(RaggedTensor, method, lambda self, other, fn=fn: fn(other, self))
        else:
            setattr(RaggedTensor, method, lambda self, other, fn=fn: fn(self, other))
    RaggedTensor.__getitem__ = ragged_getitem
    RaggedTensor.__neg__ = lambda self: api_module.negative(self)
    RaggedTensor.__abs__ = lambda self: api_module.abs(self)
    RaggedTensor.__invert__ = lambda self: api_module.logical_not(self)
