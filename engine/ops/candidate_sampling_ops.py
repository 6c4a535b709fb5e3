"""tf.nn's candidate samplers (log-uniform, uniform, all, fixed and learned unigram) and
compute_accidental_hits, seeded as TensorFlow seeds them (random_seed.get_seed)."""

from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed


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


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Classes 0 .. num_sampled - 1, each expected once."""
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("AllCandidateSampler", true_classes=true_classes, num_true=num_true,
                          num_sampled=num_sampled, unique=unique, seed=seed1 or 0,
                          seed2=seed2 or 0, name=name))


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Classes drawn by unigram ** distortion, the weights given or read from vocab_file."""
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("FixedUnigramCandidateSampler", true_classes=true_classes,
                          num_true=num_true, num_sampled=num_sampled, unique=unique,
                          range_max=range_max, vocab_file=vocab_file, distortion=distortion,
                          num_reserved_ids=num_reserved_ids, num_shards=num_shards,
                          shard=shard, unigrams=list(unigrams), seed=seed1 or 0,
                          seed2=seed2 or 0, name=name))


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Classes drawn by how often each was a true class in the node's earlier runs."""
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("LearnedUnigramCandidateSampler", true_classes=true_classes,
                          num_true=num_true, num_sampled=num_sampled, unique=unique,
                          range_max=range_max, seed=seed1 or 0, seed2=seed2 or 0, name=name))


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    seed1, seed2 = get_seed(seed)
    return tuple(apply_op("ComputeAccidentalHits", true_classes=true_classes,
                          sampled_candidates=sampled_candidates, num_true=num_true,
                          seed=seed1 or 0, seed2=seed2 or 0, name=name))


for _op_type in ("LogUniformCandidateSampler", "UniformCandidateSampler",
                 "AllCandidateSampler", "FixedUnigramCandidateSampler",
                 "LearnedUnigramCandidateSampler", "ComputeAccidentalHits"):
    NotDifferentiable(_op_type)
