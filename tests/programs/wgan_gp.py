"""WGAN-GP (2017) in TF 1.x: critic and generator MLPs under variable scopes, the gradient
penalty on random interpolates (tf.gradients of the critic, its norm, then the penalty's own
gradients: second order through dense layers and leaky_relu), Adam(beta1=0.5, beta2=0.9), and
a WGAN-style tf.assign clip group for comparison."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def critic(x):
    with tf.variable_scope("critic", reuse=tf.AUTO_REUSE):
        h = tf.layers.dense(x, 16, activation=tf.nn.leaky_relu)
        h = tf.layers.dense(h, 16, activation=tf.nn.tanh)
        return tf.layers.dense(h, 1)


def generator(z):
    with tf.variable_scope("generator"):
        h = tf.layers.dense(z, 16, activation=tf.nn.relu)
        return tf.layers.dense(h, 2)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(8)
    rng = np.random.RandomState(4)
    real = tf.placeholder(tf.float32, [None, 2])
    z = tf.placeholder(tf.float32, [None, 3])
    fake = generator(z)
    d_real, d_fake = critic(real), critic(fake)
    eps = tf.random_uniform([tf.shape(real)[0], 1], seed=9)
    mixed = eps * real + (1 - eps) * fake
    grads = tf.gradients(critic(mixed), [mixed])[0]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1) + 1e-10)
    penalty = tf.reduce_mean(tf.square(slopes - 1.0))
    c_loss = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real) + 10.0 * penalty
    g_loss = -tf.reduce_mean(d_fake)
    c_vars = tf.trainable_variables("critic")
    g_vars = tf.trainable_variables("generator")
    c_train = tf.train.AdamOptimizer(1e-3, beta1=0.5, beta2=0.9).minimize(c_loss, var_list=c_vars)
    g_train = tf.train.AdamOptimizer(1e-3, beta1=0.5, beta2=0.9).minimize(g_loss, var_list=g_vars)
    clip = tf.group(*[tf.assign(v, tf.clip_by_value(v, -0.5, 0.5)) for v in c_vars])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(10):
            for _ in range(3):
                batch = rng.randn(16, 2).astype(np.float32) * 0.5 + [2.0, -1.0]
                cl, gp, _ = sess.run([c_loss, penalty, c_train],
                                     {real: batch, z: rng.randn(16, 3)})
            gl, _ = sess.run([g_loss, g_train], {z: rng.randn(16, 3)})
            if step % 3 == 0:
                print("step %d critic %.5f penalty %.5f gen %.5f" % (step, cl, gp, gl))
        sess.run(clip)
        print("clipped max", "%.4f" % max(np.abs(v).max() for v in sess.run(c_vars)))
        print("samples", np.round(sess.run(fake, {z: rng.randn(3, 3)}), 4).tolist())


if __name__ == "__main__":
    main()
