"""Linear regression fitted one sample at a time with GradientDescent, in the TF 0.x style.

Float placeholders fed Python numbers, tf.initialize_all_variables, a cost summed and halved
by hand, and the fitted line printed every few epochs.
"""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

rng = np.random.RandomState(11)
train_X = rng.uniform(0.0, 10.0, 17).astype(np.float32)
train_Y = (0.25 * train_X + 0.9 + rng.normal(0.0, 0.3, 17)).astype(np.float32)
n_samples = train_X.shape[0]


def main():
    tf.set_random_seed(1234)
    X = tf.placeholder("float")
    Y = tf.placeholder("float")
    W = tf.Variable(tf.random_normal([1]), name="weight")
    b = tf.Variable(tf.random_normal([1]), name="bias")
    pred = tf.add(tf.multiply(X, W), b)
    cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * n_samples)
    optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
    init = tf.initialize_all_variables()

    with tf.Session() as sess:
        sess.run(init)
        print("start W=", sess.run(W), "b=", sess.run(b))
        for epoch in range(40):
            for (x, y) in zip(train_X, train_Y):
                sess.run(optimizer, feed_dict={X: x, Y: y})
            if (epoch + 1) % 10 == 0:
                c = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
                print("Epoch: %04d cost= %.9f W= %.6f b= %.6f" % (
                    epoch + 1, c, sess.run(W)[0], sess.run(b)[0]))
        training_cost = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
        print("Training cost=", "%.9f" % training_cost)
        test_X = np.array([1.5, 4.0, 8.25], np.float32)
        test_Y = 0.25 * test_X + 0.9
        testing_cost = sess.run(tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * test_X.shape[0]),
                                feed_dict={X: test_X, Y: test_Y})
        print("Testing cost= %.9f" % testing_cost)
        print("Absolute mean square loss difference: %.9f" % abs(training_cost - testing_cost))


if __name__ == "__main__":
    main()
