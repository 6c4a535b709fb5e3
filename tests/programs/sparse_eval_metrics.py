"""A TF 1.x evaluation loop of the era: bag-of-words features as SparseTensors (two sources
merged with tf.sparse_add and tf.sparse_concat, shipped through a string queue-style batch
with tf.serialize_many_sparse / tf.deserialize_many_sparse), a linear scorer over them
(tf.sparse_tensor_dense_matmul, tf.sparse_softmax of the sparse scores), and streaming metrics
over three batches: tf.metrics.precision_at_k, recall_at_k, average_precision_at_k, mean_iou,
mean_per_class_accuracy, precision_at_thresholds and mean_tensor; prints each step's values
and the metric variables' names."""

import numpy as np

import engine as tf

VOCAB, CLASSES, BATCH = 12, 4, 5


def batch(rng):
    """One batch: two sparse word-count sources, class labels and relevance labels."""
    def words():
        rows, cols = [], []
        for r in range(BATCH):
            for c in sorted(rng.choice(VOCAB, size=rng.randint(1, 4), replace=False)):
                rows.append(r)
                cols.append(c)
        indices = np.array([rows, cols], np.int64).T
        return tf.SparseTensorValue(indices, rng.randint(1, 4, len(rows)).astype(np.float32),
                                    np.array([BATCH, VOCAB], np.int64))
    return (words(), words(), rng.randint(0, CLASSES, BATCH).astype(np.int64),
            rng.randint(0, CLASSES, (BATCH, 2)).astype(np.int64))


def main():
    tf.reset_default_graph()
    title = tf.sparse_placeholder(tf.float32, [BATCH, VOCAB], name="title")
    body = tf.sparse_placeholder(tf.float32, [BATCH, VOCAB], name="body")
    labels = tf.placeholder(tf.int64, [BATCH], name="labels")
    relevant = tf.placeholder(tf.int64, [BATCH, 2], name="relevant")

    words = tf.sparse_add(title, body)
    both = tf.sparse_concat(1, [title, body])
    shipped = tf.serialize_many_sparse(words)
    words = tf.deserialize_many_sparse(shipped, tf.float32, rank=2)
    weights = tf.constant(np.linspace(-1.0, 1.0, VOCAB * CLASSES, dtype=np.float32)
                          .reshape(VOCAB, CLASSES), name="weights")
    logits = tf.sparse_tensor_dense_matmul(words, weights)
    scores = tf.nn.softmax(logits)
    predicted = tf.argmax(logits, 1)
    word_share = tf.sparse_softmax(tf.sparse_reorder(words))

    metrics = {
        "p@2": tf.metrics.precision_at_k(relevant, logits, 2),
        "r@2": tf.metrics.recall_at_k(relevant, logits, 2),
        "ap@3": tf.metrics.average_precision_at_k(relevant, logits, 3),
        "iou": tf.metrics.mean_iou(labels, predicted, CLASSES),
        "per_class": tf.metrics.mean_per_class_accuracy(labels, predicted, CLASSES),
        "prec@t": tf.metrics.precision_at_thresholds(tf.equal(labels, 1), scores[:, 1],
                                                     [0.1, 0.19, 0.21]),
        "mean_scores": tf.metrics.mean_tensor(tf.reduce_mean(scores, 0)),
    }
    print(sorted(v.op.name for v in tf.local_variables()))
    rng = np.random.RandomState(7)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for step in range(3):
            t, b, l, r = batch(rng)
            feed = {title: t, body: b, labels: l, relevant: r}
            sess.run([update for _, update in metrics.values()], feed)
            shares, concatenated = sess.run([word_share, both], feed)
            print("step", step, "entries", len(shares.values), concatenated.dense_shape.tolist(),
                  np.round(shares.values[:4], 5).tolist())
            for name in sorted(metrics):
                print(" ", name, np.round(sess.run(metrics[name][0]), 5).tolist())


if __name__ == "__main__":
    main()
