"""TF 1.x statistics made of other ops, built the same way by TensorFlow and the engine:
tf.math.reduce_variance, reduce_std, unsorted_segment_mean, unsorted_segment_sqrt_n, polyval;
tf.nn.weighted_moments, sufficient_statistics with normalize_moments, log_poisson_loss; their
values, gradients and the graph's nodes. Fixture tests/fixtures/mathops/statistics.json
(tools/make_statistics_fixtures.py)."""

import numpy as np

from string_cases import _jsonable

X = np.random.RandomState(3).randn(4, 3, 2).astype(np.float32)
W = np.random.RandomState(4).uniform(0, 2, size=(4, 1, 2)).astype(np.float32)
IDS = np.array([2, 0, 2, 2], np.int32)


def build(tf):
    x = tf.constant(X, name="x")
    unknown = tf.placeholder_with_default(X, None, name="unknown")
    out = {
        "variance": tf.math.reduce_variance(x),
        "variance_axis": tf.math.reduce_variance(x, axis=[0, 2], keepdims=True),
        "std": tf.math.reduce_std(x, axis=1),
        "segment_mean": tf.math.unsorted_segment_mean(x, IDS, 4),
        "segment_sqrt_n": tf.unsorted_segment_sqrt_n(x, IDS, 3),
        "polyval": tf.math.polyval([1.0, -2.0, 0.5], x),
        "polyval_empty": tf.math.polyval([], x),
    }
    out["weighted_mean"], out["weighted_variance"] = tf.nn.weighted_moments(x, [0, 1], W)
    out["weighted_mean_keep"], _ = tf.nn.weighted_moments(x, [1], W, keep_dims=True)
    counts, m_ss, v_ss, shift = tf.nn.sufficient_statistics(x, [0, 1], shift=0.5)
    out["counts"], out["mean_ss"], out["var_ss"] = counts, m_ss, v_ss
    out["mean"], out["var"] = tf.nn.normalize_moments(counts, m_ss, v_ss, shift)
    dyn = tf.nn.sufficient_statistics(unknown, [-1], keep_dims=True)
    out["dyn_counts"], out["dyn_mean_ss"] = dyn[0], dyn[1]
    out["dyn_mean"], out["dyn_var"] = tf.nn.normalize_moments(*dyn)
    targets = tf.constant(np.abs(X[..., 0]) * 2, name="targets")
    out["poisson"] = tf.nn.log_poisson_loss(targets, x[..., 1])
    out["poisson_full"] = tf.nn.log_poisson_loss(targets, x[..., 1], compute_full_loss=True)
    loss = sum(tf.reduce_sum(out[k]) for k in ("std", "segment_mean", "weighted_variance",
                                                "poisson_full"))
    out["grad"] = tf.gradients(loss, x)[0]
    return out


def run(tf):
    with tf.Graph().as_default() as graph:
        fetches = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": {key: _jsonable(value) for key, value in values.items()},
            "nodes": nodes}
