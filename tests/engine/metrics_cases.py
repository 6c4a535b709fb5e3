"""TF 1.x streaming metrics (tf.metrics.mean_iou, ..._at_thresholds, ..._at_k) built the same
way on TensorFlow (tools/make_metrics_fixtures.py) and on the engine
(tests/engine/test_metrics_more.py): each case's update ops run on three batches, the values
read after each, and the local variables' names."""

import numpy as np

STEPS = 3
F32, I64 = np.float32, np.int64


def _batches(seed, make):
    rng = np.random.RandomState(seed)
    return [make(rng) for _ in range(STEPS)]


def _classes(rng, shape=(6,), n=4):
    return rng.randint(0, n, size=shape).astype(I64)


def _probabilities(rng, shape=(8,)):
    return rng.uniform(0.0, 1.0, size=shape).astype(F32)


def _binary(rng, shape=(8,)):
    return rng.randint(0, 2, size=shape).astype(np.bool_)


def _mean_iou(tf):
    labels = tf.placeholder(tf.int64, [6], name="labels")
    predictions = tf.placeholder(tf.int64, [6], name="predictions")
    metrics = {"iou": tf.metrics.mean_iou(labels, predictions, 4)}
    feeds = _batches(1, lambda r: {labels: _classes(r), predictions: _classes(r)})
    return metrics, feeds


def _mean_iou_weighted(tf):
    labels = tf.placeholder(tf.int32, [2, 3], name="labels")
    predictions = tf.placeholder(tf.int32, [2, 3], name="predictions")
    weights = tf.placeholder(tf.float32, [2, 3], name="weights")
    metrics = {"iou": tf.metrics.mean_iou(labels, predictions, 3, weights=weights,
                                          name="miou")}
    feeds = _batches(2, lambda r: {labels: _classes(r, (2, 3), 3).astype(np.int32),
                                   predictions: _classes(r, (2, 3), 3).astype(np.int32),
                                   weights: r.uniform(0, 2, (2, 3)).astype(F32)})
    return metrics, feeds


def _mean_per_class_accuracy(tf):
    labels = tf.placeholder(tf.int64, [2, 3], name="labels")
    predictions = tf.placeholder(tf.int64, [2, 3], name="predictions")
    weights = tf.placeholder(tf.float32, [2, 3], name="weights")
    metrics = {"plain": tf.metrics.mean_per_class_accuracy(labels, predictions, 4),
               "weighted": tf.metrics.mean_per_class_accuracy(labels, predictions, 4,
                                                              weights=weights)}
    feeds = _batches(3, lambda r: {labels: _classes(r, (2, 3)),
                                   predictions: _classes(r, (2, 3)),
                                   weights: r.uniform(0, 2, (2, 3)).astype(F32)})
    return metrics, feeds


def _mean_relative_error(tf):
    labels = tf.placeholder(tf.float32, [5], name="labels")
    predictions = tf.placeholder(tf.float32, [5], name="predictions")
    normalizer = tf.placeholder(tf.float32, [5], name="normalizer")
    metrics = {"mre": tf.metrics.mean_relative_error(labels, predictions, normalizer)}

    def make(r):
        norm = r.uniform(0.5, 2.0, 5).astype(F32)
        norm[r.randint(5)] = 0.0
        return {labels: r.randn(5).astype(F32), predictions: r.randn(5).astype(F32),
                normalizer: norm}
    return metrics, _batches(4, make)


def _mean_cosine_distance(tf):
    labels = tf.placeholder(tf.float32, [4, 3], name="labels")
    predictions = tf.placeholder(tf.float32, [4, 3], name="predictions")
    metrics = {"cos": tf.metrics.mean_cosine_distance(labels, predictions, dim=1)}

    def unit(r):
        v = r.randn(4, 3).astype(F32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)
    return metrics, _batches(5, lambda r: {labels: unit(r), predictions: unit(r)})


def _mean_tensor(tf):
    values = tf.placeholder(tf.float32, [2, 3], name="values")
    weights = tf.placeholder(tf.float32, [2, 1], name="weights")
    metrics = {"plain": tf.metrics.mean_tensor(values),
               "weighted": tf.metrics.mean_tensor(values, weights=weights, name="wmean")}
    feeds = _batches(6, lambda r: {values: r.randn(2, 3).astype(F32),
                                   weights: r.uniform(0, 2, (2, 1)).astype(F32)})
    return metrics, feeds


