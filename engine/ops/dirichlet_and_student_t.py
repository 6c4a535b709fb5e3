"""tf.distributions.Dirichlet (with KL(Dirichlet || Dirichlet)) and StudentT, built as
tensorflow/python/ops/distributions/{dirichlet,student_t}.py build them (the same ops under the
same name scopes, so seeded RandomGamma and RandomStandardNormal draws are TensorFlow's). The
formulas follow those files closely: Copyright 2016 The TensorFlow Authors, Apache License 2.0
(http://www.apache.org/licenses/LICENSE-2.0).
"""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, math_ops, random_ops, shape_ops
from engine.ops.cast import cast
from engine.ops.check_ops import (assert_less, assert_near, assert_positive,
                                  assert_rank_at_least, assert_same_float_dtype)
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.distributions import (FULLY_REPARAMETERIZED, Distribution, RegisterKL,
                                      broadcast_dynamic_shape, broadcast_static_shape)
from engine.ops.fill_ops import fill, ones, ones_like
from engine.ops.gamma_and_beta import gen_new_seed
from engine.ops.linalg_ops import matrix_set_diag
from engine.ops.random_sampling_ops import random_gamma
from engine.ops.special_math_ops import betainc, digamma, lbeta, lgamma, xlogy



class ConcentrationShapes:
    """The shapes of a distribution over the simplex given by `_concentration` ([..., k]) and
    `_total_concentration` (its sum over k): the batch is the total's shape, the event k
    (Dirichlet and DirichletMultinomial)."""

    @property
    def concentration(self):
        return self._concentration

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape_tensor(self):
        return shape_ops.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.shape

    def _event_shape_tensor(self):
        return shape_ops.shape(self.concentration)[-1:]

    def _event_shape(self):
        return self.concentration.shape.with_rank_at_least(1)[-1:]


