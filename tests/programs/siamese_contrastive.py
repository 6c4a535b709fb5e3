"""A Siamese network (Hadsell, Chopra and LeCun 2006) in TF 1.x, as the blog tutorials of 2017
wrote it: pairs drawn by a Python generator through tf.data.Dataset.from_generator, batched
and repeated, one tower under a variable scope reused for the second input, the contrastive
loss with a margin, and a threshold on the learned distance for same/different accuracy."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

MARGIN = 1.0


def pairs(seed, count):
    rng = np.random.RandomState(seed)
    centers = rng.randn(4, 6).astype(np.float32) * 2.0
    for _ in range(count):
        a, same = rng.randint(4), rng.rand() < 0.5
        b = a if same else (a + 1 + rng.randint(3)) % 4
        x1 = centers[a] + 0.5 * rng.randn(6).astype(np.float32)
        x2 = centers[b] + 0.5 * rng.randn(6).astype(np.float32)
        yield x1, x2, np.float32(same)


def tower(x, reuse):
    with tf.variable_scope("siamese", reuse=reuse):
        h = tf.layers.dense(x, 16, activation=tf.nn.relu, name="fc1")
        return tf.layers.dense(h, 2, name="embedding")


def contrastive_loss(e1, e2, y):
    d = tf.sqrt(tf.reduce_sum(tf.square(e1 - e2), 1) + 1e-6)
    similar = y * tf.square(d)
    dissimilar = (1 - y) * tf.square(tf.maximum(MARGIN - d, 0))
    return tf.reduce_mean(similar + dissimilar) / 2, d


def main():
    tf.reset_default_graph()
    tf.set_random_seed(42)
    dataset = tf.data.Dataset.from_generator(
        lambda: pairs(0, 320), (tf.float32, tf.float32, tf.float32),
        (tf.TensorShape([6]), tf.TensorShape([6]), tf.TensorShape([])))
    dataset = dataset.batch(32).repeat(2)
    print("output shapes", dataset.output_shapes)
    x1, x2, y = dataset.make_one_shot_iterator().get_next()
    e1, e2 = tower(x1, False), tower(x2, True)
    loss, distance = contrastive_loss(e1, e2, y)
    train = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
    print("variables", [v.name for v in tf.trainable_variables()])
    predicted_same = tf.to_float(distance < MARGIN / 2)
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(predicted_same, y)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        step = 0
        try:
            while True:
                l, acc, _ = sess.run([loss, accuracy, train])
                if step % 4 == 0:
                    print("step %2d loss %.5f accuracy %.3f" % (step, l, acc))
                step += 1
        except tf.errors.OutOfRangeError:
            print("end of data after", step, "steps")
        test = list(pairs(1, 64))
        feed = {x1: np.stack([t[0] for t in test]), x2: np.stack([t[1] for t in test]),
                y: np.array([t[2] for t in test])}
        l, acc, d = sess.run([loss, accuracy, distance], feed)
        print("test loss %.5f accuracy %.3f mean distance %.4f" % (l, acc, d.mean()))


if __name__ == "__main__":
    main()