def _percentage_below(tf):
    values = tf.placeholder(tf.float32, [7], name="values")
    metrics = {"below": tf.metrics.percentage_below(values, 0.25)}
    return metrics, _batches(7, lambda r: {values: r.randn(7).astype(F32)})


def _weighted_means(tf):
    values = tf.placeholder(tf.float32, [2, 3], name="values")
    row_weights = tf.placeholder(tf.float32, [2, 1], name="row_weights")
    unknown = tf.placeholder(tf.float32, None, name="unknown")
    metrics = {"below": tf.metrics.percentage_below(values, 0.0, weights=row_weights),
               "mre": tf.metrics.mean_relative_error(values, values * 0.5, values + 3.0,
                                                     weights=row_weights),
               "scalar": tf.metrics.percentage_below(values, 0.5, weights=2.0),
               "unknown": tf.metrics.mean_tensor(values, weights=unknown)}
    feeds = _batches(18, lambda r: {values: r.randn(2, 3).astype(F32),
                                    row_weights: r.uniform(0, 2, (2, 1)).astype(F32),
                                    unknown: r.uniform(0, 2, (1, 3)).astype(F32)})
    return metrics, feeds


_THRESHOLDS = [0.15, 0.5, 0.85]


def _counts_at_thresholds(tf):
    labels = tf.placeholder(tf.bool, [8], name="labels")
    predictions = tf.placeholder(tf.float32, [8], name="predictions")
    metrics = {key: getattr(tf.metrics, f"{key}_at_thresholds")(labels, predictions,
                                                                _THRESHOLDS)
               for key in ("true_positives", "false_positives", "true_negatives",
                           "false_negatives")}
    feeds = _batches(8, lambda r: {labels: _binary(r), predictions: _probabilities(r)})
    return metrics, feeds


def _counts_at_thresholds_weighted(tf):
    labels = tf.placeholder(tf.int64, [4, 2], name="labels")
    predictions = tf.placeholder(tf.float32, [4, 2], name="predictions")
    weights = tf.placeholder(tf.float32, [4, 2], name="weights")
    metrics = {"tp": tf.metrics.true_positives_at_thresholds(labels, predictions, _THRESHOLDS,
                                                             weights=weights, name="tp"),
               "fn": tf.metrics.false_negatives_at_thresholds(labels, predictions, [0.3],
                                                              weights=weights)}
    feeds = _batches(9, lambda r: {labels: _binary(r, (4, 2)).astype(I64),
                                   predictions: _probabilities(r, (4, 2)),
                                   weights: r.uniform(0, 2, (4, 2)).astype(F32)})
    return metrics, feeds


def _precision_recall_at_thresholds(tf):
    labels = tf.placeholder(tf.bool, [8], name="labels")
    predictions = tf.placeholder(tf.float32, [8], name="predictions")
    metrics = {"precision": tf.metrics.precision_at_thresholds(labels, predictions,
                                                               _THRESHOLDS),
               "recall": tf.metrics.recall_at_thresholds(labels, predictions, _THRESHOLDS)}
    feeds = _batches(10, lambda r: {labels: _binary(r), predictions: _probabilities(r)})
    return metrics, feeds


def _auc_broadcast_weights(tf):
    labels = tf.placeholder(tf.bool, [8], name="labels")
    predictions = tf.placeholder(tf.float32, [8], name="predictions")
    weight = tf.placeholder(tf.float32, [1], name="weight")
    some = tf.placeholder(tf.float32, [None], name="some")
    metrics = {"roc": tf.metrics.auc(labels, predictions, weights=weight, num_thresholds=7),
               "pr": tf.metrics.auc(labels, predictions, weights=some, curve="PR",
                                    num_thresholds=7)}
    feeds = _batches(19, lambda r: {labels: _binary(r), predictions: _probabilities(r),
                                    weight: r.uniform(0.5, 2, 1).astype(F32),
                                    some: r.uniform(0.5, 2, 8).astype(F32)})
    return metrics, feeds


