"""tf.nn's candidate samplers (log-uniform, uniform) and compute_accidental_hits, seeded as
TensorFlow seeds them (random_seed.get_seed)."""

from engine.kernels import cpu_candidate_sampling  # noqa: F401  (registers the kernels)
from engine.ops import program_ops
from engine.ops.gradients import NotDifferentiable
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed
from engine.shape_inference.dims import _dims
from engine.shape_inference.partial_values import _from_value


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count), P(class) =
    log((class + 2) / (class + 1)) / log(range_max + 1)."""
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("LogUniformCandidateSampler", true_classes=true_classes,
                          num_true=num_true, num_sampled=num_sampled, unique=unique,
                          range_max=range_max, seed=seed1 or 0, seed2=seed2 or 0, name=name))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("UniformCandidateSampler", true_classes=true_classes,
                          num_true=num_true, num_sampled=num_sampled, unique=unique,
                          range_max=range_max, seed=seed1 or 0, seed2=seed2 or 0, name=name))


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("ComputeAccidentalHits", true_classes=true_classes,
                          sampled_candidates=sampled_candidates, num_true=num_true,
                          seed=seed1 or 0, seed2=seed2 or 0, name=name))


def _sampler_shape(attrs, inputs):
    sampled = [attrs["num_sampled"]]
    true_classes = _dims(inputs[0])
    return sampled, (true_classes if true_classes is not None else [None, attrs["num_true"]]
                     ), sampled


def _in_top_k_shape(attrs, inputs):
    predictions = _dims(inputs[0])
    return [None if predictions is None else predictions[0]]


program_ops.register_shape_functions({
    "LogUniformCandidateSampler": _sampler_shape,
    "UniformCandidateSampler": _sampler_shape,
    "ComputeAccidentalHits": lambda attrs, inputs: ([None], [None], [None]),
    "SparseToDense": lambda attrs, inputs: _from_value(inputs[1]),
    "InTopKV2": _in_top_k_shape,
})
for _op_type in ("LogUniformCandidateSampler", "UniformCandidateSampler",
                 "ComputeAccidentalHits", "InTopKV2"):
    NotDifferentiable(_op_type)
