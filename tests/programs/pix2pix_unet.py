"""pix2pix (Isola et al. 2017) in TF 1.x, shrunk: a U-Net generator (strided conv2d down,
conv2d_transpose up, skip connections by tf.concat), instance normalization written by hand
with tf.nn.moments over H and W, a PatchGAN discriminator on (input, target) pairs, the L1 +
GAN generator loss with lambda 100, Adam(2e-4, beta1=0.5) for both nets."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

EPS = 1e-12


def instance_norm(x, name):
    with tf.variable_scope(name):
        depth = x.get_shape()[3]
        scale = tf.get_variable("scale", [depth], initializer=tf.random_normal_initializer(1.0, 0.02))
        offset = tf.get_variable("offset", [depth], initializer=tf.zeros_initializer())
        mean, variance = tf.nn.moments(x, axes=[1, 2], keep_dims=True)
        normalized = (x - mean) * tf.rsqrt(variance + 1e-5)
        return scale * normalized + offset


def conv(x, filters, name):
    init = tf.random_normal_initializer(0, 0.02)
    return tf.layers.conv2d(x, filters, 4, strides=2, padding="same", kernel_initializer=init,
                            name=name)


def deconv(x, filters, name):
    init = tf.random_normal_initializer(0, 0.02)
    return tf.layers.conv2d_transpose(x, filters, 4, strides=2, padding="same",
                                      kernel_initializer=init, name=name)


def generator(images):
    with tf.variable_scope("generator"):
        e1 = conv(images, 8, "e1")                                   # 8x8
        e2 = instance_norm(conv(tf.nn.leaky_relu(e1, 0.2), 16, "e2"), "n2")   # 4x4
        e3 = instance_norm(conv(tf.nn.leaky_relu(e2, 0.2), 16, "e3"), "n3")   # 2x2
        d3 = instance_norm(deconv(tf.nn.relu(e3), 16, "d3"), "m3")            # 4x4
        d3 = tf.concat([d3, e2], axis=3)
        d2 = instance_norm(deconv(tf.nn.relu(d3), 8, "d2"), "m2")             # 8x8
        d2 = tf.concat([d2, e1], axis=3)
        return tf.tanh(deconv(tf.nn.relu(d2), 3, "d1"))                      # 16x16


def discriminator(inputs, targets):
    with tf.variable_scope("discriminator", reuse=tf.AUTO_REUSE):
        x = tf.concat([inputs, targets], axis=3)
        h = tf.nn.leaky_relu(conv(x, 8, "c1"), 0.2)
        h = tf.nn.leaky_relu(instance_norm(conv(h, 16, "c2"), "n2"), 0.2)
        logits = tf.layers.conv2d(h, 1, 3, padding="same", name="patch")
        return tf.sigmoid(logits)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(1234)
    rng = np.random.RandomState(7)
    inputs = tf.placeholder(tf.float32, [4, 16, 16, 3], name="inputs")
    targets = tf.placeholder(tf.float32, [4, 16, 16, 3], name="targets")
    outputs = generator(inputs)
    predict_real = discriminator(inputs, targets)
    predict_fake = discriminator(inputs, outputs)
    print("generator output", outputs.get_shape().as_list())
    print("patch", predict_real.get_shape().as_list())
    discrim_loss = tf.reduce_mean(-(tf.log(predict_real + EPS) + tf.log(1 - predict_fake + EPS)))
    gen_loss_gan = tf.reduce_mean(-tf.log(predict_fake + EPS))
    gen_loss_l1 = tf.reduce_mean(tf.abs(targets - outputs))
    gen_loss = gen_loss_gan * 1.0 + gen_loss_l1 * 100.0
    d_vars = [v for v in tf.trainable_variables() if v.name.startswith("discriminator")]
    g_vars = [v for v in tf.trainable_variables() if v.name.startswith("generator")]
    d_train = tf.train.AdamOptimizer(2e-4, 0.5).minimize(discrim_loss, var_list=d_vars)
    with tf.control_dependencies([d_train]):
        g_train = tf.train.AdamOptimizer(2e-4, 0.5).minimize(gen_loss, var_list=g_vars)
    global_step = tf.train.get_or_create_global_step()
    incr = tf.assign_add(global_step, 1)
    train = tf.group(g_train, incr)
    print("discriminator variables", len(d_vars), "generator variables", len(g_vars))
    a = rng.uniform(-1, 1, (4, 16, 16, 3)).astype(np.float32)
    b = np.flip(a, axis=2) * 0.5
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(12):
            dl, gg, gl1, _ = sess.run([discrim_loss, gen_loss_gan, gen_loss_l1, train],
                                      {inputs: a, targets: b})
            if step % 3 == 0:
                print("step %d discrim %.5f gen_gan %.5f gen_l1 %.5f" % (step, dl, gg, gl1))
        print("global step", sess.run(global_step))
        out = sess.run(outputs, {inputs: a})
        print("output mean %.5f std %.5f" % (out.mean(), out.std()))


if __name__ == "__main__":
    main()
