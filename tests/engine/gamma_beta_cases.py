"""tf.distributions.Gamma, Exponential and Beta built the same way by TensorFlow and the
engine: seeded samples (RandomGamma, and Beta's second stream seeded by gen_new_seed), log_prob,
prob, cdf, log_cdf, survival functions, entropy, mean, mode (NaN where undefined), stddev,
variance, KL(Gamma || Gamma), KL(Exponential || Gamma), KL(Beta || Beta), broadcasting, float64,
a batch shape known only when run, static shapes, names and the graph's nodes.
Fixture tests/fixtures/mathops/gamma_beta_distributions.json
(tools/make_gamma_beta_fixtures.py)."""

import numpy as np

from string_cases import _jsonable as jsonable

CONCENTRATION = np.array([[0.5, 1.0, 2.5], [4.0, 0.8, 1.7]], np.float32)
RATE = np.array([1.5, 0.4, 2.0], np.float32)
X = np.array([[0.1, 2.0, 3.5], [1.0, 0.3, 0.05]], np.float32)
UNIT_X = np.array([[0.1, 0.5, 0.93], [0.02, 0.7, 0.4]], np.float32)


def build(tf):
    d = tf.distributions
    tf.set_random_seed(23)
    gamma = d.Gamma(concentration=CONCENTRATION, rate=RATE)
    gamma64 = d.Gamma(concentration=CONCENTRATION[0].astype(np.float64), rate=np.float64(2.0),
                      name="gamma64")
    expo = d.Exponential(rate=RATE, name="waiting")
    beta = d.Beta(concentration1=CONCENTRATION, concentration0=CONCENTRATION[::-1] + 0.3)
    wide = d.Beta(concentration1=CONCENTRATION, concentration0=RATE * 2.0, name="wide")
    prior = d.Beta(1.0, 1.0, name="flat")
    beta64 = d.Beta(np.array([2.0, 0.5], np.float64), np.array([3.0, 0.7], np.float64),
                    name="beta64")
    unknown = tf.placeholder(tf.float32, shape=[None], name="unknown_rate")
    dynamic = d.Gamma(concentration=3.0, rate=unknown, name="dynamic")
    out = {
        "gamma/sample": gamma.sample(seed=3),
        "gamma/sample_n": gamma.sample([2, 2], seed=4),
        "gamma/log_prob": gamma.log_prob(X),
        "gamma/prob": gamma.prob(X),
        "gamma/cdf": gamma.cdf(X),
        "gamma/log_cdf": gamma.log_cdf(X),
        "gamma/survival": gamma.survival_function(X),
        "gamma/entropy": gamma.entropy(),
        "gamma/mean": gamma.mean(),
        "gamma/mode": gamma.mode(),
        "gamma/stddev": gamma.stddev(),
        "gamma/variance": gamma.variance(),
        "gamma/batch_shape": gamma.batch_shape_tensor(),
        "gamma/kl": d.kl_divergence(gamma, d.Gamma(CONCENTRATION * 0.5 + 1.0, RATE[::-1])),
        "gamma64/sample": gamma64.sample(3, seed=5),
        "gamma64/log_prob": gamma64.log_prob([0.5, 1.0, 7.0]),
        "gamma64/cdf": gamma64.cdf([0.5, 1.0, 7.0]),
        "gamma64/entropy": gamma64.entropy(),
        "exponential/sample": expo.sample([4], seed=6),
        "exponential/log_prob": expo.log_prob(X),
        "exponential/cdf": expo.cdf(X),
        "exponential/log_survival": expo.log_survival_function(X),
        "exponential/entropy": expo.entropy(),
        "exponential/mean": expo.mean(),
        "exponential/mode": expo.mode(),
        "exponential/kl_gamma": d.kl_divergence(expo, d.Gamma(2.0, RATE)),
        "beta/sample": beta.sample(seed=7),
        "beta/sample_n": beta.sample(3, seed=8),
        "beta/log_prob": beta.log_prob(UNIT_X),
        "beta/prob": beta.prob(UNIT_X),
        "beta/cdf": beta.cdf(UNIT_X),
        "beta/log_cdf": beta.log_cdf(UNIT_X),
        "beta/entropy": beta.entropy(),
        "beta/mean": beta.mean(),
        "beta/mode": beta.mode(),
        "beta/stddev": beta.stddev(),
        "beta/variance": beta.variance(),
        "beta/kl": d.kl_divergence(beta, prior),
        "beta/kl_method": prior.kl_divergence(beta),
        "wide/sample": wide.sample(2, seed=12),
        "wide/log_prob": wide.log_prob(UNIT_X[0]),
        "wide/entropy": wide.entropy(),
        "wide/mode": wide.mode(),
        "wide/kl": d.kl_divergence(wide, beta),
        "flat/sample": prior.sample([5], seed=9),
        "beta64/sample": beta64.sample(2, seed=10),
        "beta64/log_prob": beta64.log_prob([0.3, 0.6]),
        "beta64/cdf": beta64.cdf([0.3, 0.6]),
        "beta64/entropy": beta64.entropy(),
        "dynamic/batch_shape": dynamic.batch_shape_tensor(),
        "dynamic/sample": dynamic.sample(2, seed=11),
        "dynamic/mode": dynamic.mode(),
    }
    shapes = {"batch": [str(x.batch_shape) for x in (gamma, gamma64, expo, beta, wide, prior,
                                                         beta64, dynamic)],
              "event": [str(x.event_shape) for x in (gamma, expo, beta)],
              "names": [x.name for x in (gamma, gamma64, expo, beta, prior, beta64, dynamic)],
              "dtypes": [x.dtype.name for x in (gamma, gamma64, expo, beta, beta64)],
              "parameters": [sorted(x.parameters) for x in (gamma, expo, beta)],
              "sample_shapes": [str(out[k].shape) for k in ("gamma/sample_n", "beta/sample_n",
                                                            "exponential/sample",
                                                            "dynamic/sample")],
              "printed": [str(gamma), repr(expo), str(beta), str(dynamic),
                          gamma.concentration.name, expo.rate.name, beta.concentration0.name,
                          beta.total_concentration.name,
                          str(gamma.reparameterization_type)]}
    return out, shapes, {unknown: RATE[:2]}


