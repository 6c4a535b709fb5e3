"""A TF 1.x 1-D convolutional sequence classifier (2017): tf.layers.conv1d (same and valid
padding, strides, no bias), tf.layers.max_pooling1d and average_pooling1d over embedded
tokens, a dense softmax, Adam; prints the layers' variables, static shapes, the nodes of the
first conv and pool (the Conv1D scope's ExpandDims, Conv2D, Squeeze) and the losses."""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

VOCAB, EMBED, LENGTH, CLASSES = 20, 6, 12, 3


def main():
    tf.reset_default_graph()
    tf.set_random_seed(13)
    rng = np.random.RandomState(6)
    tokens = tf.placeholder(tf.int32, [None, LENGTH], name="tokens")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    embedded = tf.nn.embedding_lookup(tf.get_variable("embedding", [VOCAB, EMBED]), tokens)
    h = tf.layers.conv1d(embedded, 8, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling1d(h, 2, 2)
    h = tf.layers.conv1d(h, 8, 2, strides=2, use_bias=False, name="strided")
    h = tf.layers.average_pooling1d(tf.nn.relu(h), 3, 1, padding="same")
    logits = tf.layers.dense(tf.reduce_max(h, axis=1), CLASSES)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train = tf.train.AdamOptimizer(0.02).minimize(loss)
    print([v.name for v in tf.trainable_variables()])
    print([str(t.shape) for t in (embedded, h, logits)])
    print([n.name for n in tf.get_default_graph().as_graph_def().node
           if n.name.startswith(("conv1d/Conv1D", "max_pooling1d/"))])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(15):
            x = rng.randint(0, VOCAB, size=(8, LENGTH))
            y = (x[:, :4].sum(axis=1) % CLASSES).astype(np.int32)
            value, _ = sess.run([loss, train], {tokens: x, labels: y})
            if step % 5 == 0:
                print("step %d loss %.5f" % (step, value))
        print("pooled", np.round(sess.run(h, {tokens: x[:1]})[0, :2], 4).tolist())


if __name__ == "__main__":
    main()
