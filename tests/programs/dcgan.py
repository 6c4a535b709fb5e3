"""A TF 1.x DCGAN (2016): generator and discriminator each under
tf.variable_scope(..., reuse=tf.AUTO_REUSE) and called as often as needed (the discriminator
on real and on fake images), a tf.layers.conv2d_transpose generator with
batch_normalization, a strided conv2d discriminator with leaky_relu, Adam(beta1=0.5) on each
network's var_list under its own UPDATE_OPS, then samples drawn in inference mode."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

Z = 8


def generator(z, training):
    with tf.variable_scope("generator", reuse=tf.AUTO_REUSE):
        h = tf.layers.dense(z, 4 * 4 * 16, use_bias=False)
        h = tf.reshape(h, [-1, 4, 4, 16])
        h = tf.nn.relu(tf.layers.batch_normalization(h, training=training, momentum=0.9))
        h = tf.layers.conv2d_transpose(h, 8, 5, strides=2, padding="same", use_bias=False)
        h = tf.nn.relu(tf.layers.batch_normalization(h, training=training, epsilon=1e-5))
        h = tf.layers.conv2d_transpose(h, 1, 5, strides=2, padding="same")
        return tf.tanh(h)


def discriminator(x, training):
    with tf.variable_scope("discriminator", reuse=tf.AUTO_REUSE):
        h = tf.nn.leaky_relu(tf.layers.conv2d(x, 8, 5, strides=2, padding="same"), alpha=0.2)
        h = tf.layers.conv2d(h, 16, 5, strides=2, padding="same")
        h = tf.nn.leaky_relu(tf.layers.batch_normalization(h, training=training), alpha=0.2)
        return tf.layers.dense(tf.layers.flatten(h), 1)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(1234)
    rng = np.random.RandomState(5)
    real = tf.placeholder(tf.float32, [None, 16, 16, 1], name="real")
    z = tf.placeholder(tf.float32, [None, Z], name="z")
    training = tf.placeholder_with_default(True, [], name="training")
    fake = generator(z, training)
    d_real = discriminator(real, training)
    d_fake = discriminator(fake, training)
    d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
        logits=d_real, labels=tf.ones_like(d_real) * 0.9)) + tf.reduce_mean(
        tf.nn.sigmoid_cross_entropy_with_logits(logits=d_fake, labels=tf.zeros_like(d_fake)))
    g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
        logits=d_fake, labels=tf.ones_like(d_fake)))
    t_vars = tf.trainable_variables()
    d_vars = [v for v in t_vars if v.name.startswith("discriminator/")]
    g_vars = [v for v in t_vars if v.name.startswith("generator/")]
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies([op for op in update_ops if op.name.startswith("discriminator")]):
        d_opt = tf.train.AdamOptimizer(2e-3, beta1=0.5).minimize(d_loss, var_list=d_vars)
    with tf.control_dependencies([op for op in update_ops if op.name.startswith("generator")]):
        g_opt = tf.train.AdamOptimizer(2e-3, beta1=0.5).minimize(g_loss, var_list=g_vars)
    print("variables", [v.name for v in tf.global_variables()][:12])
    print("update ops", len(update_ops))
    xs = np.linspace(-1, 1, 16)
    blobs = np.exp(-(xs[None, :, None] ** 2 + xs[None, None, :] ** 2) * 3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(12):
            batch = (blobs * rng.uniform(0.5, 1.5, size=(8, 1, 1)))[..., None] * 2 - 1
            noise = rng.uniform(-1, 1, size=(8, Z))
            dl, _ = sess.run([d_loss, d_opt], {real: batch, z: noise})
            gl, _ = sess.run([g_loss, g_opt], {z: noise})
            if step % 3 == 0:
                print("step %d d_loss %.5f g_loss %.5f" % (step, dl, gl))
        samples = sess.run(fake, {z: rng.uniform(-1, 1, size=(2, Z)), training: False})
        print("samples", samples.shape, "%.5f %.5f" % (samples.mean(), samples.std()))
        mm = [v for v in tf.global_variables() if "moving_mean" in v.name][0]
        print(mm.name, np.round(sess.run(mm)[:4], 5).tolist())


if __name__ == "__main__":
    main()
