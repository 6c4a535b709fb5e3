"""A TF 1.x text CNN (Kim 2014 style, 2018 code): variable-length sentences from a Python
generator through tf.data (Dataset.from_generator, shuffle, padded_batch, repeat, a one-shot
iterator until OutOfRangeError), embeddings, tf.nn.conv1d with several widths and
max-over-time pooling, dropout, a dense output with a kernel_regularizer summed by
tf.losses.get_regularization_loss(); Momentum with Nesterov, tf.metrics (accuracy, precision,
recall, auc, mean) on local variables, top_k."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

VOCAB, EMB, FILTERS, CLASSES = 30, 8, 6, 3


def sentences(seed, count):
    rng = np.random.RandomState(seed)
    for _ in range(count):
        label = rng.randint(CLASSES)
        n = rng.randint(4, 11)
        words = rng.randint(1, VOCAB, size=n)
        words[rng.randint(n)] = 1 + label * 5  # a cue word
        yield words.astype(np.int64), label


def main():
    tf.reset_default_graph()
    tf.set_random_seed(9)
    dataset = tf.data.Dataset.from_generator(
        lambda: sentences(0, 96), (tf.int64, tf.int64), (tf.TensorShape([None]), tf.TensorShape([])))
    dataset = dataset.shuffle(32, seed=2).padded_batch(16, padded_shapes=([12], []))
    dataset = dataset.repeat(3)
    iterator = dataset.make_one_shot_iterator()
    words, labels = iterator.get_next()
    keep_prob = tf.placeholder_with_default(1.0, [])
    embedding = tf.get_variable("embedding", [VOCAB, EMB])
    embedded = tf.nn.embedding_lookup(embedding, words)
    pooled = []
    for width in (2, 3, 4):
        with tf.variable_scope("conv%d" % width):
            w = tf.get_variable("w", [width, EMB, FILTERS],
                                initializer=tf.truncated_normal_initializer(stddev=0.1))
            b = tf.get_variable("b", [FILTERS], initializer=tf.constant_initializer(0.1))
            conv = tf.nn.relu(tf.nn.bias_add(tf.nn.conv1d(embedded, w, 1, "VALID"), b))
            pooled.append(tf.reduce_max(conv, axis=1))
    features = tf.nn.dropout(tf.concat(pooled, 1), keep_prob, seed=3)
    logits = tf.layers.dense(features, CLASSES,
                             kernel_regularizer=lambda k: 1e-3 * tf.nn.l2_loss(k))
    xent = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    loss = xent + tf.losses.get_regularization_loss()
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True).minimize(
        loss, global_step=global_step)
    predictions = tf.argmax(logits, 1)
    probs = tf.nn.softmax(logits)
    acc, acc_op = tf.metrics.accuracy(labels, predictions)
    is_zero = tf.equal(labels, 0)
    prec, prec_op = tf.metrics.precision(is_zero, tf.equal(predictions, 0))
    rec, rec_op = tf.metrics.recall(is_zero, tf.equal(predictions, 0))
    auc, auc_op = tf.metrics.auc(is_zero, probs[:, 0], num_thresholds=50)
    mean_loss, mean_op = tf.metrics.mean(xent)
    top_values, top_indices = tf.nn.top_k(probs, k=2)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        step = 0
        try:
            while True:
                l, _, _ = sess.run([loss, train_op, [acc_op, prec_op, rec_op, auc_op, mean_op]],
                                   {keep_prob: 0.8})
                if step % 4 == 0:
                    print("step %d loss %.5f" % (step, l))
                step += 1
        except tf.errors.OutOfRangeError:
            print("steps", step)
        print("acc %.5f prec %.5f rec %.5f auc %.5f mean %.5f" % tuple(
            sess.run([acc, prec, rec, auc, mean_loss])))
        print("local", sorted(v.name for v in tf.local_variables())[:6])
        tv, ti = sess.run([top_values, top_indices],
                          {words: [[1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                   [11, 11, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0]]})
        print("top", np.round(tv, 4).tolist(), ti.tolist())


if __name__ == "__main__":
    main()
