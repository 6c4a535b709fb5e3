"""A TF 1.x GAN on the fake MNIST digits: generator and discriminator built with tf.layers in
variable scopes (the discriminator reused for real and fake), trained in turns with Adam on
their own var_lists, sigmoid cross entropy with one-sided label smoothing."""

import gzip
import os

import numpy as np

import engine as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                    "program_data", "mnist", "train-images-idx3-ubyte.gz")
NOISE, BATCH = 8, 16


def read_images():
    with gzip.open(DATA, "rb") as f:
        data = f.read()
    count = int.from_bytes(data[4:8], "big")
    return np.frombuffer(data, np.uint8, offset=16).reshape(count, 784) / 255.0


def generator(z):
    with tf.variable_scope("generator"):
        hidden = tf.layers.dense(z, 32, activation=tf.nn.leaky_relu)
        return tf.layers.dense(hidden, 784, activation=tf.nn.sigmoid)


def discriminator(images, reuse=False):
    with tf.variable_scope("discriminator", reuse=reuse):
        hidden = tf.layers.dense(images, 32, activation=tf.nn.leaky_relu)
        return tf.layers.dense(hidden, 1)


def main():
    images = read_images().astype(np.float32)
    tf.set_random_seed(3)
    real = tf.placeholder(tf.float32, [None, 784], name="real")
    z = tf.random_uniform([BATCH, NOISE], -1.0, 1.0, name="z")
    fake = generator(z)
    real_logits = discriminator(real)
    fake_logits = discriminator(fake, reuse=True)
    d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.ones_like(real_logits) * 0.9, logits=real_logits)) + tf.reduce_mean(
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros_like(fake_logits),
                                                logits=fake_logits))
    g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.ones_like(fake_logits), logits=fake_logits))
    d_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="discriminator")
    g_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="generator")
    print("discriminator", [v.name for v in d_vars])
    print("generator", [v.name for v in g_vars])
    d_train = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(d_loss, var_list=d_vars)
    g_train = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(g_loss, var_list=g_vars)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(8):
            batch = images[(step * BATCH) % len(images):][:BATCH]
            _, d_value = sess.run([d_train, d_loss], {real: batch})
            _, g_value = sess.run([g_train, g_loss])
            print("step", step, "d_loss", d_value, "g_loss", g_value)
        samples = sess.run(fake)
        print("sample means", samples.mean(axis=1)[:4])


if __name__ == "__main__":
    main()
