"""tf.assert_* (tf.debugging.*) as TF 1.x builds them in a graph (TensorFlow's check_ops.py).

A binary assert is `reduce_all(op(x, y))` fed to tf.Assert with TensorFlow's data list
("Condition x == y did not hold element-wise:", "x (name:0) = ", x, ...). When both sides
are constants the condition is decided while building and a failing one raises
InvalidArgumentError at once, its message the data joined by newlines, as TensorFlow does.
"""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.errors import InvalidArgumentError
from engine.ops import array_ops, math_ops
from engine.framework.graph import get_default_graph
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import group, no_op, with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.logging_ops import Assert
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value


def _message_prefix(message):
    return "%s.  " % message if message else ""


def _constant_string(t):
    """What _assert_static shows of one data item: a constant's value, else the item."""
    if not isinstance(t, Tensor):
        return str(t)
    value = constant_value(t)
    return str(value) if value is not None else t


def _assert_static(condition, data):
    if not condition:
        raise InvalidArgumentError(node_def=None, op=None,
                                   message="\n".join(str(_constant_string(x)) for x in data))


def _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name):
    with name_scope(name, opname):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y")
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym,
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        x_static, y_static = constant_value(x), constant_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(np.all(static_func(x_static, y_static)), data)
        return Assert(condition, data, summarize=summarize)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    with name_scope(name, "assert_equal"):
        if x is y:  # the same tensor: nothing to check
            return no_op()
    return _binary_assert("==", "assert_equal", math_ops.equal, np.equal, x, y, data,
                          summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal, x, y,
                          data, summarize, message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<", "assert_less", math_ops.less, np.less, x, y, data, summarize,
                          message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal, x, y,
                          data, summarize, message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">", "assert_greater", math_ops.greater, np.greater, x, y, data,
                          summarize, message, name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">=", "assert_greater_equal", math_ops.greater_equal,
                          np.greater_equal, x, y, data, summarize, message, name)


def _sign_assert(opname, sym, zero_first, compare, x, data, summarize, message, name):
    """assert_positive and its kin: x against a zero of its dtype, TensorFlow's data."""
    message = _message_prefix(message)
    with name_scope(name, opname):
        x = convert_to_tensor(x, name="x")
        if data is None:
            data = [message, "Condition x %s 0 did not hold element-wise:" % sym,
                    "x (%s) = " % x.name, x]
        zero = convert_to_tensor(0, dtype=x.dtype)
        left, right = (zero, x) if zero_first else (x, zero)
        return compare(left, right, data=data, summarize=summarize)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("assert_positive", ">", True, assert_less, x, data, summarize,
                        message, name)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("assert_non_negative", ">=", True, assert_less_equal, x, data,
                        summarize, message, name)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("assert_negative", "<", False, assert_less, x, data, summarize,
                        message, name)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    # TensorFlow's data for this one lacks a comma: its condition and "x (...) = " are one
    # string.
    message = _message_prefix(message)
    with name_scope(name, "assert_non_positive"):
        x = convert_to_tensor(x, name="x")
        if data is None:
            data = [message, "Condition x <= 0 did not hold element-wise:"
                    "x (%s) = " % x.name, x]
        zero = convert_to_tensor(0, dtype=x.dtype)
        return assert_less_equal(x, zero, data=data, summarize=summarize)


def assert_type(tensor, tf_type, message=None, name=None):
    tf_type = dtypes.as_dtype(tf_type)
    with name_scope(name, "assert_type"):
        tensor = convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError(f"{_message_prefix(message)}{tensor.name} must be of type "
                            f"{tf_type!r}; got {tensor.dtype!r}")
        return no_op("statically_determined_correct_type")


def assert_integer(x, message=None, name=None):
    with name_scope(name, "assert_integer"):
        x = convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError('%sExpected "x" to be integer type.  Found: %s of dtype %s'
                            % (_message_prefix(message), x.name, x.dtype))
        return no_op("statically_determined_was_integer")


def assert_scalar(tensor, name=None, message=None):
    with name_scope(name, "assert_scalar") as scope:
        tensor = convert_to_tensor(tensor, name=scope)
        shape = tensor.get_shape()
        if shape.ndims != 0:
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s."
                             % (_message_prefix(message), tensor.name, shape))
        return tensor


