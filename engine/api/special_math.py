"""The special math and manipulation ops in the TF1 namespace: tf.lgamma, tf.digamma,
tf.igamma, tf.igammac, tf.betainc, tf.log_sigmoid, tf.roll, tf.bitcast, tf.searchsorted,
tf.histogram_fixed_width, tf.unique_with_counts, tf.sparse_tensor_dense_matmul; tf.math's
xlogy, xdivy, xlog1py, multiply_no_nan, bessel_i0e/i1e, polygamma, zeta; tf.nn.swish; tf.manip
and tf.sparse. TensorFlow's other names for them (tf.math.lgamma, tf.manip.roll, tf.sparse.matmul,
tf.nn.silu, ...) come from engine/api/aliases.py. Also tf.distributions (Normal, Bernoulli,
Categorical, kl_divergence) and tf.broadcast_dynamic_shape / broadcast_static_shape."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.api import math_and_nn as _math_and_nn
from engine.api import core as _core
from engine.ops import manip_ops as _manip, special_math_ops as _special
from engine.ops import random_sampling_ops as _random_sampling, text_ops as _text
from engine.api import input_output as _input_output
from engine.ops import metrics_auc as _metrics_auc, set_ops as _set_ops
from engine.ops import distributions as _distributions
from engine.ops import uniform_and_laplace as _uniform_and_laplace
from engine.ops import gamma_and_beta as _gamma_and_beta
from engine.ops import dirichlet_and_student_t as _dirichlet_and_student_t
from engine.ops import multinomial_distributions as _multinomial_distributions
from engine.ops import data_flow_ops as _data_flow
from engine.ops import statistics_ops as _statistics
from engine.ops import special_math_grad as _special_grad  # noqa: F401  (registers gradients)

lgamma = _special.lgamma
digamma = _special.digamma
igamma = _special.igamma
igammac = _special.igammac
betainc = _special.betainc
log_sigmoid = _special.log_sigmoid
roll = _manip.roll
unravel_index = _manip.unravel_index
bitcast = _manip.bitcast
searchsorted = _manip.searchsorted
histogram_fixed_width = _manip.histogram_fixed_width
histogram_fixed_width_bins = _manip.histogram_fixed_width_bins
unique_with_counts = _manip.unique_with_counts
sparse_tensor_dense_matmul = _manip.sparse_tensor_dense_matmul
lbeta = _special.lbeta

for _name in ("xlogy", "xdivy", "xlog1py", "multiply_no_nan", "bessel_i0e", "bessel_i1e",
              "polygamma", "zeta", "lbeta", "erfinv", "ndtri"):
    setattr(_math_and_nn.math, _name, getattr(_special, _name))
_math_and_nn.nn.swish = _special.swish
for _name in ("reduce_variance", "reduce_std", "unsorted_segment_mean", "unsorted_segment_sqrt_n",
              "polyval"):
    setattr(_math_and_nn.math, _name, getattr(_statistics, _name))
for _name in ("weighted_moments", "sufficient_statistics", "normalize_moments",
              "log_poisson_loss"):
    setattr(_math_and_nn.nn, _name, getattr(_statistics, _name))
_math_and_nn.math.confusion_matrix = _statistics.confusion_matrix
confusion_matrix = _statistics.confusion_matrix
unsorted_segment_mean = _statistics.unsorted_segment_mean
unsorted_segment_sqrt_n = _statistics.unsorted_segment_sqrt_n

multinomial = _random_sampling.multinomial
random_gamma = _random_sampling.random_gamma
random_poisson = _random_sampling.random_poisson
_core.random.categorical = _random_sampling.categorical

string_split = _text.string_split
substr = _text.substr
as_string = _text.as_string
string_to_number = _text.string_to_number
_input_output.strings.split = _text.strings_split
_input_output.strings.substr = _text.substr
_input_output.strings.as_string = _text.as_string
_input_output.strings.to_number = _text.string_to_number
reduce_join = _text.reduce_join
regex_replace = _text.regex_replace
string_strip = _text.string_strip
string_to_hash_bucket_fast = _text.string_to_hash_bucket_fast
string_to_hash_bucket_strong = _text.string_to_hash_bucket_strong
string_to_hash_bucket = _text.string_to_hash_bucket
for _name, _value in (("reduce_join", _text.reduce_join), ("length", _text.string_length),
                      ("lower", _text.string_lower), ("upper", _text.string_upper),
                      ("strip", _text.string_strip), ("regex_replace", _text.regex_replace),
                      ("regex_full_match", _text.regex_full_match),
                      ("to_hash_bucket_fast", _text.string_to_hash_bucket_fast),
                      ("to_hash_bucket_strong", _text.string_to_hash_bucket_strong),
                      ("to_hash_bucket", _text.string_to_hash_bucket)):
    setattr(_input_output.strings, _name, _value)

_math_and_nn.metrics.auc = _metrics_auc.auc

sets = _Namespace("tf.sets", intersection=_set_ops.set_intersection,
                  union=_set_ops.set_union, difference=_set_ops.set_difference,
                  size=_set_ops.set_size)

distributions = _Namespace("tf.distributions", **{name: getattr(_distributions, name) for name in (
    "Distribution", "Normal", "Bernoulli", "Categorical", "kl_divergence", "RegisterKL",
    "ReparameterizationType", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED")},
    Uniform=_uniform_and_laplace.Uniform, Laplace=_uniform_and_laplace.Laplace,
    Gamma=_gamma_and_beta.Gamma, Exponential=_gamma_and_beta.Exponential,
    Beta=_gamma_and_beta.Beta, Dirichlet=_dirichlet_and_student_t.Dirichlet,
    StudentT=_dirichlet_and_student_t.StudentT,
    Multinomial=_multinomial_distributions.Multinomial,
    DirichletMultinomial=_multinomial_distributions.DirichletMultinomial)
dynamic_partition = _data_flow.dynamic_partition
dynamic_stitch = _data_flow.dynamic_stitch
broadcast_dynamic_shape = _distributions.broadcast_dynamic_shape
broadcast_static_shape = _distributions.broadcast_static_shape

manip = _Namespace("tf.manip", roll=roll)
sparse = _Namespace("tf.sparse", matmul=sparse_tensor_dense_matmul)

__all__ = ["lgamma", "digamma", "igamma", "igammac", "betainc", "log_sigmoid", "roll", "bitcast",
           "searchsorted", "histogram_fixed_width", "histogram_fixed_width_bins",
           "unique_with_counts",
           "sparse_tensor_dense_matmul", "manip", "sparse", "multinomial", "random_gamma",
           "random_poisson", "string_split", "substr", "as_string", "string_to_number", "sets",
           "reduce_join", "regex_replace", "string_strip", "distributions",
           "string_to_hash_bucket_fast", "string_to_hash_bucket_strong", "string_to_hash_bucket",
           "broadcast_dynamic_shape", "broadcast_static_shape", "dynamic_partition",
           "dynamic_stitch", "unsorted_segment_mean", "unsorted_segment_sqrt_n",
           "confusion_matrix", "unravel_index", "lbeta"]
