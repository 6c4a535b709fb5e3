"""tf.distributions.Multinomial and DirichletMultinomial: counts over the last axis, built as
tensorflow/python/ops/distributions/{multinomial,dirichlet_multinomial}.py build them (the same
ops under the same name scopes, so seeded Multinomial and RandomGamma draws are TensorFlow's).
The formulas follow those files and util.py's log_combinations closely: Copyright 2016 The
TensorFlow Authors, Apache License 2.0 (http://www.apache.org/licenses/LICENSE-2.0).
"""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops, nn_ops, shape_ops
from engine.ops.cast import cast
from engine.ops.check_ops import assert_equal, assert_positive
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.dirichlet_and_student_t import ConcentrationShapes
from engine.ops.distribution_checks import (embed_check_categorical_event_shape,
                                            embed_check_nonnegative_integer_form)
from engine.ops.distributions import NOT_REPARAMETERIZED, Distribution, _get_logits_and_probs
from engine.ops.fill_ops import ones_like
from engine.ops.gamma_and_beta import gen_new_seed
from engine.ops.linalg_ops import matrix_set_diag
from engine.ops.random_sampling_ops import multinomial, random_gamma
from engine.ops.special_math_ops import lbeta, lgamma

def log_combinations(n, counts, name="log_combinations"):
    """The log of the multinomial coefficient n! / prod(counts!) over the last axis."""
    with name_scope(name, values=[n, counts]):
        n = convert_to_tensor(n, name="n")
        counts = convert_to_tensor(counts, name="counts")
        total_permutations = lgamma(n + 1)
        counts_factorial = lgamma(counts + 1)
        redundant_permutations = math_ops.reduce_sum(counts_factorial, axis=[-1])
        return total_permutations - redundant_permutations


class Multinomial(Distribution):
    """Counts of `total_count` draws over K classes of probabilities `probs` (or `logits`)."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="Multinomial"):
        parameters = dict(locals())
        with name_scope(name, values=[total_count, logits, probs]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = embed_check_nonnegative_integer_form(self._total_count)
            self._logits, self._probs = _get_logits_and_probs(
                logits=logits, probs=probs, multidimensional=True,
                validate_args=validate_args, name=name)
            self._mean_val = self._total_count[..., None] * self._probs
        super().__init__(dtype=self._probs.dtype, reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._logits, self._probs],
                         name=name)

    @property
    def total_count(self):
        return self._total_count

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return shape_ops.shape(self._mean_val)[:-1]

    def _batch_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[:-1]

    def _event_shape_tensor(self):
        return shape_ops.shape(self._mean_val)[-1:]

    def _event_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[-1:]

    def _sample_n(self, n, seed=None):
        from engine.ops.functional_ops import map_fn
        n_draws = cast(self.total_count, dtype=dtypes.int32)
        k = self.event_shape_tensor()[0]
        n_draws = ones_like(self.logits[..., 0], dtype=n_draws.dtype) * n_draws
        logits = ones_like(n_draws[..., None], dtype=self.logits.dtype) * self.logits
        flat_logits = array_ops.reshape(logits, [-1, k])
        flat_ndraws = n * array_ops.reshape(n_draws, [-1])

        def sample_single(args):
            single_logits, n_draw = args[0], args[1]
            x = multinomial(single_logits[None, ...], n_draw, seed)  # [1, n * n_draw]
            x = array_ops.reshape(x, shape=[n, -1])
            return math_ops.reduce_sum(array_ops.one_hot(x, depth=k), axis=-2)

        x = map_fn(sample_single, [flat_logits, flat_ndraws], dtype=self.dtype)
        x = array_ops.transpose(x, perm=[1, 0, 2])
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        return array_ops.reshape(x, final_shape)

    def _log_prob(self, counts):
        return self._log_unnormalized_prob(counts) - self._log_normalization(counts)

    def _log_unnormalized_prob(self, counts):
        counts = self._maybe_assert_valid_sample(counts)
        return math_ops.reduce_sum(counts * nn_ops.log_softmax(self.logits), -1)

    def _log_normalization(self, counts):
        counts = self._maybe_assert_valid_sample(counts)
        return -log_combinations(self.total_count, counts)

    def _maybe_assert_valid_sample(self, counts):
        if not self.validate_args:
            return counts
        counts = embed_check_nonnegative_integer_form(counts)
        return with_dependencies([assert_equal(
            self.total_count, math_ops.reduce_sum(counts, -1),
            message="counts must sum to `self.total_count`")], counts)

    def _mean(self):
        return array_ops.identity(self._mean_val)

    def _covariance(self):
        p = self.probs * ones_like(self.total_count)[..., None]
        return matrix_set_diag(-math_ops.matmul(self._mean_val[..., None], p[..., None, :]),
                               self._variance())

    def _variance(self):
        p = self.probs * ones_like(self.total_count)[..., None]
        return self._mean_val - self._mean_val * p


class DirichletMultinomial(ConcentrationShapes, Distribution):
    """Counts of `total_count` draws whose class probabilities are Dirichlet(concentration)."""

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        with name_scope(name, values=[total_count, concentration]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = embed_check_nonnegative_integer_form(self._total_count)
            self._concentration = convert_to_tensor(concentration, name="concentration")
            if validate_args:
                self._concentration = embed_check_categorical_event_shape(self._concentration)
                self._concentration = with_dependencies([assert_positive(
                    self._concentration, message="Concentration parameter must be positive.")],
                    self._concentration)
            self._total_concentration = math_ops.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._concentration], name=name)

    @property
    def total_count(self):
        return self._total_count

    def _sample_n(self, n, seed=None):
        n_draws = cast(self.total_count, dtype=dtypes.int32)
        k = self.event_shape_tensor()[0]
        unnormalized_logits = array_ops.reshape(
            math_ops.log(random_gamma(shape=[n], alpha=self.concentration, dtype=self.dtype,
                                      seed=seed)),
            shape=[-1, k])
        draws = multinomial(logits=unnormalized_logits, num_samples=n_draws,
                            seed=gen_new_seed(seed, salt="dirichlet_multinomial"))
        x = math_ops.reduce_sum(array_ops.one_hot(draws, depth=k), -2)
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        x = array_ops.reshape(x, final_shape)
        return cast(x, self.dtype)

    def _log_prob(self, counts):
        if self.validate_args:
            counts = embed_check_nonnegative_integer_form(counts)
            counts = with_dependencies([assert_equal(
                self.total_count, math_ops.reduce_sum(counts, -1),
                message="counts last-dimension must sum to `self.total_count`")], counts)
        ordered_prob = lbeta(self.concentration + counts) - lbeta(self.concentration)
        return ordered_prob + log_combinations(self.total_count, counts)

    def _prob(self, counts):
        return math_ops.exp(self._log_prob(counts))

    def _mean(self):
        return self.total_count * (self.concentration / self.total_concentration[..., None])

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return matrix_set_diag(-math_ops.matmul(x[..., None], x[..., None, :]),
                               self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (self.total_count * scale - x)

    def _variance_scale_term(self):
        c0 = self.total_concentration[..., None]
        return math_ops.sqrt((1. + c0 / self.total_count) / (1. + c0))
