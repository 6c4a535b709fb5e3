"""tf.distributions.Multinomial and DirichletMultinomial built the same way by TensorFlow and
the engine: seeded samples (Multinomial's map_fn of Multinomial draws; DirichletMultinomial's
RandomGamma then a Multinomial seeded by gen_new_seed), log_prob, prob, mean, variance,
stddev, covariance, from logits and from probs, a batch of total_count (Multinomial's;
DirichletMultinomial takes a scalar one, as TensorFlow's does), float64, static shapes, names
and the graph's nodes. Fixture
tests/fixtures/mathops/multinomial_distributions.json (tools/make_multinomial_fixtures.py)."""

import numpy as np

from gamma_beta_cases import run_checked
from string_cases import _jsonable as jsonable

LOGITS = np.array([[0.2, -1.3, 2.2], [1.0, 1.0, -0.5]], np.float32)
COUNTS = np.array([[1.0, 0.0, 4.0], [2.0, 2.0, 1.0]], np.float32)
ALPHA = np.array([[0.5, 1.0, 2.5], [4.0, 0.8, 1.7]], np.float32)


def build(tf):
    d = tf.distributions
    tf.set_random_seed(31)
    multi = d.Multinomial(total_count=5.0, logits=LOGITS)
    batch = d.Multinomial(total_count=[3.0, 7.0], probs=[[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]],
                          name="batch")
    single = d.Multinomial(total_count=6.0, logits=LOGITS[0], name="single")
    multi64 = d.Multinomial(total_count=np.float64(4.0),
                            probs=np.array([0.25, 0.75], np.float64), name="multi64")
    dm = d.DirichletMultinomial(total_count=5.0, concentration=ALPHA)
    dm64 = d.DirichletMultinomial(total_count=np.float64(3.0),
                                  concentration=np.array([0.7, 1.3], np.float64), name="dm64")
    out = {
        "multinomial/sample": multi.sample(seed=3),
        "multinomial/sample_n": multi.sample([2], seed=4),
        "multinomial/log_prob": multi.log_prob(COUNTS),
        "multinomial/prob": multi.prob(COUNTS[::-1]),
        "multinomial/mean": multi.mean(),
        "multinomial/variance": multi.variance(),
        "multinomial/stddev": multi.stddev(),
        "multinomial/covariance": multi.covariance(),
        "multinomial/probs": multi.probs,
        "multinomial/batch_shape": multi.batch_shape_tensor(),
        "multinomial/event_shape": multi.event_shape_tensor(),
        "batch/sample": batch.sample(2, seed=5),
        "single/sample": single.sample(3, seed=10),
        "single/sample_scalar": single.sample(seed=11),
        "batch/log_prob": batch.log_prob([[1.0, 1.0, 1.0], [4.0, 1.0, 2.0]]),
        "batch/mean": batch.mean(),
        "batch/logits": batch.logits,
        "multi64/log_prob": multi64.log_prob([1.0, 3.0]),
        "dirichlet_multinomial/sample": dm.sample(seed=7),
        "dirichlet_multinomial/sample_n": dm.sample([3], seed=8),
        "dirichlet_multinomial/log_prob": dm.log_prob(COUNTS),
        "dirichlet_multinomial/prob": dm.prob(COUNTS[::-1]),
        "dirichlet_multinomial/mean": dm.mean(),
        "dirichlet_multinomial/variance": dm.variance(),
        "dirichlet_multinomial/covariance": dm.covariance(),
        "dm64/sample": dm64.sample(2, seed=9),
        "dm64/log_prob": dm64.log_prob([[1.0, 2.0], [3.0, 0.0]]),
        "dm64/mean": dm64.mean(),
        "dm64/variance": dm64.variance(),
    }
    shapes = {"batch": [str(x.batch_shape) for x in (multi, batch, multi64, dm, dm64)],
              "event": [str(x.event_shape) for x in (multi, batch, multi64, dm, dm64)],
              "names": [x.name for x in (multi, batch, multi64, dm, dm64)],
              "dtypes": [x.dtype.name for x in (multi, multi64, dm)],
              "parameters": [sorted(x.parameters) for x in (multi, dm)],
              "sample_shapes": [str(out[k].shape) for k in ("multinomial/sample_n",
                                                            "batch/sample",
                                                            "dirichlet_multinomial/sample_n")],
              "printed": [str(multi), repr(dm), multi.total_count.name, dm.concentration.name,
                          str(multi.reparameterization_type)]}
    return out, shapes


def _checked_graph(tf):
    d = tf.distributions
    total = tf.placeholder(tf.float32, [], name="total")
    probs = tf.placeholder(tf.float32, [None, None], name="probs")
    counts = tf.placeholder(tf.float32, [None, None], name="counts")
    multi = d.Multinomial(total, probs=probs, validate_args=True)
    from_logits = d.Multinomial(total, logits=LOGITS, validate_args=True, name="from_logits")
    dm = d.DirichletMultinomial(total, probs * 4.0, validate_args=True)
    fetches = {"multinomial/log_prob": multi.log_prob(counts), "multinomial/mean": multi.mean(),
               "from_logits/log_prob": from_logits.log_prob(counts),
               "dirichlet_multinomial/log_prob": dm.log_prob(counts),
               "dirichlet_multinomial/mean": dm.mean()}
    return fetches, [total, probs, counts]


def checked(tf):
    """validate_args=True, valid and invalid arguments."""
    probs = [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]
    return run_checked(tf, _checked_graph, {
        "valid": (5.0, probs, COUNTS),
        "fractional_total": (5.5, probs, COUNTS),
        "negative_total": (-5.0, probs, COUNTS),
        "probs_sum": (5.0, [[0.2, 0.3, 0.6], [0.6, 0.1, 0.3]], COUNTS),
        "negative_probs": (5.0, [[-0.2, 0.7, 0.5], [0.6, 0.1, 0.3]], COUNTS),
        "one_class": (5.0, [[1.0], [1.0]], [[5.0], [5.0]]),
        "counts_sum": (5.0, probs, [[1.0, 0.0, 3.0], [2.0, 2.0, 1.0]]),
        "fractional_counts": (5.0, probs, [[1.5, 0.0, 3.5], [2.0, 2.0, 1.0]])})


def run(tf):
    """{key: value as JSON}, the static shapes and names, and the graph's nodes."""
    with tf.Graph().as_default() as graph:
        fetches, shapes = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": {key: jsonable(value) for key, value in values.items()},
            "shapes": shapes, "nodes": nodes, "checked": checked(tf)}
