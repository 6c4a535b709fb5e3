"""tf.distributions built the same way by TensorFlow and the engine: Normal, Bernoulli and
Categorical (from logits and from probs), Uniform and Laplace, their seeded samples, log_prob,
prob, cdf, log_cdf, survival functions, Normal's quantile and cross_entropy, entropy, mean,
mode, stddev, variance, batch shapes, str and repr, and kl_divergence between two of a kind,
with the graph's nodes. Fixture tests/fixtures/mathops/distributions.json
(tools/make_distribution_fixtures.py)."""

import numpy as np

from string_cases import _jsonable as jsonable

LOC = np.array([[0.5, -1.0, 2.0], [0.0, 0.3, -0.7]], np.float32)
SCALE = np.array([1.5, 0.4, 2.0], np.float32)
X = np.array([[0.1, -2.0, 3.5], [1.0, 0.0, -4.0]], np.float32)
LOGITS = np.array([[0.2, -1.3, 2.2, 0.0], [1.0, 1.0, -0.5, 0.3]], np.float32)


def build(tf):
    d = tf.distributions
    tf.set_random_seed(17)
    normal = d.Normal(loc=LOC, scale=SCALE)
    prior = d.Normal(loc=0.0, scale=1.0, name="prior")
    bern = d.Bernoulli(logits=LOGITS)
    bern_p = d.Bernoulli(probs=tf.sigmoid(LOGITS[::-1]), dtype=tf.float32, name="coin")
    cat = d.Categorical(logits=LOGITS)
    cat_p = d.Categorical(probs=tf.nn.softmax(LOGITS * 0.5), name="dice")
    out = {
        "normal/sample": normal.sample(seed=3),
        "normal/sample_n": normal.sample([4], seed=4),
        "normal/log_prob": normal.log_prob(X),
        "normal/prob": normal.prob(X),
        "normal/cdf": normal.cdf(X),
        "normal/entropy": normal.entropy(),
        "normal/mean": normal.mean(),
        "normal/mode": normal.mode(),
        "normal/stddev": normal.stddev(),
        "normal/variance": normal.variance(),
        "normal/batch_shape": normal.batch_shape_tensor(),
        "normal/kl": d.kl_divergence(normal, prior),
        "normal/kl_method": normal.kl_divergence(d.Normal(LOC * 0.5, SCALE * 2.0)),
        "prior/sample": prior.sample([2, 3], seed=5),
        "bernoulli/sample": bern.sample(3, seed=6),
        "bernoulli/log_prob": bern.log_prob([[1, 0, 1, 1], [0, 0, 1, 0]]),
        "bernoulli/prob_broadcast": bern.prob([1, 0, 0, 1]),
        "bernoulli/entropy": bern.entropy(),
        "bernoulli/mean": bern.mean(),
        "bernoulli/variance": bern.variance(),
        "bernoulli/stddev": bern.stddev(),
        "bernoulli/mode": bern.mode(),
        "bernoulli/probs_logits": bern_p.logits,
        "bernoulli/kl": d.kl_divergence(bern, bern_p),
        "categorical/sample": cat.sample([5], seed=7),
        "categorical/log_prob": cat.log_prob([2, 0]),
        "categorical/log_prob_broadcast": cat.log_prob([[3, 1], [0, 2], [1, 1]]),
        "categorical/prob": cat.prob([1, 3]),
        "categorical/entropy": cat.entropy(),
        "categorical/mode": cat.mode(),
        "categorical/probs": cat.probs,
        "categorical/kl": d.kl_divergence(cat, cat_p),
        "dice/logits": cat_p.logits,
        "dice/sample": cat_p.sample(seed=8),
        "normal/log_cdf": normal.log_cdf(X * 6.0),  # past log_ndtr's -10 and 5 segments
        "normal/survival": normal.survival_function(X),
        "normal/log_survival": normal.log_survival_function(X * 6.0),
        "normal/quantile": normal.quantile([[0.01, 0.3, 0.5], [0.7, 0.9, 0.999]]),
        "normal/cross_entropy": normal.cross_entropy(prior),
    }
    uniform = d.Uniform(low=LOC, high=LOC + SCALE)
    laplace = d.Laplace(loc=LOC[0], scale=SCALE, name="noise")
    unit = d.Uniform()
    out.update({
        "uniform/sample": uniform.sample(2, seed=9),
        "uniform/unit_sample": unit.sample([3], seed=10),
        "uniform/prob": uniform.prob(X),
        "uniform/log_prob": uniform.log_prob(LOC + 0.1),
        "uniform/cdf": uniform.cdf(X),
        "uniform/log_cdf": uniform.log_cdf(LOC + 0.2),
        "uniform/survival": uniform.survival_function(X),
        "uniform/entropy": uniform.entropy(),
        "uniform/mean": uniform.mean(),
        "uniform/stddev": uniform.stddev(),
        "uniform/variance": uniform.variance(),
        "uniform/range": uniform.range(),
        "laplace/sample": laplace.sample([2, 2], seed=11),
        "laplace/log_prob": laplace.log_prob(X),
        "laplace/prob": laplace.prob(X),
        "laplace/cdf": laplace.cdf(X),
        "laplace/log_cdf": laplace.log_cdf(X),
        "laplace/log_survival": laplace.log_survival_function(X),
        "laplace/survival": laplace.survival_function(X),
        "laplace/entropy": laplace.entropy(),
        "laplace/mean": laplace.mean(),
        "laplace/mode": laplace.mode(),
        "laplace/stddev": laplace.stddev(),
        "laplace/variance": laplace.variance(),
    })
    unknown = d.Categorical(logits=tf.placeholder(tf.float32), name="unknown_rank")
    shapes = {"normal": [str(normal.batch_shape), str(normal.event_shape)],
              "prior": [str(prior.batch_shape), str(prior.event_shape)],
              "categorical": [str(cat.batch_shape), str(cat.event_shape)],
              "bernoulli": [str(bern.batch_shape), str(bern.event_shape)],
              "names": [normal.name, prior.name, bern.name, bern_p.name, cat.name, cat_p.name],
              "dtypes": [normal.dtype.name, bern.dtype.name, bern_p.dtype.name,
                         cat.dtype.name],
              "sample_shapes": [str(out["normal/sample_n"].shape),
                                str(out["categorical/sample"].shape)],
              "printed": [str(normal), repr(prior), str(uniform), repr(laplace), str(unknown),
                          repr(unknown), str(unit.batch_shape), uniform.low.name,
                          laplace.scale.name]}
    return out, shapes


def run(tf):
    """{key: value as JSON}, the static shapes and names, and the graph's nodes."""
    with tf.Graph().as_default() as graph:
        fetches, shapes = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": {key: jsonable(value) for key, value in values.items()},
            "shapes": shapes, "nodes": nodes}
