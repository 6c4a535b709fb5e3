"""A character-level sequence model: dynamic_rnn over a batch of variable-length sequences,
then tf.layers.dense applied to the [batch, time, units] output of unknown batch and time.

As TF 1.x tutorials wrote it: one-hot inputs through a placeholder of shape
[None, None, vocab], a GRU cell, the per-step logits by tf.layers.dense on the 3-D output
(tf.tensordot over the last axis), a masked sequence loss and a few Adam steps.
"""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

VOCAB, UNITS = 6, 16
rng = np.random.RandomState(12)
lengths = np.array([5, 3, 6, 4])
tokens = rng.randint(0, VOCAB, (4, 7))
inputs = np.eye(VOCAB, dtype=np.float32)[tokens[:, :6]]
targets = tokens[:, 1:7]


def main():
    print("TensorFlow", tf.__version__)
    tf.set_random_seed(42)
    x = tf.placeholder(tf.float32, [None, None, VOCAB], name="x")
    t = tf.placeholder(tf.int32, [None, None], name="t")
    seq_len = tf.placeholder(tf.int32, [None], name="seq_len")
    cell = tf.nn.rnn_cell.GRUCell(UNITS)
    outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=seq_len, dtype=tf.float32)
    logits = tf.layers.dense(outputs, VOCAB, name="logits")
    print("outputs", outputs.shape, "logits", logits.shape)
    mask = tf.sequence_mask(seq_len, tf.shape(x)[1], dtype=tf.float32)
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=t, logits=logits)
    loss = tf.reduce_sum(losses * mask) / tf.reduce_sum(mask)
    train = tf.train.AdamOptimizer(0.05).minimize(loss)

    feed = {x: inputs, t: targets, seq_len: lengths}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(8):
            l, _ = sess.run([loss, train], feed)
            print("step %d loss %.6f" % (step, l))
        probs = sess.run(tf.nn.softmax(logits), feed)
        print("predictions:", probs.argmax(-1))
        print("shape for a batch of one:", sess.run(tf.shape(logits),
                                                     {x: inputs[:1, :2], seq_len: [2]}))


if __name__ == "__main__":
    main()
