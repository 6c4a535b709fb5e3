"""tf.distributions (TF 1.x, deprecated there in 2019 for TensorFlow Probability, and still what
2017-2018 VAEs and policy-gradient programs used): Normal, Bernoulli and Categorical with
sample, log_prob, prob, cdf, log_cdf, survival functions, entropy, cross_entropy, mean, mode,
stddev, variance (Normal's quantile too), and kl_divergence between two of a kind, built as
tensorflow/python/ops/distributions builds them (the same ops under the same name scopes, so
seeded samples and values are TensorFlow's). The other classes are in uniform_and_laplace.py,
gamma_and_beta.py, dirichlet_and_student_t.py and multinomial_distributions.py.
"""

import contextlib
import math

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, math_ops, nn_ops, random_ops, shape_ops
from engine.ops.distribution_special_math import log_ndtr, ndtr, ndtri
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import ones, ones_like
from engine.ops.op_def_library import apply_op


class ReparameterizationType:
    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other):
        return self is other


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def broadcast_dynamic_shape(shape_x, shape_y):
    """tf.broadcast_dynamic_shape: BroadcastArgs of two shape vectors."""
    return apply_op("BroadcastArgs", s0=shape_x, s1=shape_y)


def broadcast_static_shape(shape_x, shape_y):
    """tf.broadcast_static_shape: the TensorShape two shapes broadcast to (ValueError if
    they cannot); an unknown dimension against 1 or unknown stays unknown."""
    x, y = as_shape(shape_x), as_shape(shape_y)
    if x.ndims is None or y.ndims is None:
        return TensorShape(None)
    width = max(x.ndims, y.ndims)
    xs = [1] * (width - x.ndims) + x.as_list()
    ys = [1] * (width - y.ndims) + y.as_list()
    dims = []
    for dx, dy in zip(xs, ys):
        if dx is None or dy is None:
            known = dy if dx is None else dx
            dims.append(known if known is not None and known > 1 else None)
        elif dx == dy or dy == 1:
            dims.append(dx)
        elif dx == 1:
            dims.append(dy)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are not "
                             f"compatible: {x} and {y}")
    return TensorShape(dims)