def _assert_rank_condition(x, rank, static_condition, dynamic_condition, data, summarize):
    assert_type(rank, dtypes.int32)
    rank_static = constant_value(rank)
    if rank_static is not None:
        if rank_static.ndim != 0:
            raise ValueError("Rank must be a scalar.")
        x_rank_static = x.get_shape().ndims
        if x_rank_static is not None:
            if not static_condition(x_rank_static, rank_static):
                raise ValueError("Static rank condition failed", x_rank_static, rank_static)
            return no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(array_ops.rank(x), rank)
    if rank_static is None:
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
        condition = with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def _rank_assert(opname, words, static_condition, dynamic_condition, x, rank, data,
                 summarize, message, name):
    with name_scope(name, opname):
        x = convert_to_tensor(x, name="x")
        rank = convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        if data is None:
            data = [message, "Tensor %s must have %s" % (x.name, words), rank,
                    "Received shape: ", array_ops.shape(x)]
        try:
            return _assert_rank_condition(x, rank, static_condition, dynamic_condition, data,
                                          summarize)
        except ValueError as e:
            if e.args[0] != "Static rank condition failed":
                raise ValueError(e.args[0]) from None
            raise ValueError("%sTensor %s must have %s %d.  Received rank %d, shape %s"
                             % (message, x.name, words, e.args[2], e.args[1],
                                x.get_shape())) from None


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    return _rank_assert("assert_rank", "rank", lambda actual, given: actual == given,
                        math_ops.equal, x, rank, data, summarize, message, name)


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    return _rank_assert("assert_rank_at_least", "rank at least",
                        lambda actual, given: actual >= given, math_ops.greater_equal, x, rank,
                        data, summarize, message, name)


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """That x's rank is one of `ranks`: a NoOp where the static ranks show it, else an
    Assert (TensorFlow's check_ops.assert_rank_in)."""
    with name_scope(name, "assert_rank_in"):
        x = convert_to_tensor(x, name="x")
        ranks = tuple(convert_to_tensor(rank, name="rank") for rank in ranks)
        message = _message_prefix(message)
        if data is None:
            data = [message, "Tensor %s must have rank in" % x.name, *ranks,
                    "Received shape: ", array_ops.shape(x)]
        for rank in ranks:
            assert_type(rank, dtypes.int32)
        ranks_static = tuple(constant_value(rank) for rank in ranks)
        if not any(r is None for r in ranks_static):
            for rank_static in ranks_static:
                if np.ndim(rank_static) != 0:
                    raise ValueError("Rank must be a scalar.")
            x_rank_static = x.get_shape().ndims
            if x_rank_static is not None:
                if x_rank_static not in [int(r) for r in ranks_static]:
                    raise ValueError("%sTensor %s must have rank in %s.  Received rank %d, "
                                     "shape %s" % (message, x.name,
                                                   tuple(int(r) for r in ranks_static),
                                                   x_rank_static, x.get_shape()))
                return no_op(name="static_checks_determined_all_ok")
        actual = array_ops.rank(x)
        condition = math_ops.equal(ranks[0], actual)
        for rank in ranks[1:]:
            condition = math_ops.logical_or(condition, math_ops.equal(rank, actual))
        for rank, rank_static in zip(ranks, ranks_static):
            if rank_static is None:
                rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ",
                                                        rank])
                condition = with_dependencies([rank_check], condition)
        return Assert(condition, data, summarize=summarize)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None,
                name=None):
    """Asserts |x - y| < atol + rtol * |y| element-wise (tolerances 10 eps by default); no
    static check, as TensorFlow builds it."""
    message = _message_prefix(message)
    with name_scope(name, "assert_near", [x, y, rtol, atol, data]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol", dtype=dtype)
        atol = convert_to_tensor(10 * eps if atol is None else atol, name="atol", dtype=dtype)
        if data is None:
            data = [message,
                    "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        condition = math_ops.reduce_all(math_ops.less(diff, tol))
        return Assert(condition, data, summarize=summarize)


def assert_proper_iterable(values):
    """Raises TypeError unless `values` is an iterable other than a tensor, array or string."""
    if isinstance(values, (Tensor, SparseTensor, np.ndarray, bytes, str)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s'
                        % type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s' % type(values))


def _item_name(item):
    return item.name if hasattr(item, "name") else str(item)


def _assert_same_base_type(items, expected_type=None):
    """The one base dtype of the non-None items (and expected_type), else ValueError naming
    the first item that differs."""
    first_name = None
    found = expected_type
    for item in items:
        if item is None:
            continue
        item_type = item.dtype.base_dtype
        if not found:
            found, first_name = item_type, (None if expected_type else _item_name(item))
        elif found != item_type:
            raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
                _item_name(item), item_type, found,
                (" as %s" % first_name) if first_name else ""))
    return found


def assert_same_float_dtype(tensors=None, dtype=None):
    """The floating dtype all `tensors` (and `dtype`) share: float32 when there is none."""
    if tensors:
        dtype = _assert_same_base_type(tensors, dtype)
    if not dtype:
        dtype = dtypes.float32
    elif not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype


def _dimension_sizes(x):
    """Each dimension's size: an int where the static shape knows it, else a tensor; a
    scalar counts as one dimension of size 1."""
    dynamic_shape = array_ops.shape(x)
    rank = x.get_shape().rank
    if rank == 0:
        return (1,)
    if rank is not None:
        return [int(size) if size is not None else dynamic_shape[i]
                for i, size in enumerate(x.get_shape().as_list())]
    return cond(math_ops.equal(array_ops.rank(x), 0), lambda: constant([1]),
                lambda: dynamic_shape)


def _has_known_value(dimension_size):
    try:
        int(dimension_size)
    except (ValueError, TypeError):
        return False
    return dimension_size is not None


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Asserts each tensor's rank and sizes against a symbolic shape ("N", 3, None or "."
    for any size, a leading ... or "*" for any outer dimensions), a symbol taking one size
    across all tensors; what the static shapes decide raises ValueError at once."""
    if isinstance(shapes, dict):
        shapes = shapes.items()
    message_prefix = _message_prefix(message)
    with name_scope(name, "assert_shapes", [shapes, data]):
        constraints = [(x if isinstance(x, SparseTensor) else convert_to_tensor(x), s)
                       for x, s in shapes if s is not None]
        tensor_sizes = []
        for tensor, symbolic_shape in constraints:
            if not (hasattr(symbolic_shape, "__iter__")
                    or hasattr(symbolic_shape, "__getitem__")):
                raise ValueError(
                    "%sTensor %s.  Specified shape must be an iterable.  An iterable has the "
                    "attribute `__iter__` or `__getitem__`.  Received specified shape: %s"
                    % (message_prefix, tensor.name, symbolic_shape))
            symbols = tuple(symbolic_shape)
            innermost = False
            for i, symbol in enumerate(symbols):
                if symbol not in [Ellipsis, "*"]:
                    continue
                if i != 0:
                    raise ValueError(
                        "%sTensor %s specified shape index %d.  Symbol `...` or `*` for a "
                        "variable number of unspecified dimensions is only allowed as the "
                        "first entry" % (message_prefix, tensor.name, i))
                innermost = True
            symbols = symbols[1:] if innermost else symbols
            tensor_sizes.append((tensor, innermost, _dimension_sizes(tensor), symbols or (1,)))
        rank_assertions = []
        for x, unspecified_dim, _, symbols in tensor_sizes:
            rank = len(symbols)
            if unspecified_dim:
                if rank in (0, 1):
                    continue
                assertion = assert_rank_at_least(x, rank, data, summarize, message, name)
            elif rank in (0, 1):
                assertion = assert_rank_in(x, [0, 1], data, summarize, message, name)
            else:
                assertion = assert_rank(x, rank, data, summarize, message, name)
            rank_assertions.append(assertion)
        graph = get_default_graph()
        size_assertions, specified = [], {}
        for x, unspecified_dim, actual_sizes, symbols in tensor_sizes:
            for i, symbol in enumerate(symbols):
                if symbol in [None, "."]:
                    continue
                tensor_dim = i - len(symbols) if unspecified_dim else i
                if not (symbol in specified or _has_known_value(symbol)):
                    with graph.control_dependencies(rank_assertions):
                        specified[symbol] = (actual_sizes[tensor_dim], x, tensor_dim)
                    continue
                if _has_known_value(symbol):
                    specified_size, check = int(symbol), "Specified explicitly"
                else:
                    specified_size, by, at_dim = specified[symbol]
                    check = "Specified by tensor %s dimension %d" % (by.name, at_dim)
                with graph.control_dependencies(rank_assertions):
                    actual_size = actual_sizes[tensor_dim]
                if _has_known_value(actual_size) and _has_known_value(specified_size):
                    if int(actual_size) != int(specified_size):
                        raise ValueError(
                            "%s%s.  Tensor %s dimension %s must have size %d.  Received size "
                            "%d, shape %s" % (message_prefix, check, x.name, tensor_dim,
                                              specified_size, actual_size, x.get_shape()))
                    continue
                condition = math_ops.equal(convert_to_tensor(actual_size),
                                           convert_to_tensor(specified_size))
                data_ = data if data is not None else [
                    message_prefix, check, "Tensor %s dimension" % x.name, tensor_dim,
                    "must have size", specified_size, "Received shape: ", array_ops.shape(x)]
                size_assertions.append(Assert(condition, data_, summarize=summarize))
    with graph.control_dependencies(rank_assertions):
        return group(size_assertions)


ASSERTS = ("assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_positive", "assert_non_negative",
           "assert_negative", "assert_non_positive", "assert_type", "assert_integer",
           "assert_scalar", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_near", "assert_proper_iterable", "assert_same_float_dtype")
