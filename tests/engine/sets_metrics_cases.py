"""tf.sets and tf.metrics.auc built the same way by TensorFlow and the engine: set
intersections, unions, differences and sizes of dense and sparse int and string sets, and
AUC's update ops and values over three batches (ROC and PR curves, weights, thresholds).
Fixtures in tests/fixtures/mathops/sets_metrics.json (tools/make_sets_metrics_fixtures.py)."""

import numpy as np

from string_cases import _jsonable

A = np.array([[[1, 2, 3, 3], [4, 5, 5, 0]], [[7, 8, 9, 1], [2, 2, 2, 2]]], np.int64)
B = np.array([[[3, 1, 6, 0], [5, 5, 5, 5]], [[9, 10, 7, 1], [3, 4, 2, 0]]], np.int64)


def _sets(tf):
    a, b = tf.constant(A), tf.constant(B)
    sparse_b = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 1, 0], [1, 1, 3]],
                               tf.constant([3, 9, 5, 2, 8], tf.int64), [2, 2, 4])
    words = tf.constant([["the", "cat", "sat"], ["a", "dog", "a"]])
    other = tf.constant([["cat", "hat", "the"], ["dog", "dog", "cat"]])
    results = {
        "intersection": tf.sets.intersection(a, b),
        "union": tf.sets.union(a, b),
        "difference": tf.sets.difference(a, b),
        "b_minus_a": tf.sets.difference(a, b, aminusb=False),
        "dense_sparse": tf.sets.intersection(a, sparse_b),
        "sparse_dense_flipped": tf.sets.difference(sparse_b, a),
        "sparse_sparse": tf.sets.union(sparse_b, sparse_b),
        "strings": tf.sets.set_intersection(words, other),
        "string_union": tf.sets.set_union(words, other),
    }
    out = {}
    for key, sparse in results.items():
        out.update({f"{key}/indices": sparse.indices, f"{key}/values": sparse.values,
                    f"{key}/shape": sparse.dense_shape})
    out["size"] = tf.sets.size(results["union"])
    out["size_sparse"] = tf.sets.set_size(sparse_b)
    return out, []


def _auc(tf):
    labels = tf.placeholder(tf.int32, [None], name="labels")
    predictions = tf.placeholder(tf.float32, [None], name="predictions")
    weights = tf.placeholder(tf.float32, [None], name="weights")
    roc, roc_update = tf.metrics.auc(labels, predictions, num_thresholds=50)
    pr, pr_update = tf.metrics.auc(labels, predictions, weights=weights, curve="PR",
                                   summation_method="minoring")
    given, given_update = tf.metrics.auc(labels, predictions, thresholds=[0.25, 0.5, 0.75],
                                         summation_method="majoring")
    return ({"roc": roc, "pr": pr, "given": given},
            [roc_update, pr_update, given_update], (labels, predictions, weights))


def run_sets(tf):
    with tf.Graph().as_default():
        fetches, _ = _sets(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
    return {key: _jsonable(value) for key, value in values.items()}


def run_auc(tf):
    """The update ops' values over three batches, then the metrics' values, and the local
    variables' names."""
    rng = np.random.RandomState(3)
    out = {}
    with tf.Graph().as_default():
        values, updates, (labels, predictions, weights) = _auc(tf)
        names = sorted(v.op.name for v in tf.local_variables())
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for batch in range(3):
                truth = rng.randint(0, 2, 30)
                guess = np.clip(truth * 0.35 + rng.uniform(0.0, 0.65, 30), 0, 1)
                feed = {labels: truth, predictions: guess.astype(np.float32),
                        weights: rng.uniform(0.5, 2.0, 30).astype(np.float32)}
                for i, value in enumerate(sess.run(updates, feed)):
                    out[f"update{i}/batch{batch}"] = _jsonable(value)
            for key, value in sess.run(values).items():
                out[key] = _jsonable(value)
    out["local_variables"] = names
    return out


def _classification(tf):
    labels = tf.placeholder(tf.int64, [None], name="labels")
    predictions = tf.placeholder(tf.int64, [None], name="predictions")
    weights = tf.placeholder(tf.float32, [None], name="weights")
    scores = tf.placeholder(tf.float32, [None, 1], name="scores")
    pairs = {
        "precision": tf.metrics.precision(labels, predictions),
        "precision_weighted": tf.metrics.precision(labels, predictions, weights=weights),
        "recall": tf.metrics.recall(labels, predictions, weights=weights, name="rec"),
        "true_positives": tf.metrics.true_positives(labels, predictions),
        "false_positives": tf.metrics.false_positives(labels, predictions, weights=2.0),
        "false_negatives": tf.metrics.false_negatives(labels, predictions, weights=weights),
        "true_negatives": tf.metrics.true_negatives(labels, predictions),
        "mse": tf.metrics.mean_squared_error(tf.cast(labels, tf.float32), scores),
        "mae": tf.metrics.mean_absolute_error(tf.cast(labels, tf.float32), scores,
                                              weights=weights),
        "rmse": tf.metrics.root_mean_squared_error(tf.cast(labels, tf.float32), scores),
    }
    values = {key: value for key, (value, _) in pairs.items()}
    updates = [update for _, update in pairs.values()]
    return values, updates, (labels, predictions, weights, scores)


def run_classification(tf):
    """tf.metrics' precision, recall, the four condition counts and the mean errors: update
    ops over three batches, then the values, the local variables' names and the graph's
    nodes (the metric ops as TensorFlow names them)."""
    rng = np.random.RandomState(5)
    out = {}
    with tf.Graph().as_default() as graph:
        values, updates, (labels, predictions, weights, scores) = _classification(tf)
        names = sorted(v.op.name for v in tf.local_variables())
        nodes = [node.name for node in graph.as_graph_def().node
                 if node.name.startswith(("precision", "rec", "true_", "false_"))]
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            out["before"] = _jsonable(np.array(sess.run(values["precision"])))
            for batch in range(3):
                truth = rng.randint(0, 2, 20)
                feed = {labels: truth, predictions: rng.randint(0, 2, 20),
                        weights: rng.choice([0.0, 0.5, 1.0, 2.0], 20).astype(np.float32),
                        scores: rng.uniform(0, 1, (20, 1)).astype(np.float32)}
                for i, value in enumerate(sess.run(updates, feed)):
                    out[f"update{i}/batch{batch}"] = _jsonable(np.asarray(value))
            for key, value in sess.run(values).items():
                out[key] = _jsonable(np.asarray(value))
    out["local_variables"] = names
    out["nodes"] = nodes
    return out