def errors(tf):
    """What each invalid construction raises: [error class, message]."""
    d = tf.distributions
    attempts = {
        "gamma_mixed_dtypes": lambda: d.Gamma(np.float64(1.0), np.float32(2.0), name="mixed"),
        "gamma_integer": lambda: d.Gamma(1, 2),
        "beta_mixed_dtypes": lambda: d.Beta(np.float32(1.0), np.float64(2.0)),
        "kl_beta_gamma": lambda: d.kl_divergence(d.Beta(1.0, 2.0), d.Gamma(1.0, 2.0)),
    }
    found = {}
    for key, attempt in attempts.items():
        with tf.Graph().as_default():
            try:
                attempt()
            except Exception as error:  # noqa: BLE001  (the class is what is compared)
                found[key] = [type(error).__name__, str(error)]
            else:
                found[key] = None
    return found


def run_checked(tf, build, runs):
    """Values of `build(tf)`'s fetches (a dict, and its placeholders) for each run's feeds
    where they run, [error class, failing node, assertion text] where they fail, and the
    graph's nodes."""
    found, values = {}, {}
    with tf.Graph().as_default() as graph:
        fetches, placeholders = build(tf)
        with tf.Session() as sess:
            for run_name, feeds in runs.items():
                feed_dict = dict(zip(placeholders, feeds))
                for key, fetch in fetches.items():
                    try:
                        value = sess.run(fetch, feed_dict)
                    except Exception as error:  # noqa: BLE001  (the class is compared)
                        found[f"{run_name}/{key}"] = [type(error).__name__] + [
                            line for line in str(error).splitlines()
                            if line.startswith(("Node:", "assertion failed"))]
                    else:
                        values[f"{run_name}/{key}"] = jsonable(value)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": values, "errors": found, "nodes": nodes}


def _checked_graph(tf):
    d = tf.distributions
    concentration = tf.placeholder(tf.float32, [None], name="concentration")
    x = tf.placeholder(tf.float32, [None], name="x")
    gamma = d.Gamma(concentration, 2.0, validate_args=True, allow_nan_stats=False)
    expo = d.Exponential(concentration, validate_args=True, name="expo")
    beta = d.Beta(concentration, 3.0, validate_args=True, allow_nan_stats=False)
    fetches = {"gamma/log_prob": gamma.log_prob(x), "gamma/cdf": gamma.cdf(x),
               "gamma/mode": gamma.mode(), "gamma/mean": gamma.mean(),
               "expo/log_prob": expo.log_prob(x), "beta/log_prob": beta.log_prob(x),
               "beta/mode": beta.mode(), "beta/mean": beta.mean()}
    return fetches, [concentration, x]


def checked(tf):
    """validate_args=True and allow_nan_stats=False, valid and invalid arguments."""
    return run_checked(tf, _checked_graph, {
        "valid": ([1.5, 2.5], [0.3, 0.6]), "zero_concentration": ([0.0, 2.5], [0.3, 0.6]),
        "negative_x": ([1.5, 2.5], [-0.3, 0.6]), "x_past_one": ([1.5, 2.5], [0.3, 1.6]),
        "mode_undefined": ([0.5, 2.5], [0.3, 0.6])})


def run(tf):
    """{key: value as JSON}, the static shapes and names, and the graph's nodes."""
    with tf.Graph().as_default() as graph:
        fetches, shapes, feed = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches, feed)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": {key: jsonable(value) for key, value in values.items()},
            "shapes": shapes, "nodes": nodes, "errors": errors(tf), "checked": checked(tf)}
