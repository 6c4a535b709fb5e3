"""Shape functions of the candidate samplers and of the ops the sampled losses build on."""

from engine.shape_inference.dims import _dims
from engine.shape_inference.partial_values import _from_value


def candidate_sampler(attrs, inputs):
    """sampled_candidates and sampled_expected_count [num_sampled]; true_expected_count as
    true_classes [batch, num_true]."""
    sampled = [attrs["num_sampled"]]
    true_classes = _dims(inputs[0])
    return sampled, (true_classes if true_classes is not None
                     else [None, attrs["num_true"]]), sampled


def compute_accidental_hits(attrs, inputs):
    return ([None], [None], [None])


def sparse_to_dense(attrs, inputs):
    return _from_value(inputs[1])