class Dirichlet(ConcentrationShapes, Distribution):
    """Dirichlet over the simplex of the last axis of `concentration`."""

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True,
                 name="Dirichlet"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration]) as name:
            self._concentration = self._maybe_assert_valid_concentration(
                convert_to_tensor(concentration, name="concentration"), validate_args)
            self._total_concentration = math_ops.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._total_concentration],
                         name=name)

    def _sample_n(self, n, seed=None):
        gamma_sample = random_gamma(shape=[n], alpha=self.concentration, dtype=self.dtype,
                                    seed=seed)
        return gamma_sample / math_ops.reduce_sum(gamma_sample, -1, keepdims=True)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return math_ops.reduce_sum(xlogy(self.concentration - 1., x), -1)

    def _log_normalization(self):
        return lbeta(self.concentration)

    def _entropy(self):
        k = cast(self.event_shape_tensor()[0], self.dtype)
        return (self._log_normalization()
                + ((self.total_concentration - k) * digamma(self.total_concentration))
                - math_ops.reduce_sum((self.concentration - 1.) * digamma(self.concentration),
                                      axis=-1))

    def _mean(self):
        return self.concentration / self.total_concentration[..., None]

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return matrix_set_diag(-math_ops.matmul(x[..., None], x[..., None, :]),
                               self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (scale - x)

    def _variance_scale_term(self):
        return math_ops.rsqrt(1. + self.total_concentration[..., None])

    def _mode(self):
        k = cast(self.event_shape_tensor()[0], self.dtype)
        mode = (self.concentration - 1.) / (self.total_concentration[..., None] - k)
        if not self.allow_nan_stats:
            return with_dependencies([assert_less(
                ones([], self.dtype), self.concentration,
                message="Mode undefined when any concentration <= 1")], mode)
        nan = fill(shape_ops.shape(mode), np.array(np.nan, dtype=self.dtype.as_numpy_dtype()),
                   name="nan")
        return array_ops.where_v2(math_ops.reduce_all(self.concentration > 1., axis=-1),
                                  mode, nan)

    @staticmethod
    def _maybe_assert_valid_concentration(concentration, validate_args):
        if not validate_args:
            return concentration
        return with_dependencies([
            assert_positive(concentration,
                            message="Concentration parameter must be positive."),
            assert_rank_at_least(concentration, 1,
                                 message="Concentration parameter must have >=1 dimensions."),
            assert_less(1, shape_ops.shape(concentration)[-1],
                        message="Concentration parameter must have event_size >= 2."),
        ], concentration)

    def _maybe_assert_valid_sample(self, x):
        if not self.validate_args:
            return x
        return with_dependencies([
            assert_positive(x, message="samples must be positive"),
            assert_near(ones([], dtype=self.dtype), math_ops.reduce_sum(x, -1),
                        message="sample last-dimension must sum to `1`"),
        ], x)


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    with name_scope(name, "kl_dirichlet_dirichlet", values=[d1.concentration,
                                                            d2.concentration]):
        digamma_sum_d1 = digamma(math_ops.reduce_sum(d1.concentration, axis=-1,
                                                     keepdims=True))
        digamma_diff = digamma(d1.concentration) - digamma_sum_d1
        concentration_diff = d1.concentration - d2.concentration
        return (math_ops.reduce_sum(concentration_diff * digamma_diff, axis=-1)
                - lbeta(d1.concentration) + lbeta(d2.concentration))


class StudentT(Distribution):
    """Student's t with `df` degrees of freedom, location `loc` and scale `scale`."""

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
                 name="StudentT"):
        parameters = dict(locals())
        with name_scope(name, values=[df, loc, scale]) as name:
            checks = [assert_positive(df)] if validate_args else []
            with get_default_graph().control_dependencies(checks):
                self._df = array_ops.identity(df, name="df")
                self._loc = array_ops.identity(loc, name="loc")
                self._scale = array_ops.identity(scale, name="scale")
                assert_same_float_dtype((self._df, self._loc, self._scale))
        super().__init__(dtype=self._scale.dtype, reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._df, self._loc, self._scale], name=name)

    @property
    def df(self):
        return self._df

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _batch_shape_tensor(self):
        return broadcast_dynamic_shape(
            shape_ops.shape(self.df),
            broadcast_dynamic_shape(shape_ops.shape(self.loc), shape_ops.shape(self.scale)))

    def _batch_shape(self):
        return broadcast_static_shape(broadcast_static_shape(self.df.shape, self.loc.shape),
                                      self.scale.shape)

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _event_shape(self):
        return TensorShape([])

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        normal_sample = random_ops.random_normal(shape, dtype=self.dtype, seed=seed)
        df = self.df * ones(self.batch_shape_tensor(), dtype=self.dtype)
        gamma_sample = random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                                    seed=gen_new_seed(seed, salt="student_t"))
        samples = normal_sample * math_ops.rsqrt(gamma_sample / df)
        return samples * self.scale + self.loc  # a negative scale mirrors, as TensorFlow's

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x):
        y = (x - self.loc) / self.scale
        return -0.5 * (self.df + 1.) * math_ops.log1p(y**2. / self.df)

    def _log_normalization(self):
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df)
                + 0.5 * np.log(np.pi) + lgamma(0.5 * self.df)
                - lgamma(0.5 * (self.df + 1.)))

    def _cdf(self, x):
        y = (x - self.loc) / math_ops.abs(self.scale)
        x_t = self.df / (y**2. + self.df)
        neg_cdf = 0.5 * betainc(0.5 * self.df, 0.5, x_t)
        return array_ops.where_v2(math_ops.less(y, 0.), neg_cdf, 1. - neg_cdf)

    def _entropy(self):
        v = ones(self.batch_shape_tensor(), dtype=self.dtype)[..., None]
        u = v * self.df[..., None]
        beta_arg = array_ops.concat([u, v], -1) / 2.
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df)
                + lbeta(beta_arg)
                + 0.5 * (self.df + 1.) * (digamma(0.5 * (self.df + 1.))
                                          - digamma(0.5 * self.df)))

    def _nan_where_df_at_most_one(self, value, statistic):
        """The value where df > 1, NaN elsewhere; with allow_nan_stats=False, the value
        after asserting df > 1."""
        if not self.allow_nan_stats:
            return with_dependencies([assert_less(
                ones([], dtype=self.dtype), self.df,
                message=f"{statistic} not defined for components of df <= 1")], value)
        nan = np.array(np.nan, dtype=self.dtype.as_numpy_dtype())
        return array_ops.where_v2(
            math_ops.greater(self.df, ones(self.batch_shape_tensor(), dtype=self.dtype)),
            value, fill(self.batch_shape_tensor(), nan, name="nan"))

    def _mean(self):
        mean = self.loc * ones(self.batch_shape_tensor(), dtype=self.dtype)
        return self._nan_where_df_at_most_one(mean, "mean")

    def _variance(self):
        denom = array_ops.where_v2(math_ops.greater(self.df, 2.), self.df - 2.,
                                   ones_like(self.df))
        var = (ones(self.batch_shape_tensor(), dtype=self.dtype)
               * math_ops.square(self.scale) * self.df / denom)
        inf = np.array(np.inf, dtype=self.dtype.as_numpy_dtype())
        result_where_defined = array_ops.where_v2(
            self.df > fill(self.batch_shape_tensor(), 2.), var,
            fill(self.batch_shape_tensor(), inf, name="inf"))
        return self._nan_where_df_at_most_one(result_where_defined, "variance")

    def _mode(self):
        return array_ops.identity(self.loc)
