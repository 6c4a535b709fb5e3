"""A two-layer sigmoid network trained by hand-written backpropagation, no tf.train.

The 2016 tutorials' way: the forward pass with tf.exp (1 / (1 + exp(-z))), the derivative of
the cross-entropy through the sigmoid written out as 1 / (y(1 - y) + 1e-7), weight updates with
tf.assign, and the loss printed step by step. Float32 exp and sigmoid round as TensorFlow's
Eigen kernels do, so the losses agree to the last digit.
"""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

rng = np.random.RandomState(2016)
X_data = rng.uniform(-1.0, 1.0, (64, 3)).astype(np.float32)
Y_data = ((X_data[:, :1] * X_data[:, 1:2] > 0) ^ (X_data[:, 2:] > 0.3)).astype(np.float32)
W1_init = rng.normal(0.0, 0.5, (3, 8)).astype(np.float32)
W2_init = rng.normal(0.0, 0.5, (8, 1)).astype(np.float32)


def sigmoid(z):
    return 1.0 / (1.0 + tf.exp(-z))


def main():
    X = tf.placeholder(tf.float32, [None, 3])
    Y = tf.placeholder(tf.float32, [None, 1])
    W1 = tf.Variable(W1_init)
    b1 = tf.Variable(tf.zeros([8]))
    W2 = tf.Variable(W2_init)
    b2 = tf.Variable(tf.zeros([1]))

    h = sigmoid(tf.matmul(X, W1) + b1)
    y = tf.sigmoid(tf.matmul(h, W2) + b2)
    loss = -tf.reduce_mean(Y * tf.log(y + 1e-7) + (1 - Y) * tf.log(1 - y + 1e-7))

    # d loss / d y, then through the sigmoid: dy * y(1-y), written the long way round
    d_y = (y - Y) / (y * (1 - y) + 1e-7) / tf.cast(tf.shape(X)[0], tf.float32)
    d_z2 = d_y * y * (1 - y)
    d_W2 = tf.matmul(h, d_z2, transpose_a=True)
    d_b2 = tf.reduce_sum(d_z2, axis=0)
    d_h = tf.matmul(d_z2, W2, transpose_b=True)
    d_z1 = d_h * h * (1 - h)
    d_W1 = tf.matmul(X, d_z1, transpose_a=True)
    d_b1 = tf.reduce_sum(d_z1, axis=0)

    rate = 2.0
    # the updates wait for every read of the weights (a ref variable's reads alias it)
    with tf.control_dependencies([loss, d_W1, d_b1, d_W2, d_b2]):
        train = tf.group(tf.assign_sub(W1, rate * d_W1), tf.assign_sub(b1, rate * d_b1),
                         tf.assign_sub(W2, rate * d_W2), tf.assign_sub(b2, rate * d_b2))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.round(y), Y), tf.float32))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {X: X_data, Y: Y_data}
        for step in range(12):
            l, _ = sess.run([loss, train], feed)
            print("step %2d loss %.8f" % (step, l))
        print("final loss", sess.run(loss, feed))
        print("accuracy", sess.run(accuracy, feed))
        print("sigmoid(-1) =", sess.run(tf.sigmoid(-1.0)))
        print("softplus:", sess.run(tf.nn.softplus([-3.0, -0.5, 0.0, 0.75, 4.0])))
        print("first outputs:", sess.run(y, feed)[:4].ravel())


if __name__ == "__main__":
    main()
