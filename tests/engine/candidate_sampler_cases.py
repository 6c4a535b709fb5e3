"""tf.nn's all, fixed-unigram and learned-unigram candidate samplers (also tf.random's), built
the same way by real TensorFlow and the engine and run three times in one session, so that
each run's draws continue the node's Philox stream and the learned sampler's weights grow
with the true classes it saw. tools/make_candidate_sampler_fixtures.py writes TensorFlow's
draws and expected counts to tests/fixtures/candidate_samplers/;
tests/engine/test_candidate_samplers.py compares the engine's."""

import numpy as np

import image_cases

TRUE_CLASSES = np.array([[1, 3], [0, 7], [3, 3]], np.int64)
UNIGRAMS = [5.0, 1.0, 0.5, 8.0, 2.0, 2.0, 0.1, 3.0, 1.5, 4.0]
RUNS = 3


def _sampler(make):
    def build(tf):
        sampled, true_count, sampled_count = make(tf, tf.constant(TRUE_CLASSES))
        return {"sampled": sampled, "true_count": true_count,
                "sampled_count": sampled_count}
    return build


CASES = {
    "all": _sampler(lambda tf, t: tf.nn.all_candidate_sampler(t, 2, 10, True, seed=3)),
    "all_random_alias": _sampler(lambda tf, t: tf.random.all_candidate_sampler(
        t, 2, 8, False, name="everything")),
    "fixed_unique": _sampler(lambda tf, t: tf.nn.fixed_unigram_candidate_sampler(
        t, 2, 5, True, 10, unigrams=UNIGRAMS, seed=7)),
    "fixed_repeated_distorted": _sampler(lambda tf, t: tf.nn.fixed_unigram_candidate_sampler(
        t, 2, 12, False, 10, unigrams=UNIGRAMS, distortion=0.75, seed=8)),
    "fixed_reserved_sharded": _sampler(lambda tf, t: tf.nn.fixed_unigram_candidate_sampler(
        t, 2, 6, False, 8, unigrams=UNIGRAMS + [1.0, 2.0], num_reserved_ids=4, num_shards=2,
        shard=0, seed=9)),
    "fixed_reserved_shard1": _sampler(lambda tf, t: tf.nn.fixed_unigram_candidate_sampler(
        t, 2, 6, True, 8, unigrams=UNIGRAMS + [1.0, 2.0, 3.0], num_reserved_ids=3,
        num_shards=2, shard=1, seed=12)),
    "learned_unique": _sampler(lambda tf, t: tf.nn.learned_unigram_candidate_sampler(
        t, 2, 5, True, 12, seed=10)),
    "learned_repeated": _sampler(lambda tf, t: tf.random.learned_unigram_candidate_sampler(
        t, 2, 20, False, 9, seed=11)),
}


def _static(tensor):
    shape = tensor.shape
    return None if shape.ndims is None else shape.as_list()


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    """Each output of RUNS runs stacked, and the static shapes."""
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        outputs = build_case(tf, name)
        shapes = {key: _static(t) for key, t in outputs.items()}
        with tf.Session() as sess:
            runs = [sess.run(outputs) for _ in range(RUNS)]
    return {key: np.stack([run[key] for run in runs]) for key in outputs}, shapes


_SAMPLE = dict(true_classes=TRUE_CLASSES, num_true=2, num_sampled=4, unique=False)
ERROR_CASES = {
    "all_true_class_out_of_range": ("AllCandidateSampler", _SAMPLE),
    "log_uniform_true_class_out_of_range": ("LogUniformCandidateSampler",
                                            dict(_SAMPLE, range_max=5)),
    "fixed_too_few_unigrams": ("FixedUnigramCandidateSampler",
                               dict(_SAMPLE, range_max=12, unigrams=UNIGRAMS)),
    "learned_true_classes_columns": ("LearnedUnigramCandidateSampler",
                                     dict(_SAMPLE, num_true=3, range_max=12)),
}


def run_error_case(tf, name):
    """(error class, message) of running the raw op on fed true classes."""
    op, kwargs = ERROR_CASES[name]
    kwargs = dict(kwargs)
    with tf.Graph().as_default():
        true_classes = tf.placeholder(tf.int64, None)
        kwargs.pop("true_classes")
        out = getattr(tf.raw_ops, op)(true_classes=true_classes, **kwargs)
        with tf.Session() as sess:
            try:
                sess.run(out, {true_classes: TRUE_CLASSES})
            except tf.errors.OpError as error:
                return type(error).__name__, image_cases.kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
