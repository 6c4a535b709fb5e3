"""Noisy linear regression with a tf.random.Generator in graph mode: the generator's state (a
resource variable) moves on each Session.run, the batch order comes from
tf.random_index_shuffle over a step counter, and low-discrepancy inputs from
tf.math.sobol_sample; the approximate top-k residuals are printed every few steps."""

import numpy as np

import engine as tf

N, BATCH = 16, 4
points = tf.math.sobol_sample(2, N, skip=1)
true_w = tf.constant([[1.5], [-2.0]])
generator = tf.random.Generator.from_seed(2024)

step = tf.placeholder(tf.int64, [], name="step")
positions = tf.range(BATCH, dtype=tf.int64) + step * BATCH
order = tf.random_index_shuffle(positions % N, tf.constant([7, 8, 9], tf.int64),
                                tf.constant(N - 1, tf.int64))
x = tf.gather(points, order)
noise = generator.normal([BATCH, 1], stddev=0.05)
y = tf.matmul(x, true_w) + noise

w = tf.Variable(tf.zeros([2, 1]), name="w")
residual = tf.matmul(x, w) - y
loss = tf.reduce_mean(tf.square(residual))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
worst, worst_at = tf.math.approx_max_k(tf.abs(tf.reshape(residual, [1, BATCH])), 2)
skip_ahead = generator.skip(100)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("first points:", np.round(sess.run(points)[:3], 4).tolist())
    for i in range(12):
        _, value, idx, top = sess.run([train, loss, order, worst], {step: i})
        if i % 3 == 0:
            print(f"step {i}: loss {value:.6f} order {idx.tolist()} worst {np.round(top, 5)}")
    print("state before skip:", sess.run(generator.state))
    print("skip returned:", sess.run(skip_ahead))
    print("state after skip:", sess.run(generator.state))
    print("w:", np.round(sess.run(w), 5).ravel().tolist())
