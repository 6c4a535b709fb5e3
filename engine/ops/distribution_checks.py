"""The argument checks tf.distributions' Multinomial and DirichletMultinomial embed with
validate_args=True, as tensorflow/python/ops/distributions/util.py builds them (the same ops,
name scopes and messages; ported closely from that file: Copyright 2016 The TensorFlow Authors,
Apache License 2.0, http://www.apache.org/licenses/LICENSE-2.0)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import shape_ops
from engine.ops.cast import cast
from engine.ops.check_ops import (assert_equal, assert_greater_equal, assert_less_equal,
                                  assert_near, assert_non_negative, assert_rank_at_least)
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import no_op, with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops import math_ops

# The largest integer each float dtype holds exactly (util.py's _largest_integer_by_dtype).
_LARGEST_INTEGER = {dtypes.float16: 2**11, dtypes.float32: 2**24, dtypes.float64: 2**53}
_INTEGER_OF = {dtypes.float16: dtypes.int16, dtypes.float32: dtypes.int32,
               dtypes.float64: dtypes.int64}


def assert_integer_form(x, message=None, name="assert_integer_form"):
    """Asserts x equals its round trip through the same-width integer type."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_integer:
            return no_op()
        message = message or "{} has non-integer components".format(x)
        int_dtype = _INTEGER_OF.get(x.dtype.base_dtype)
        if int_dtype is None:
            raise TypeError("Unrecognized type {}".format(x.dtype.name))
        return assert_equal(x, cast(cast(x, int_dtype), x.dtype), message=message, name=name)


def embed_check_nonnegative_integer_form(x, name="embed_check_nonnegative_integer_form"):
    """x after asserting it non-negative and, for a float, whole."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        assertions = [assert_non_negative(x, message="'{}' must be non-negative.".format(x))]
        if not x.dtype.is_integer:
            assertions += [assert_integer_form(
                x, message="'{}' cannot contain fractional components.".format(x))]
        return with_dependencies(assertions, x)


def embed_check_categorical_event_shape(categorical_param,
                                        name="embed_check_categorical_event_shape"):
    """The parameter, its last axis checked to hold 2 to the dtype's largest integer classes
    (statically where the shape says, else by assertions)."""
    with name_scope(name, values=[categorical_param]):
        x = convert_to_tensor(categorical_param, name="categorical_param")
        x_dtype = x.dtype.base_dtype
        max_event_size = _LARGEST_INTEGER.get(x_dtype, 0) if x_dtype.is_floating else 0
        if max_event_size == 0:
            raise TypeError("Unable to validate size of unrecognized dtype "
                            "({}).".format(x_dtype.name))
        try:
            x_shape_static = x.shape.with_rank_at_least(1)
        except ValueError:
            raise ValueError("A categorical-distribution parameter must have at least 1 "
                             "dimension.") from None
        if x_shape_static[-1].value is not None:
            event_size = x_shape_static[-1].value
            if event_size < 2:
                raise ValueError("A categorical-distribution parameter must have at least 2 "
                                 "events.")
            if event_size > max_event_size:
                raise ValueError("Number of classes exceeds `dtype` precision, i.e., {} "
                                 "implies shape ({}) cannot exceed {}.".format(
                                     x_dtype.name, event_size, max_event_size))
            return x
        event_size = shape_ops.shape(x, name="x_shape")[-1]
        return with_dependencies([
            assert_rank_at_least(x, 1, message="A categorical-distribution parameter must "
                                               "have at least 1 dimension."),
            assert_greater_equal(shape_ops.shape(x)[-1], 2,
                                 message="A categorical-distribution parameter must have "
                                         "at least 2 events."),
            assert_less_equal(event_size, max_event_size,
                              message="Number of classes exceeds `dtype` precision, i.e., "
                                      "{} dtype cannot exceed {} shape.".format(
                                          x_dtype.name, max_event_size)),
        ], x)


def validated_probs(probs, multidimensional):
    """probs after asserting them non-negative and summing to one (multidimensional) or at
    most one."""
    with name_scope("validate_probs"):
        one = constant(1., probs.dtype)
        dependencies = [assert_non_negative(probs)]
        if multidimensional:
            probs = embed_check_categorical_event_shape(probs)
            dependencies += [assert_near(math_ops.reduce_sum(probs, -1), one,
                                         message="probs does not sum to 1.")]
        else:
            dependencies += [assert_less_equal(probs, one,
                                               message="probs has components greater than 1.")]
        return with_dependencies(dependencies, probs)
