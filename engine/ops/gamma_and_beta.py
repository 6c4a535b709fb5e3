"""tf.distributions.Gamma, Exponential and Beta, with KL(Gamma || Gamma) and KL(Beta || Beta),
built as tensorflow/python/ops/distributions/{gamma,exponential,beta}.py build them (the same
ops under the same name scopes, so seeded RandomGamma and RandomUniform draws are TensorFlow's).
The formulas follow those files closely: Copyright 2016 The TensorFlow Authors, Apache License
2.0 (http://www.apache.org/licenses/LICENSE-2.0).
"""

import hashlib

import numpy as np

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, math_ops, random_ops, shape_ops
from engine.ops.check_ops import assert_less, assert_positive, assert_same_float_dtype
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.distributions import (FULLY_REPARAMETERIZED, Distribution, RegisterKL,
                                      broadcast_dynamic_shape, broadcast_static_shape)
from engine.ops.fill_ops import fill, ones, ones_like
from engine.ops.random_sampling_ops import random_gamma
from engine.ops.special_math_ops import betainc, digamma, igamma, lgamma, xlogy


def gen_new_seed(seed, salt):
    """distribution_util.gen_new_seed: a second op seed derived from the first and a salt
    (the first 32 bits of the MD5 of both, less the sign bit), None staying None."""
    if seed is None:
        return None
    digest = hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def _nan_where_undefined(distribution, is_defined, value, asserted):
    """The statistic where `is_defined()` holds and NaN elsewhere (allow_nan_stats=True; the
    condition built after the NaN fill, in TensorFlow's node order), or, with
    allow_nan_stats=False, the value after the assertions `asserted()` makes."""
    if not distribution.allow_nan_stats:
        return with_dependencies(asserted(), value)
    nan = fill(distribution.batch_shape_tensor(),
               np.array(np.nan, dtype=distribution.dtype.as_numpy_dtype()), name="nan")
    return array_ops.where_v2(is_defined(), value, nan)


class Gamma(Distribution):
    """Gamma with shape `concentration` and inverse scale `rate`."""

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
                 name="Gamma"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration, rate]) as name:
            checks = ([assert_positive(concentration), assert_positive(rate)]
                      if validate_args else [])
            with get_default_graph().control_dependencies(checks):
                self._concentration = array_ops.identity(concentration, name="concentration")
                self._rate = array_ops.identity(rate, name="rate")
                assert_same_float_dtype([self._concentration, self._rate])
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._rate], name=name)

    @property
    def concentration(self):
        return self._concentration

    @property
    def rate(self):
        return self._rate

    def _batch_shape_tensor(self):
        return broadcast_dynamic_shape(shape_ops.shape(self.concentration),
                                       shape_ops.shape(self.rate))

    def _batch_shape(self):
        return broadcast_static_shape(self.concentration.shape, self.rate.shape)

    def _sample_n(self, n, seed=None):
        return random_gamma(shape=[n], alpha=self.concentration, beta=self.rate,
                            dtype=self.dtype, seed=seed)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x):
        x = self._maybe_assert_valid_sample(x)
        return igamma(self.concentration, self.rate * x)

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return xlogy(self.concentration - 1., x) - self.rate * x

    def _log_normalization(self):
        return lgamma(self.concentration) - self.concentration * math_ops.log(self.rate)

    def _entropy(self):
        return (self.concentration - math_ops.log(self.rate) + lgamma(self.concentration)
                + ((1. - self.concentration) * digamma(self.concentration)))

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / math_ops.square(self.rate)

    def _stddev(self):
        return math_ops.sqrt(self.concentration) / self.rate

    def _mode(self):
        mode = (self.concentration - 1.) / self.rate
        return _nan_where_undefined(
            self, lambda: self.concentration > 1., mode,
            lambda: [assert_less(ones([], self.dtype), self.concentration,
                                 message="mode not defined when any concentration <= 1")])

    def _maybe_assert_valid_sample(self, x):
        assert_same_float_dtype(tensors=[x], dtype=self.dtype)
        if not self.validate_args:
            return x
        return with_dependencies([assert_positive(x)], x)