def _sensitivity_specificity(tf):
    labels = tf.placeholder(tf.bool, [12], name="labels")
    predictions = tf.placeholder(tf.float32, [12], name="predictions")
    metrics = {"sensitivity": tf.metrics.sensitivity_at_specificity(labels, predictions, 0.6,
                                                                    num_thresholds=20),
               "specificity": tf.metrics.specificity_at_sensitivity(labels, predictions, 0.7,
                                                                    num_thresholds=20)}
    feeds = _batches(11, lambda r: {labels: _binary(r, (12,)),
                                    predictions: _probabilities(r, (12,))})
    return metrics, feeds


def _top_k_feeds(seed, labels, predictions, dense_labels_shape=None):
    def make(r):
        feed = {predictions: r.randn(3, 5).astype(F32)}
        if dense_labels_shape is not None:
            feed[labels] = r.randint(0, 5, dense_labels_shape).astype(I64)
        return feed
    return _batches(seed, make)


def _precision_recall_at_k(tf):
    labels = tf.placeholder(tf.int64, [3, 2], name="labels")
    predictions = tf.placeholder(tf.float32, [3, 5], name="predictions")
    metrics = {"precision": tf.metrics.precision_at_k(labels, predictions, 2),
               "recall": tf.metrics.recall_at_k(labels, predictions, 3),
               "sparse_precision": tf.metrics.sparse_precision_at_k(labels, predictions, 1)}
    return metrics, _top_k_feeds(12, labels, predictions, (3, 2))


def _precision_recall_at_k_class(tf):
    labels = tf.placeholder(tf.int64, [3], name="labels")
    predictions = tf.placeholder(tf.float32, [3, 5], name="predictions")
    metrics = {"precision": tf.metrics.precision_at_k(labels, predictions, 2, class_id=1),
               "recall": tf.metrics.recall_at_k(labels, predictions, 2, class_id=3,
                                                name="rec")}
    return metrics, _top_k_feeds(13, labels, predictions, (3,))


def _at_top_k(tf):
    labels = tf.placeholder(tf.int64, [3, 2], name="labels")
    idx = tf.placeholder(tf.int32, [3, 2], name="idx")
    metrics = {"precision": tf.metrics.precision_at_top_k(labels, idx),
               "recall": tf.metrics.recall_at_top_k(labels, idx, k=2)}
    feeds = _batches(14, lambda r: {labels: r.randint(0, 5, (3, 2)).astype(I64),
                                    idx: np.array([r.permutation(5)[:2] for _ in range(3)],
                                                  np.int32)})
    return metrics, feeds


def _at_k_sparse_labels(tf):
    labels = tf.SparseTensor(tf.constant([[0, 0], [1, 0], [1, 1], [2, 0]], tf.int64),
                             tf.constant([1, 0, 4, 2], tf.int64),
                             tf.constant([3, 2], tf.int64))
    predictions = tf.placeholder(tf.float32, [3, 5], name="predictions")
    metrics = {"precision": tf.metrics.precision_at_k(labels, predictions, 2),
               "recall": tf.metrics.recall_at_k(labels, predictions, 2)}
    return metrics, _top_k_feeds(15, labels, predictions)


def _average_precision_at_k(tf):
    labels = tf.placeholder(tf.int64, [3, 2], name="labels")
    predictions = tf.placeholder(tf.float32, [3, 5], name="predictions")
    weights = tf.placeholder(tf.float32, [3], name="weights")
    metrics = {"ap": tf.metrics.average_precision_at_k(labels, predictions, 3),
               "sparse_ap": tf.metrics.sparse_average_precision_at_k(labels, predictions, 2,
                                                                     weights=weights)}

    def make(r):
        label_values = r.randint(0, 6, (3, 2)).astype(I64)  # 5 is out of range: cleaned
        return {predictions: r.randn(3, 5).astype(F32), labels: label_values,
                weights: r.uniform(0, 2, 3).astype(F32)}
    return metrics, _batches(16, make)