class Distribution:
    """TensorFlow's Distribution: public methods open name scope `<name>/<method>` (with the
    distribution's parameters as values) and call the subclass's `_method`."""

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats,
                 parameters=None, graph_parents=None, name=None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not isinstance(t, Tensor):
                raise ValueError("Graph parent item %d is not a Tensor; %s." % (i, t))
        if not name or name[-1] != "/":
            with name_scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = parameters or {}
        self._graph_parents = graph_parents
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return {k: v for k, v in self._parameters.items()
                if not k.startswith("__") and k != "self"}

    @property
    def reparameterization_type(self):
        return self._reparameterization_type

    @property
    def allow_nan_stats(self):
        return self._allow_nan_stats

    @property
    def validate_args(self):
        return self._validate_args

    @contextlib.contextmanager
    def _name_scope(self, name=None, values=None):
        with name_scope(self.name):
            with name_scope(name, values=(([] if values is None else values)
                                          + self._graph_parents)) as scope:
                yield scope

    @property
    def batch_shape(self):
        return as_shape(self._batch_shape())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return convert_to_tensor(self.batch_shape.as_list(), dtype=dtypes.int32,
                                         name="batch_shape")
            return self._batch_shape_tensor()

    @property
    def event_shape(self):
        return as_shape(self._event_shape())

    def event_shape_tensor(self, name="event_shape_tensor"):
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return convert_to_tensor(self.event_shape.as_list(), dtype=dtypes.int32,
                                         name="event_shape")
            return self._event_shape_tensor()

    def _event_shape(self):
        return TensorShape([])

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def sample(self, sample_shape=(), seed=None, name="sample"):
        with self._name_scope(name, values=[sample_shape]):
            sample_shape = convert_to_tensor(sample_shape, dtype=dtypes.int32,
                                             name="sample_shape")
            sample_shape, n = self._expand_sample_shape_to_vector(sample_shape,
                                                                  "sample_shape")
            samples = self._sample_n(n, seed)
            batch_event_shape = shape_ops.shape(samples)[1:]
            final_shape = array_ops.concat([sample_shape, batch_event_shape], 0)
            samples = array_ops.reshape(samples, final_shape)
            return self._set_sample_static_shape(samples, sample_shape)

    def _expand_sample_shape_to_vector(self, x, name):
        x_static_val = constant_value(x)
        if x_static_val is None:
            prod = math_ops.reduce_prod(x)
        else:
            prod = np.prod(x_static_val, dtype=x.dtype.as_numpy_dtype())
        ndims = x.shape.ndims
        if ndims is None:
            raise NotImplementedError("a sample_shape of unknown rank is not supported by "
                                      "the engine yet")
        if ndims == 0:
            if x_static_val is not None:
                x = convert_to_tensor(np.array([x_static_val], dtype=x.dtype.as_numpy_dtype()),
                                      name=name)
            else:
                x = array_ops.reshape(x, [1])
        elif ndims != 1:
            raise ValueError("Input is neither scalar nor vector.")
        return x, prod

    def _set_sample_static_shape(self, x, sample_shape):
        sample_shape = TensorShape(constant_value(sample_shape))
        ndims = x.shape.ndims
        sample_ndims = sample_shape.ndims
        batch_ndims = self.batch_shape.ndims
        event_ndims = self.event_shape.ndims
        if ndims is None and None not in (sample_ndims, batch_ndims, event_ndims):
            ndims = sample_ndims + batch_ndims + event_ndims
            x.set_shape([None] * ndims)
        if ndims is not None and sample_ndims is not None:
            x.set_shape(x.shape.merge_with(
                sample_shape.concatenate([None] * (ndims - sample_ndims))))
        if ndims is not None and event_ndims is not None:
            x.set_shape(x.shape.merge_with(
                TensorShape([None] * (ndims - event_ndims)).concatenate(self.event_shape)))
        if batch_ndims is not None:
            if ndims is not None:
                if sample_ndims is None and event_ndims is not None:
                    sample_ndims = ndims - batch_ndims - event_ndims
                elif event_ndims is None and sample_ndims is not None:
                    event_ndims = ndims - batch_ndims - sample_ndims
            if sample_ndims is not None and event_ndims is not None:
                x.set_shape(x.shape.merge_with(
                    TensorShape([None] * sample_ndims).concatenate(self.batch_shape)
                    .concatenate([None] * event_ndims)))
        return x

    def _value(self, value):
        return convert_to_tensor(value, name="value", preferred_dtype=self.dtype)

    def log_prob(self, value, name="log_prob"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._log_prob(value)
            except NotImplementedError:
                return math_ops.log(self._prob(value))

    def prob(self, value, name="prob"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._prob(value)
            except NotImplementedError:
                return math_ops.exp(self._log_prob(value))

    def cdf(self, value, name="cdf"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._cdf(value)
            except NotImplementedError as original:
                try:
                    return math_ops.exp(self._log_cdf(value))
                except NotImplementedError:
                    raise original from None

    def log_cdf(self, value, name="log_cdf"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._log_cdf(value)
            except NotImplementedError as original:
                try:
                    return math_ops.log(self._cdf(value))
                except NotImplementedError:
                    raise original from None

    def survival_function(self, value, name="survival_function"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._survival_function(value)
            except NotImplementedError:
                return 1. - self.cdf(value)

    def log_survival_function(self, value, name="log_survival_function"):
        with self._name_scope(name, values=[value]):
            value = self._value(value)
            try:
                return self._log_survival_function(value)
            except NotImplementedError:
                return math_ops.log1p(-self.cdf(value))

    def quantile(self, value, name="quantile"):
        with self._name_scope(name, values=[value]):
            return self._quantile(self._value(value))

    def cross_entropy(self, other, name="cross_entropy"):
        """H[self, other] = entropy(self) + KL(self || other), as TensorFlow's."""
        with self._name_scope(name):
            with name_scope(None, "cross_entropy"):
                return self.entropy() + kl_divergence(self, other,
                                                      allow_nan_stats=self.allow_nan_stats)

    def entropy(self, name="entropy"):
        with self._name_scope(name):
            return self._entropy()

    def mean(self, name="mean"):
        with self._name_scope(name):
            return self._mean()

    def mode(self, name="mode"):
        with self._name_scope(name):
            return self._mode()

    def stddev(self, name="stddev"):
        with self._name_scope(name):
            try:
                return self._stddev()
            except NotImplementedError:
                return math_ops.sqrt(self._variance())

    def variance(self, name="variance"):
        with self._name_scope(name):
            try:
                return self._variance()
            except NotImplementedError:
                return math_ops.square(self._stddev())

    def covariance(self, name="covariance"):
        with self._name_scope(name):
            return self._covariance()

    def kl_divergence(self, other, name="kl_divergence"):
        with self._name_scope(name):
            return kl_divergence(self, other)

    def _prob(self, value):
        raise NotImplementedError(f"prob is not implemented: {type(self).__name__}")

    def _log_prob(self, value):
        raise NotImplementedError(f"log_prob is not implemented: {type(self).__name__}")

    def _cdf(self, value):
        raise NotImplementedError(f"cdf is not implemented: {type(self).__name__}")

    def _log_cdf(self, value):
        raise NotImplementedError(f"log_cdf is not implemented: {type(self).__name__}")

    def _survival_function(self, value):
        raise NotImplementedError(f"survival_function is not implemented: "
                                  f"{type(self).__name__}")

    def _log_survival_function(self, value):
        raise NotImplementedError(f"log_survival_function is not implemented: "
                                  f"{type(self).__name__}")

    def _quantile(self, value):
        raise NotImplementedError(f"quantile is not implemented: {type(self).__name__}")

    def _covariance(self):
        raise NotImplementedError(f"covariance is not implemented: {type(self).__name__}")

    def _stddev(self):
        raise NotImplementedError(f"stddev is not implemented: {type(self).__name__}")

    def _variance(self):
        raise NotImplementedError(f"variance is not implemented: {type(self).__name__}")

    def __str__(self):
        batch = f", batch_shape={self.batch_shape}" if self.batch_shape.ndims is not None else ""
        event = f", event_shape={self.event_shape}" if self.event_shape.ndims is not None else ""
        return (f"tfp.distributions.{type(self).__name__}(\"{self.name}\"{batch}{event}, "
                f"dtype={self.dtype.name})")

    def __repr__(self):
        return (f"<tfp.distributions.{type(self).__name__} '{self.name}' batch_shape="
                f"{self.batch_shape} event_shape={self.event_shape} dtype={self.dtype.name}>")


class Normal(Distribution):
    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        parameters = dict(locals())
        if validate_args:
            raise NotImplementedError("tf.distributions with validate_args=True is not "
                                      "supported by the engine yet")
        with name_scope(name, values=[loc, scale]) as name:
            self._loc = array_ops.identity(loc, name="loc")
            self._scale = array_ops.identity(scale, name="scale")
            if self._loc.dtype.base_dtype != self._scale.dtype.base_dtype:
                raise ValueError(f"Tensor conversion requested dtype "
                                 f"{self._loc.dtype.base_dtype.name} for Tensor with dtype "
                                 f"{self._scale.dtype.base_dtype.name}")
        super().__init__(dtype=self._scale.dtype, reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._loc, self._scale],
                         name=name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _batch_shape_tensor(self):
        return broadcast_dynamic_shape(shape_ops.shape(self.loc), shape_ops.shape(self.scale))

    def _batch_shape(self):
        return broadcast_static_shape(self.loc.shape, self.scale.shape)

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        sampled = random_ops.random_normal(shape=shape, mean=0., stddev=1.,
                                           dtype=self.loc.dtype, seed=seed)
        return sampled * self.scale + self.loc

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x):
        return ndtr(self._z(x))

    def _log_cdf(self, x):
        return log_ndtr(self._z(x))

    def _survival_function(self, x):
        return ndtr(-self._z(x))

    def _log_survival_function(self, x):
        return log_ndtr(-self._z(x))

    def _quantile(self, p):
        z = ndtri(p)
        with name_scope("reconstruct", values=[z]):
            return z * self.scale + self.loc

    def _log_unnormalized_prob(self, x):
        return -0.5 * math_ops.square(self._z(x))

    def _log_normalization(self):
        return 0.5 * math.log(2. * math.pi) + math_ops.log(self.scale)

    def _entropy(self):
        scale = self.scale * ones_like(self.loc)
        return 0.5 * math.log(2. * math.pi * math.e) + math_ops.log(scale)

    def _mean(self):
        return self.loc * ones_like(self.scale)

    def _stddev(self):
        return self.scale * ones_like(self.loc)

    def _mode(self):
        return self._mean()

    def _z(self, x):
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale


def _get_logits_and_probs(logits=None, probs=None, multidimensional=False,
                          name="get_logits_and_probs", validate_args=False):
    """distribution_util.get_logits_and_probs; validate_args=True (used by Multinomial) for
    multidimensional parameters only."""
    with name_scope(name, values=[probs, logits]):
        if (probs is None) == (logits is None):
            raise ValueError("Must pass probs or logits, but not both.")
        if probs is None:
            logits = convert_to_tensor(logits, name="logits")
            if not logits.dtype.is_floating:
                raise TypeError("logits must having floating type.")
            if multidimensional:
                if validate_args:
                    from engine.ops.distribution_checks import embed_check_categorical_event_shape
                    logits = embed_check_categorical_event_shape(logits)
                return logits, nn_ops.softmax(logits, name="probs")
            return logits, math_ops.sigmoid(logits, name="probs")
        probs = convert_to_tensor(probs, name="probs")
        if not probs.dtype.is_floating:
            raise TypeError("probs must having floating type.")
        if validate_args:
            from engine.ops.distribution_checks import validated_probs
            probs = validated_probs(probs, multidimensional)
        with name_scope("logits"):
            if multidimensional:
                return math_ops.log(probs), probs
            return math_ops.log(probs) - math_ops.log1p(-1. * probs), probs


class Bernoulli(Distribution):
    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False,
                 allow_nan_stats=True, name="Bernoulli"):
        parameters = dict(locals())
        if validate_args:
            raise NotImplementedError("tf.distributions with validate_args=True is not "
                                      "supported by the engine yet")
        with name_scope(name) as name:
            self._logits, self._probs = _get_logits_and_probs(logits=logits, probs=probs,
                                                              name=name)
        super().__init__(dtype=dtypes.as_dtype(dtype),
                         reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return shape_ops.shape(self._logits)

    def _batch_shape(self):
        return self._logits.shape

    def _sample_n(self, n, seed=None):
        new_shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        uniform = random_ops.random_uniform(new_shape, seed=seed, dtype=self.probs.dtype)
        return math_ops.cast(math_ops.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event):
        from engine.ops.sampled_losses import sigmoid_cross_entropy_with_logits
        event = math_ops.cast(event, self.logits.dtype)
        logits = self.logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and event.shape == logits.shape):
            logits, event = ones_like(event) * logits, ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return (-self.logits * (math_ops.sigmoid(self.logits) - 1)
                + nn_ops.softplus(-self.logits))

    def _mean(self):
        return array_ops.identity(self.probs)

    def _variance(self):
        return self._mean() * (1. - self.probs)

    def _mode(self):
        return math_ops.cast(self.probs > 0.5, self.dtype)


def _broadcast_cat_event_and_params(event, params, base_dtype):
    if event.dtype.is_integer:
        pass
    elif event.dtype.is_floating:
        event = math_ops.cast(event, dtype=dtypes.int32)
    else:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` "
                        f"({base_dtype})")
    known = (params.shape.ndims is not None and params.shape[:-1].is_fully_defined()
             and event.shape.is_fully_defined())
    if not known or params.shape[:-1] != event.shape:
        params *= ones_like(event[..., None], dtype=params.dtype)
        params_shape = shape_ops.shape(params)[:-1]
        event *= ones(params_shape, dtype=event.dtype)
        if params.shape.ndims is not None:
            event.set_shape(TensorShape(params.shape[:-1]))
    return event, params


class Categorical(Distribution):
    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False,
                 allow_nan_stats=True, name="Categorical"):
        parameters = dict(locals())
        if validate_args:
            raise NotImplementedError("tf.distributions with validate_args=True is not "
                                      "supported by the engine yet")
        with name_scope(name, values=[logits, probs]) as name:
            self._logits, self._probs = _get_logits_and_probs(
                logits=logits, probs=probs, multidimensional=True, name=name)
            static = self._logits.shape.with_rank_at_least(1)
            if static.ndims is not None:
                self._batch_rank = convert_to_tensor(static.ndims - 1, dtype=dtypes.int32,
                                                     name="batch_rank")
            else:
                with name_scope(None, "batch_rank"):
                    self._batch_rank = shape_ops.rank(self._logits) - 1
            logits_shape = shape_ops.shape(self._logits, name="logits_shape")
            if static[-1].value is not None:  # a Dimension(None) where the rank is unknown
                self._event_size = convert_to_tensor(static[-1].value,
                                                     dtype=dtypes.int32, name="event_size")
            else:
                with name_scope(None, "event_size"):
                    self._event_size = logits_shape[self._batch_rank]
            if static[:-1].is_fully_defined():
                self._batch_shape_val = constant(static[:-1].as_list(), dtype=dtypes.int32,
                                                 name="batch_shape")
            else:
                with name_scope(None, "batch_shape"):
                    self._batch_shape_val = logits_shape[:-1]
        super().__init__(dtype=dtypes.as_dtype(dtype),
                         reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    @property
    def event_size(self):
        return self._event_size

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return array_ops.identity(self._batch_shape_val)

    def _batch_shape(self):
        return self.logits.shape[:-1]

    def _sample_n(self, n, seed=None):
        from engine.ops.random_sampling_ops import multinomial
        if self.logits.shape.ndims == 2:
            logits_2d = self.logits
        else:
            logits_2d = array_ops.reshape(self.logits, [-1, self.event_size])
        sample_dtype = dtypes.int64 if self.dtype.size > 4 else dtypes.int32
        draws = multinomial(logits_2d, n, seed=seed, output_dtype=sample_dtype)
        draws = array_ops.reshape(array_ops.transpose(draws),
                                  array_ops.concat([[n], self.batch_shape_tensor()], 0))
        return math_ops.cast(draws, self.dtype)

    def _log_prob(self, k):
        k = convert_to_tensor(k, name="k")
        k, logits = _broadcast_cat_event_and_params(k, self.logits,
                                                    base_dtype=self.dtype.base_dtype)
        return -nn_ops.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self):
        return -math_ops.reduce_sum(nn_ops.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self):
        ret = math_ops.argmax(self.logits, axis=self._batch_rank)
        ret = math_ops.cast(ret, self.dtype)
        ret.set_shape(self.batch_shape)
        return ret


_DIVERGENCES = {}


class RegisterKL:
    """Decorator registering a KL(a || b) function for a pair of distribution classes."""

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError("kl_fn must be callable, received: %s" % kl_fn)
        if self._key in _DIVERGENCES:
            raise ValueError("KL(%s || %s) has already been registered to: %s"
                             % (self._key[0].__name__, self._key[1].__name__,
                                _DIVERGENCES[self._key]))
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn


def _registered_kl(type_a, type_b):
    """The KL function registered for the nearest classes in the two method resolution
    orders, as TensorFlow looks it up."""
    best, best_distance = None, None
    for i, parent_a in enumerate(type_a.__mro__):
        for j, parent_b in enumerate(type_b.__mro__):
            fn = _DIVERGENCES.get((parent_a, parent_b))
            if fn is not None and (best_distance is None or i + j < best_distance):
                best, best_distance = fn, i + j
    return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            "No KL(distribution_a || distribution_b) registered for distribution_a type %s "
            "and distribution_b type %s" % (type(distribution_a).__name__,
                                            type(distribution_b).__name__))
    with name_scope("KullbackLeibler"):
        kl_t = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl_t
        raise NotImplementedError("kl_divergence with allow_nan_stats=False is not supported "
                                  "by the engine yet")


@RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
    with name_scope(name, "kl_normal_normal", [n_a.loc, n_b.loc]):
        one = constant(1, dtype=n_a.dtype)
        two = constant(2, dtype=n_a.dtype)
        half = constant(0.5, dtype=n_a.dtype)
        s_a_squared = math_ops.square(n_a.scale)
        s_b_squared = math_ops.square(n_b.scale)
        ratio = s_a_squared / s_b_squared
        return (math_ops.squared_difference(n_a.loc, n_b.loc) / (two * s_b_squared)
                + half * (ratio - one - math_ops.log(ratio)))


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    with name_scope(name, "kl_bernoulli_bernoulli", values=[a.logits, b.logits]):
        delta_probs0 = nn_ops.softplus(-b.logits) - nn_ops.softplus(-a.logits)
        delta_probs1 = nn_ops.softplus(b.logits) - nn_ops.softplus(a.logits)
        return (math_ops.sigmoid(a.logits) * delta_probs0
                + math_ops.sigmoid(-a.logits) * delta_probs1)


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    with name_scope(name, "kl_categorical_categorical", values=[a.logits, b.logits]):
        delta_log_probs1 = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return math_ops.reduce_sum(nn_ops.softmax(a.logits) * delta_log_probs1, axis=-1)