class Exponential(Gamma):
    """Exponential with inverse scale `rate`: a Gamma of concentration one, sampled as
    -log(uniform) / rate."""

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with name_scope(name, values=[rate]) as name:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(concentration=ones([], dtype=self._rate.dtype), rate=self._rate,
                         allow_nan_stats=allow_nan_stats, validate_args=validate_args,
                         name=name)
        self._parameters = parameters
        self._graph_parents += [self._rate]

    @property
    def rate(self):
        return self._rate

    def _log_survival_function(self, value):
        return self._log_prob(value) - math_ops.log(self._rate)

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], shape_ops.shape(self._rate)], 0)
        sampled = random_ops.random_uniform(
            shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1., seed=seed,
            dtype=self.dtype)
        return -math_ops.log(sampled) / self._rate


class Beta(Distribution):
    """Beta on (0, 1) with concentration1 (alpha) and concentration0 (beta)."""

    def __init__(self, concentration1=None, concentration0=None, validate_args=False,
                 allow_nan_stats=True, name="Beta"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration1, concentration0]) as name:
            self._concentration1 = _maybe_assert_valid_concentration(
                convert_to_tensor(concentration1, name="concentration1"), validate_args)
            self._concentration0 = _maybe_assert_valid_concentration(
                convert_to_tensor(concentration0, name="concentration0"), validate_args)
            assert_same_float_dtype([self._concentration1, self._concentration0])
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(dtype=self._total_concentration.dtype,
                         reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._concentration1, self._concentration0,
                                        self._total_concentration],
                         name=name)

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape_tensor(self):
        return shape_ops.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.shape

    def _event_shape(self):
        return TensorShape([])

    def _sample_n(self, n, seed=None):
        expanded1 = ones_like(self.total_concentration, dtype=self.dtype) * self.concentration1
        expanded0 = ones_like(self.total_concentration, dtype=self.dtype) * self.concentration0
        gamma1 = random_gamma(shape=[n], alpha=expanded1, dtype=self.dtype, seed=seed)
        gamma0 = random_gamma(shape=[n], alpha=expanded0, dtype=self.dtype,
                              seed=gen_new_seed(seed, "beta"))
        return gamma1 / (gamma1 + gamma0)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return math_ops.log(self._cdf(x))

    def _cdf(self, x):
        return betainc(self.concentration1, self.concentration0, x)

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return (xlogy(self.concentration1 - 1., x)
                + (self.concentration0 - 1.) * math_ops.log1p(-x))

    def _log_normalization(self):
        return (lgamma(self.concentration1) + lgamma(self.concentration0)
                - lgamma(self.total_concentration))

    def _entropy(self):
        return (self._log_normalization()
                - (self.concentration1 - 1.) * digamma(self.concentration1)
                - (self.concentration0 - 1.) * digamma(self.concentration0)
                + ((self.total_concentration - 2.) * digamma(self.total_concentration)))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        return self._mean() * (1. - self._mean()) / (1. + self.total_concentration)

    def _mode(self):
        mode = (self.concentration1 - 1.) / (self.total_concentration - 2.)
        return _nan_where_undefined(
            self, lambda: math_ops.logical_and(self.concentration1 > 1.,
                                               self.concentration0 > 1.), mode,
            lambda: [assert_less(ones([], dtype=self.dtype), self.concentration1,
                                 message="Mode undefined for concentration1 <= 1."),
                     assert_less(ones([], dtype=self.dtype), self.concentration0,
                                 message="Mode undefined for concentration0 <= 1.")])

    def _maybe_assert_valid_sample(self, x):
        if not self.validate_args:
            return x
        return with_dependencies([
            assert_positive(x, message="sample must be positive"),
            assert_less(x, ones([], self.dtype), message="sample must be less than `1`."),
        ], x)


def _maybe_assert_valid_concentration(concentration, validate_args):
    if not validate_args:
        return concentration
    return with_dependencies([assert_positive(
        concentration, message="Concentration parameter must be positive.")], concentration)


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
    with name_scope(name, "kl_gamma_gamma",
                    values=[g0.concentration, g0.rate, g1.concentration, g1.rate]):
        return (((g0.concentration - g1.concentration) * digamma(g0.concentration))
                + lgamma(g1.concentration) - lgamma(g0.concentration)
                + g1.concentration * math_ops.log(g0.rate)
                - g1.concentration * math_ops.log(g1.rate)
                + g0.concentration * (g1.rate / g0.rate - 1.))


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    with name_scope(name, "kl_beta_beta",
                    values=[d1.concentration1, d1.concentration0, d1.total_concentration,
                            d2.concentration1, d2.concentration0, d2.total_concentration]):
        return ((d2._log_normalization() - d1._log_normalization())
                - digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1)
                - digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0)
                + (digamma(d1.total_concentration)
                   * (d2.total_concentration - d1.total_concentration)))