def _collections(tf):
    labels = tf.placeholder(tf.int64, [3, 2], name="labels")
    predictions = tf.placeholder(tf.float32, [3, 5], name="predictions")
    flags = tf.placeholder(tf.bool, [6], name="flags")
    scores = tf.placeholder(tf.float32, [6], name="scores")
    into = dict(metrics_collections=["metric_values"], updates_collections=["metric_updates"])
    metrics = {
        "iou": tf.metrics.mean_iou(labels, tf.cast(labels, tf.int32), 5, **into),
        "per_class": tf.metrics.mean_per_class_accuracy(labels, labels, 5, **into),
        "cos": tf.metrics.mean_cosine_distance(predictions, predictions, 1, **into),
        "tensor": tf.metrics.mean_tensor(predictions, **into),
        "tp": tf.metrics.true_positives_at_thresholds(flags, scores, [0.5], **into),
        "prec": tf.metrics.precision_at_thresholds(flags, scores, [0.5], **into),
        "sens": tf.metrics.sensitivity_at_specificity(flags, scores, 0.5, num_thresholds=5,
                                                      **into),
        "p@k": tf.metrics.precision_at_k(labels, predictions, 2, **into),
        "r@top": tf.metrics.recall_at_top_k(labels, tf.constant([[0, 1]] * 3), **into),
        "ap": tf.metrics.average_precision_at_k(labels, predictions, 2, **into),
    }
    feeds = _batches(17, lambda r: {labels: r.randint(0, 5, (3, 2)).astype(I64),
                                    predictions: r.randn(3, 5).astype(F32),
                                    flags: _binary(r, (6,)),
                                    scores: _probabilities(r, (6,))})
    return metrics, feeds


CASES = {name[1:]: fn for name, fn in list(globals().items())
         if name.startswith("_") and callable(fn) and name not in (
             "_batches", "_classes", "_probabilities", "_binary", "_top_k_feeds",
             "_labels_predictions")}


def _labels_predictions(tf, classes=False):
    labels = tf.placeholder(tf.int64 if classes else tf.bool, [6], name="labels")
    predictions = tf.placeholder(tf.int64 if classes else tf.float32, [6], name="predictions")
    return labels, predictions


ERROR_CASES = {  # the Python API's errors while building: (class, message)
    "specificity_out_of_range": lambda tf: tf.metrics.sensitivity_at_specificity(
        *_labels_predictions(tf), specificity=1.5),
    "sensitivity_out_of_range": lambda tf: tf.metrics.specificity_at_sensitivity(
        *_labels_predictions(tf), sensitivity=-0.1),
    "average_precision_k_zero": lambda tf: tf.metrics.average_precision_at_k(
        tf.constant([[1]], tf.int64), tf.constant([[0.5, 0.5]]), 0),
    "top_k_labels_rank": lambda tf: tf.metrics.precision_at_top_k(
        tf.constant(np.zeros((3, 2, 1, 1), I64)), tf.constant(np.zeros((3, 2), I64))),
    "mean_iou_shapes": lambda tf: tf.metrics.mean_iou(
        tf.placeholder(tf.int64, [6]), tf.placeholder(tf.int64, [5]), 3),
    "mean_relative_error_normalizer": lambda tf: tf.metrics.mean_relative_error(
        tf.placeholder(tf.float32, [4]), tf.placeholder(tf.float32, [4]),
        tf.placeholder(tf.float32, [3])),
}


def run_error_case(tf, name):
    """(class, message) of the error building ERROR_CASES[name] raises."""
    with tf.Graph().as_default():
        try:
            ERROR_CASES[name](tf)
        except Exception as error:  # noqa: BLE001  (the class is what is compared)
            return type(error).__name__, str(error)
    raise AssertionError(f"{name}: no error")


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    """Each metric's update op output and value after each step, the local variables'
    names; {metric: static shape of its value}."""
    with tf.Graph().as_default():
        metrics, feeds = build_case(tf, name)
        names = sorted(metrics)
        values = {"local_variables": np.array([v.op.name for v in tf.local_variables()])}
        for collection in ("metric_values", "metric_updates"):
            names_in = [t.name for t in tf.get_collection(collection)]
            if names_in:
                values[collection] = np.array(names_in)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for step, feed in enumerate(feeds):
                updates = sess.run([metrics[n][1] for n in names], feed)
                read = sess.run([metrics[n][0] for n in names], feed)
                for n, u, v in zip(names, updates, read):
                    # copies: the engine hands out an AssignAdd's output and a variable's
                    # read as the variable's own buffer, which the next step updates
                    values[f"{n}.update{step}"] = np.array(u, copy=True)
                    values[f"{n}.value{step}"] = np.array(v, copy=True)
        shapes = {n: metrics[n][0].shape.as_list() if metrics[n][0].shape.ndims is not None
                  else None for n in names}
    return values, shapes
