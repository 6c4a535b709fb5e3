"""TensorFlow's weights_broadcast_ops: tf.metrics' and the losses' weights checked against
the values' shape (statically where both are known, else by an Assert when run) and broadcast
to it."""

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, math_ops, set_ops
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import no_op
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import ones_like
from engine.ops.logging_ops import Assert
from engine.ops.shape_ops import rank as _rank, shape as _shape, size as _size

_BROADCAST_ERROR = "weights can not be broadcast to values."


def assert_broadcastable(weights, values):
    """weights_broadcast_ops.assert_broadcastable: a no_op (or TensorFlow's ValueError) where
    both shapes are known statically, else an Assert of the shapes when run."""
    with name_scope(None, "assert_broadcastable", (weights, values)) as scope:
        with name_scope(None, "weights", (weights,)) as weights_scope:
            weights = convert_to_tensor(weights, name=weights_scope)
            weights_shape = _shape(weights, name="shape")
            weights_rank = _rank(weights, name="rank")
        weights_rank_static = constant_value(weights_rank)
        with name_scope(None, "values", (values,)) as values_scope:
            values = convert_to_tensor(values, name=values_scope)
            values_shape = _shape(values, name="shape")
            values_rank = _rank(values, name="rank")
        values_rank_static = constant_value(values_rank)
        if weights_rank_static is not None and values_rank_static is not None:
            if weights_rank_static == 0:
                return no_op(name="static_scalar_check_success")
            if weights_rank_static != values_rank_static:
                raise ValueError(f"{_BROADCAST_ERROR} values.rank={values_rank_static}. "
                                 f"weights.rank={weights_rank_static}. "
                                 f"values.shape={values.shape}. weights.shape={weights.shape}."
                                 f" Received weights={weights}, values={values}")
            weights_shape_static = constant_value(weights_shape)
            values_shape_static = constant_value(values_shape)
            if weights_shape_static is not None and values_shape_static is not None:
                for i in range(len(values_shape_static)):
                    if weights_shape_static[i] not in (1, values_shape_static[i]):
                        raise ValueError(
                            f"{_BROADCAST_ERROR} Mismatch at dim {i}. "
                            f"values.shape={values_shape_static}, "
                            f"weights.shape={weights_shape_static}. Received weights={weights}, "
                            f"values={values}")
                return no_op(name="static_dims_check_success")
        is_scalar = math_ops.equal(0, weights_rank, name="is_scalar")
        data = (_BROADCAST_ERROR, "weights.shape=", weights.name, weights_shape,
                "values.shape=", values.name, values_shape, "is_scalar=", is_scalar)
        is_valid_shape = cond(is_scalar, lambda: is_scalar,
                              lambda: _has_valid_nonscalar_shape(weights_rank, weights_shape,
                                                                 values_rank, values_shape),
                              name="is_valid_shape")
        return Assert(is_valid_shape, data, name=scope)


def _has_valid_dims(weights_shape, values_shape):
    with name_scope(None, "has_invalid_dims", (weights_shape, values_shape)) as scope:
        values_shape_2d = array_ops.expand_dims(values_shape, -1)
        valid_dims = array_ops.concat((values_shape_2d, ones_like(values_shape_2d)), axis=1)
        weights_shape_2d = array_ops.expand_dims(weights_shape, -1)
        invalid_dims = set_ops.set_difference(weights_shape_2d, valid_dims)
        num_invalid_dims = _size(invalid_dims.values, name="num_invalid_dims")
        return math_ops.equal(0, num_invalid_dims, name=scope)


def _has_valid_nonscalar_shape(weights_rank, weights_shape, values_rank, values_shape):
    with name_scope(None, "has_valid_nonscalar_shape",
                    (weights_rank, weights_shape, values_rank, values_shape)) as scope:
        is_same_rank = math_ops.equal(values_rank, weights_rank, name="is_same_rank")
        return cond(is_same_rank, lambda: _has_valid_dims(weights_shape, values_shape),
                    lambda: is_same_rank, name=scope)


def broadcast_weights(weights, values):
    """weights_broadcast_ops.broadcast_weights: `weights` times ones like `values`."""
    with name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        weights_shape, values_shape = weights.get_shape(), values.get_shape()
        if (weights_shape.is_fully_defined() and values_shape.is_fully_defined()
                and weights_shape.is_compatible_with(values_shape)):
            return weights
        with get_default_graph().control_dependencies((assert_broadcastable(weights, values),)):
            return math_ops.multiply(weights, ones_like(values), name=scope)
