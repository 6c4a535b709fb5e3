"""Adversarial examples by the fast gradient sign method (Goodfellow et al. 2015) in TF 1.x, as
cleverhans' early tutorials did it: train a small softmax classifier, take tf.gradients of
the loss with respect to the input placeholder, step by epsilon * tf.sign(grad), clip to the
valid pixel range, and measure accuracy on clean and adversarial inputs; then the iterative
variant (basic iterative method) with tf.clip_by_value to an epsilon ball, and adversarial
training on a mix of both."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def make_data(rng, n):
    labels = rng.randint(3, size=n)
    prototypes = np.array([[0.8, 0.2, 0.2, 0.8], [0.2, 0.8, 0.8, 0.2], [0.5, 0.5, 0.1, 0.9]],
                          np.float32)
    x = prototypes[labels] + 0.08 * rng.randn(n, 4).astype(np.float32)
    return np.clip(x, 0, 1).astype(np.float32), labels


def model(x):
    with tf.variable_scope("model", reuse=tf.AUTO_REUSE):
        h = tf.layers.dense(x, 12, activation=tf.nn.relu, name="hidden")
        return tf.layers.dense(h, 3, name="logits")


def fgsm(x, y, eps, clip_min=0.0, clip_max=1.0):
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=model(x)))
    grad, = tf.gradients(loss, x)
    adv = tf.stop_gradient(x + eps * tf.sign(grad))
    return tf.clip_by_value(adv, clip_min, clip_max)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(3)
    rng = np.random.RandomState(3)
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int64, [None])
    logits = model(x)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    train = tf.train.AdamOptimizer(0.02).minimize(loss)
    x_adv = fgsm(x, y, 0.25)
    # basic iterative method: small steps, each clipped to the eps-ball around x
    x_iter = x
    for _ in range(4):
        x_iter = fgsm(x_iter, y, 0.08)
        x_iter = tf.clip_by_value(x_iter, x - 0.25, x + 0.25)
    adv_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=y, logits=model(x_adv)))
    # a second Adam on the same variables needs a name of its own for its slots
    mixed_train = tf.train.AdamOptimizer(0.02, name="AdvAdam").minimize(
        0.5 * loss + 0.5 * adv_loss)
    train_x, train_y = make_data(rng, 96)
    test_x, test_y = make_data(rng, 60)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(60):
            l, _ = sess.run([loss, train], {x: train_x, y: train_y})
            if step % 20 == 0:
                print("step %d loss %.5f" % (step, l))
        feed = {x: test_x, y: test_y}
        adv, it = sess.run([x_adv, x_iter], feed)
        print("clean accuracy %.4f" % sess.run(accuracy, feed))
        print("fgsm accuracy %.4f" % sess.run(accuracy, {x: adv, y: test_y}))
        print("iterative accuracy %.4f" % sess.run(accuracy, {x: it, y: test_y}))
        print("perturbation linf %.4f / %.4f" % (np.abs(adv - test_x).max(),
                                                 np.abs(it - test_x).max()))
        print("first adversarial", np.round(adv[0], 4).tolist())
        for step in range(40):
            sess.run(mixed_train, {x: train_x, y: train_y})
        adv = sess.run(x_adv, feed)
        print("after adversarial training: clean %.4f fgsm %.4f" % (
            sess.run(accuracy, feed), sess.run(accuracy, {x: adv, y: test_y})))


if __name__ == "__main__":
    main()
