"""tf.distributions.Uniform and tf.distributions.Laplace, built as
tensorflow/python/ops/distributions builds them (same ops, name scopes and random_uniform
draws, so seeded samples are TensorFlow's)."""

import math

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, math_ops, random_ops, shape_ops
from engine.ops.constant_op import constant
from engine.ops.distributions import (FULLY_REPARAMETERIZED, Distribution,
                                      broadcast_dynamic_shape, broadcast_static_shape)


def _two_parameters(first, second, names, validate_args):
    """Identities of the two parameters, of one float dtype (as assert_same_float_dtype)."""
    if validate_args:
        raise NotImplementedError("tf.distributions with validate_args=True is not "
                                  "supported by the engine yet")
    a = array_ops.identity(first, name=names[0])
    b = array_ops.identity(second, name=names[1])
    if a.dtype.base_dtype != b.dtype.base_dtype:
        raise ValueError(f"{a.name}, type={a.dtype.base_dtype.name}: expected "
                         f"{b.dtype.base_dtype.name}.")
    if not a.dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {a.dtype.base_dtype}.")
    return a, b


class _ScalarEvent(Distribution):
    def _batch_shape_tensor(self):
        a, b = self._parameter_pair
        return broadcast_dynamic_shape(shape_ops.shape(a), shape_ops.shape(b))

    def _batch_shape(self):
        a, b = self._parameter_pair
        return broadcast_static_shape(a.shape, b.shape)

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _event_shape(self):
        return TensorShape([])


class Uniform(_ScalarEvent):
    """Uniform on [low, high)."""

    def __init__(self, low=0., high=1., validate_args=False, allow_nan_stats=True,
                 name="Uniform"):
        parameters = dict(locals())
        with name_scope(name, values=[low, high]) as name:
            self._low, self._high = _two_parameters(low, high, ("low", "high"), validate_args)
        super().__init__(dtype=self._low.dtype, reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._low, self._high],
                         name=name)

    @property
    def _parameter_pair(self):
        return self._low, self._high

    @property
    def low(self):
        return self._low

    @property
    def high(self):
        return self._high

    def range(self, name="range"):
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        samples = random_ops.random_uniform(shape=shape, dtype=self.dtype, seed=seed)
        return self.low + self.range() * samples

    def _prob(self, x):
        broadcasted_x = x * array_ops.ones(self.batch_shape_tensor(), dtype=x.dtype)
        return array_ops.where_v2(
            math_ops.is_nan(broadcasted_x), broadcasted_x,
            array_ops.where_v2(
                math_ops.logical_or(broadcasted_x < self.low, broadcasted_x >= self.high),
                array_ops.zeros_like(broadcasted_x),
                array_ops.ones_like(broadcasted_x) / self.range()))

    def _cdf(self, x):
        broadcast_shape = broadcast_dynamic_shape(shape_ops.shape(x), self.batch_shape_tensor())
        zeros = array_ops.zeros(broadcast_shape, dtype=self.dtype)
        ones = array_ops.ones(broadcast_shape, dtype=self.dtype)
        broadcasted_x = x * ones
        result_if_not_big = array_ops.where_v2(x < self.low, zeros,
                                               (broadcasted_x - self.low) / self.range())
        return array_ops.where_v2(x >= self.high, ones, result_if_not_big)

    def _entropy(self):
        return math_ops.log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.

    def _variance(self):
        return math_ops.square(self.range()) / 12.

    def _stddev(self):
        return self.range() / math.sqrt(12.)


def _log_cdf_laplace(x, name="log_cdf_laplace"):
    with name_scope(name, values=[x]):
        lower_solution = -np.log(2.) + x
        safe_exp_neg_x = math_ops.exp(-math_ops.abs(x))
        upper_solution = math_ops.log1p(-0.5 * safe_exp_neg_x)
        return array_ops.where_v2(x < 0., lower_solution, upper_solution)


class Laplace(_ScalarEvent):
    """The Laplace (double exponential) distribution with location loc and scale."""

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        parameters = dict(locals())
        with name_scope(name, values=[loc, scale]) as name:
            self._loc, self._scale = _two_parameters(loc, scale, ("loc", "scale"),
                                                     validate_args)
            super().__init__(dtype=self._loc.dtype,
                             reparameterization_type=FULLY_REPARAMETERIZED,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             parameters=parameters, graph_parents=[self._loc, self._scale],
                             name=name)

    @property
    def _parameter_pair(self):
        return self._loc, self._scale

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        numpy_dtype = self.dtype.as_numpy_dtype
        uniform_samples = random_ops.random_uniform(
            shape=shape, minval=np.nextafter(numpy_dtype(-1.), numpy_dtype(0.)), maxval=1.,
            dtype=self.dtype, seed=seed)
        return (self.loc - self.scale * math_ops.sign(uniform_samples)
                * math_ops.log1p(-math_ops.abs(uniform_samples)))

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return _log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return _log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * math_ops.sign(z) * (1. - math_ops.exp(-math_ops.abs(z)))

    def _log_unnormalized_prob(self, x):
        return -math_ops.abs(self._z(x))

    def _log_normalization(self):
        return math.log(2.) + math_ops.log(self.scale)

    def _entropy(self):
        scale = self.scale + array_ops.zeros_like(self.loc)
        return math.log(2.) + 1. + math_ops.log(scale)

    def _mean(self):
        return self.loc + array_ops.zeros_like(self.scale)

    def _stddev(self):
        return math.sqrt(2.) * self.scale + array_ops.zeros_like(self.loc)

    def _mode(self):
        return self._mean()

    def _z(self, x):
        return (x - self.loc) / self.scale
