"""Seeded samplers built the same way by TensorFlow and the engine: tf.random.categorical and
tf.multinomial (Multinomial: rows in one shard and in the blocks TensorFlow's Shard cuts),
tf.random_gamma with its gradient (RandomGamma, RandomGammaGrad) and tf.random.poisson
(RandomPoissonV2), each run twice in one session (the second run draws on from the first's
reservation). Fixtures in tests/fixtures/mathops/random_sampling.npz
(tools/make_random_sampling_fixtures.py)."""

import numpy as np

_R = np.random.RandomState(11)
LOGITS = _R.normal(size=(3, 5)).astype(np.float32)
LOGITS[1, 2] = -np.inf
WIDE_LOGITS = _R.normal(size=(64, 10)).astype(np.float32)


def _categorical(tf):
    tf.set_random_seed(1234)
    logits = tf.constant(LOGITS)
    return {"op_seed": tf.random.categorical(logits, 7, seed=5),
            "graph_seed": tf.random.categorical(logits, 4),
            "int32": tf.multinomial(logits * 2.0, 9, seed=3, output_dtype=tf.int32),
            "float64": tf.random.categorical(tf.constant(LOGITS.astype(np.float64)), 6,
                                             seed=8)}


def _categorical_sharded(tf):
    # 64 rows of 100 draws: TensorFlow's Shard cuts the rows in blocks over 2 threads
    return {"wide": tf.random.categorical(tf.constant(WIDE_LOGITS), 100, seed=21)}


def _gamma(tf):
    tf.set_random_seed(77)
    alpha = tf.constant([0.5, 1.0, 2.5, 7.0], name="alpha")
    sample = tf.random_gamma([5], alpha, seed=4)
    wide = tf.random.gamma([3, 2], tf.constant([[0.25], [3.0]], tf.float64),
                           beta=tf.constant([1.0, 2.0], tf.float64), dtype=tf.float64, seed=6)
    return {"float32": sample, "float64": wide,
            "grad:alpha": tf.gradients(tf.reduce_sum(sample), alpha)[0]}


def _poisson(tf):
    tf.set_random_seed(99)
    lam = tf.constant([0.5, 3.0, 12.0, 150.0])
    return {"float32": tf.random.poisson(lam, [6], seed=2),
            "int64": tf.random_poisson(tf.constant([[4.0], [40.0]], tf.float64), [3],
                                       dtype=tf.int64, seed=3)}


CASES = {"categorical": _categorical, "categorical_sharded": _categorical_sharded,
         "gamma": _gamma, "poisson": _poisson}


def run_case(tf, name, runs=2):
    """{"<key>/run<i>": value} of `runs` runs of case `name` in one session of two intra-op
    threads (Multinomial's shards follow the thread count)."""
    with tf.Graph().as_default():
        fetches = CASES[name](tf)
        config = tf.ConfigProto(intra_op_parallelism_threads=2)
        with tf.Session(config=config) as sess:
            values = {}
            for run in range(runs):
                for key, value in sess.run(fetches).items():
                    values[f"{key}/run{run}"] = np.asarray(value)
    return values
