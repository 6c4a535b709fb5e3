"""A TF 1.x denoising autoencoder on the fake MNIST digits: weights and biases in dicts of
tf.Variable (random_normal), sigmoid layers, masking noise from tf.random_uniform, squared
error minimised with RMSProp; the reconstruction error on the clean images each epoch."""

import gzip
import os

import numpy as np

import engine as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                    "program_data", "mnist", "train-images-idx3-ubyte.gz")
SIZES = {"input": 784, "hidden_1": 64, "hidden_2": 16}


def read_images():
    with gzip.open(DATA, "rb") as f:
        data = f.read()
    return np.frombuffer(data, np.uint8, offset=16).reshape(-1, 784).astype(np.float32) / 255


def main():
    images = read_images()
    tf.set_random_seed(4)
    x = tf.placeholder(tf.float32, [None, SIZES["input"]], name="x")
    weights = {
        "encoder_h1": tf.Variable(tf.random_normal([784, 64], stddev=0.1)),
        "encoder_h2": tf.Variable(tf.random_normal([64, 16], stddev=0.1)),
        "decoder_h1": tf.Variable(tf.random_normal([16, 64], stddev=0.1)),
        "decoder_h2": tf.Variable(tf.random_normal([64, 784], stddev=0.1)),
    }
    biases = {name: tf.Variable(tf.zeros([shape.shape[1]])) for name, shape in weights.items()}
    keep = tf.cast(tf.random_uniform(tf.shape(x)) > 0.2, tf.float32)
    noisy = x * keep

    def layer(inputs, name):
        return tf.nn.sigmoid(tf.add(tf.matmul(inputs, weights[name]), biases[name]))

    code = layer(layer(noisy, "encoder_h1"), "encoder_h2")
    reconstruction = layer(layer(code, "decoder_h1"), "decoder_h2")
    loss = tf.reduce_mean(tf.pow(x - reconstruction, 2))
    train = tf.train.RMSPropOptimizer(0.01).minimize(loss)
    clean_code = layer(layer(x, "encoder_h1"), "encoder_h2")
    clean_error = tf.reduce_mean(tf.pow(x - layer(layer(clean_code, "decoder_h1"),
                                                  "decoder_h2"), 2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(4):
            for start in range(0, len(images), 32):
                _, value = sess.run([train, loss], {x: images[start:start + 32]})
            print("epoch", epoch, "loss", value, "clean error",
                  sess.run(clean_error, {x: images}))
        print("code of image 0", np.round(sess.run(clean_code, {x: images[:1]})[0], 3))


if __name__ == "__main__":
    main()
