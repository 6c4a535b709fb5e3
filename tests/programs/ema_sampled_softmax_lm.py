"""A word-level language model trained with tf.nn.sampled_softmax_loss (Jean et al. 2015) in
TF 1.x, as the PTB-era tutorials built it: tf.nn.embedding_lookup of the previous word, a
tanh hidden layer, the output layer's weights [vocab, dim] for the sampled loss and the full
softmax at evaluation; tf.train.ExponentialMovingAverage of the weights applied after each
step under tf.control_dependencies, checkpoints by a tf.train.Saver with max_to_keep=2,
then a second graph restoring the shadow averages into plain variables through
ema.variables_to_restore() and tf.train.latest_checkpoint."""
# fixture threads: 1 2 4
import os
import shutil
import tempfile

import numpy as np

import engine as tf

VOCAB, DIM, SAMPLED = 40, 12, 8


def corpus(rng, n):
    # a Markov chain over the vocabulary: word w is mostly followed by (3w + 1) mod VOCAB
    words = [0]
    for _ in range(n):
        w = words[-1]
        words.append((3 * w + 1) % VOCAB if rng.rand() < 0.8 else rng.randint(VOCAB))
    return np.array(words, np.int64)


def model(prev):
    embedding = tf.get_variable("embedding", [VOCAB, DIM],
                                initializer=tf.random_uniform_initializer(-0.1, 0.1))
    hidden_w = tf.get_variable("hidden_w", [DIM, DIM])
    hidden_b = tf.get_variable("hidden_b", [DIM], initializer=tf.zeros_initializer())
    softmax_w = tf.get_variable("softmax_w", [VOCAB, DIM])
    softmax_b = tf.get_variable("softmax_b", [VOCAB], initializer=tf.zeros_initializer())
    h = tf.tanh(tf.matmul(tf.nn.embedding_lookup(embedding, prev), hidden_w) + hidden_b)
    return h, softmax_w, softmax_b


def evaluation(h, softmax_w, softmax_b, nxt):
    logits = tf.matmul(h, softmax_w, transpose_b=True) + softmax_b
    xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=nxt, logits=logits)
    return tf.exp(tf.reduce_mean(xent))


def main():
    tf.reset_default_graph()
    tf.set_random_seed(5)
    rng = np.random.RandomState(5)
    words = corpus(rng, 600)
    test = corpus(np.random.RandomState(6), 200)
    workdir = tempfile.mkdtemp()
    try:
        prev = tf.placeholder(tf.int64, [None])
        nxt = tf.placeholder(tf.int64, [None])
        with tf.variable_scope("lm"):
            h, softmax_w, softmax_b = model(prev)
        loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(
            weights=softmax_w, biases=softmax_b, labels=tf.expand_dims(nxt, 1), inputs=h,
            num_sampled=SAMPLED, num_classes=VOCAB, seed=11))
        perplexity = evaluation(h, softmax_w, softmax_b, nxt)
        global_step = tf.train.get_or_create_global_step()
        opt = tf.train.AdagradOptimizer(0.5)
        train_op = opt.minimize(loss, global_step=global_step)
        ema = tf.train.ExponentialMovingAverage(0.9, num_updates=global_step)
        with tf.control_dependencies([train_op]):
            train = ema.apply(tf.trainable_variables())
        print("averaged", [ema.average_name(v) for v in tf.trainable_variables()][:2])
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(60):
                batch = rng.randint(0, len(words) - 1, 32)
                l, _ = sess.run([loss, train], {prev: words[batch], nxt: words[batch + 1]})
                if step % 15 == 14:
                    path = saver.save(sess, os.path.join(workdir, "lm"), global_step=global_step)
                    print("step %d sampled loss %.5f saved %s" % (step, l, os.path.basename(path)))
            raw = sess.run(perplexity, {prev: test[:-1], nxt: test[1:]})
            print("test perplexity, raw weights %.4f" % raw)
        kept = sorted(f for f in os.listdir(workdir) if f.endswith(".index"))
        print("checkpoints kept", kept)

        tf.reset_default_graph()
        prev = tf.placeholder(tf.int64, [None])
        nxt = tf.placeholder(tf.int64, [None])
        with tf.variable_scope("lm"):
            h, softmax_w, softmax_b = model(prev)
        perplexity = evaluation(h, softmax_w, softmax_b, nxt)
        restore_map = tf.train.ExponentialMovingAverage(0.9).variables_to_restore()
        print("restore map", sorted(restore_map.items())[:2])
        latest = tf.train.latest_checkpoint(workdir)
        print("latest", os.path.basename(latest))
        with tf.Session() as sess:
            tf.train.Saver(restore_map).restore(sess, latest)
            averaged = sess.run(perplexity, {prev: test[:-1], nxt: test[1:]})
            print("test perplexity, averaged weights %.4f" % averaged)
    finally:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
