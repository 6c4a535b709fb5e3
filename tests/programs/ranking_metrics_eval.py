"""Evaluating a binary classifier the TF 1.x way (2017 Estimator-era eval_metric_ops, run by
hand): tf.metrics.auc (ROC and PR, with and without summation_method), precision, recall,
precision_at_thresholds, recall_at_thresholds, mean_per_class_accuracy, false_positives,
true_negatives, specificity_at_sensitivity, tf.metrics.mean_squared_error with weights,
all accumulated over batches in local variables, reset with tf.local_variables_initializer;
plus tf.losses with weights and every Reduction, and tf.confusion_matrix with weights."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def main():
    tf.reset_default_graph()
    rng = np.random.RandomState(77)
    labels_all = rng.rand(96) < 0.4
    scores_all = np.clip(0.3 * labels_all + 0.7 * rng.rand(96), 0, 1).astype(np.float32)
    weights_all = rng.choice([0.0, 1.0, 2.0], 96).astype(np.float32)
    labels = tf.placeholder(tf.bool, [None])
    scores = tf.placeholder(tf.float32, [None])
    weights = tf.placeholder(tf.float32, [None])
    predictions = scores > 0.5
    metrics = {
        "auc_roc": tf.metrics.auc(labels, scores, num_thresholds=50),
        "auc_pr": tf.metrics.auc(labels, scores, curve="PR", num_thresholds=50),
        "auc_careful": tf.metrics.auc(labels, scores, num_thresholds=50,
                                      summation_method="careful_interpolation"),
        "auc_minoring": tf.metrics.auc(labels, scores, num_thresholds=50, curve="PR",
                                       summation_method="minoring"),
        "auc_weighted": tf.metrics.auc(labels, scores, weights=weights, num_thresholds=50),
        "precision": tf.metrics.precision(labels, predictions),
        "recall": tf.metrics.recall(labels, predictions, weights=weights),
        "precision_at": tf.metrics.precision_at_thresholds(labels, scores, [0.3, 0.5, 0.7]),
        "recall_at": tf.metrics.recall_at_thresholds(labels, scores, [0.3, 0.5, 0.7]),
        "per_class": tf.metrics.mean_per_class_accuracy(tf.to_int32(labels),
                                                        tf.to_int32(predictions), 2),
        "false_positives": tf.metrics.false_positives(labels, predictions),
        "true_negatives": tf.metrics.true_negatives(labels, predictions, weights=weights),
        "specificity": tf.metrics.specificity_at_sensitivity(labels, scores, 0.8,
                                                             num_thresholds=50),
        "sensitivity": tf.metrics.sensitivity_at_specificity(labels, scores, 0.6,
                                                             num_thresholds=50),
        "mse": tf.metrics.mean_squared_error(tf.to_float(labels), scores, weights=weights),
    }
    values = {k: v for k, (v, _) in metrics.items()}
    updates = tf.group(*[u for _, u in metrics.values()])
    print("local variables", len(tf.local_variables()))
    target = tf.to_float(labels)
    losses = {
        r: tf.losses.log_loss(target, scores, weights=weights, reduction=r)
        for r in (tf.losses.Reduction.NONE, tf.losses.Reduction.SUM,
                  tf.losses.Reduction.MEAN, tf.losses.Reduction.SUM_OVER_BATCH_SIZE,
                  tf.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS,
                  tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS)}
    hinge = tf.losses.hinge_loss(target, scores * 2 - 1, weights=weights)
    huber = tf.losses.huber_loss(target, scores, weights=weights, delta=0.3)
    confusion = tf.confusion_matrix(tf.to_int32(labels), tf.to_int32(predictions),
                                    num_classes=2, weights=weights)
    print("collected losses", len(tf.losses.get_losses()))
    with tf.Session() as sess:
        for epoch in range(2):
            sess.run(tf.local_variables_initializer())
            for start in range(0, 96, 32):
                part = slice(start, start + 32 + 16 * epoch)
                sess.run(updates, {labels: labels_all[part], scores: scores_all[part],
                                   weights: weights_all[part]})
            result = sess.run(values)
            print("epoch", epoch)
            for name in sorted(result):
                print("  %-16s %s" % (name, np.round(result[name], 5).tolist()))
        feed = {labels: labels_all, scores: scores_all, weights: weights_all}
        for r, value in sorted(sess.run(losses, feed).items()):
            print("log_loss %-28s %s" % (r, np.round(value, 5).tolist() if np.ndim(value) == 0
                                         else np.round(value[:4], 5).tolist()))
        print("hinge %.5f huber %.5f" % tuple(sess.run([hinge, huber], feed)))
        print("confusion", sess.run(confusion, feed).tolist())


if __name__ == "__main__":
    main()
