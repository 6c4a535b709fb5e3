"""PixelCNN (van den Oord et al. 2016) in TF 1.x, shrunk to 8x8 binary-ish images with 4
intensity levels: masked convolutions (mask 'A' for the first layer, 'B' after) made by
multiplying the kernel variable with a constant NumPy mask, residual blocks, a per-pixel
softmax over the levels, then autoregressive sampling pixel by pixel with tf.multinomial
(seeded), each step feeding the image sampled so far back in."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

LEVELS, SIZE, FEATURES = 4, 8, 16


def masked_conv(x, filters, size, mask_type, name):
    in_channels = x.get_shape()[-1].value
    mask = np.ones([size, size, in_channels, filters], np.float32)
    center = size // 2
    mask[center, center + (mask_type == "B"):, :, :] = 0.0
    mask[center + 1:, :, :, :] = 0.0
    with tf.variable_scope(name):
        w = tf.get_variable("w", [size, size, in_channels, filters],
                            initializer=tf.truncated_normal_initializer(stddev=0.1))
        b = tf.get_variable("b", [filters], initializer=tf.zeros_initializer())
        return tf.nn.conv2d(x, w * tf.constant(mask), [1, 1, 1, 1], "SAME") + b


def pixelcnn(images):
    x = masked_conv(images, FEATURES, 5, "A", "input")
    for i in range(2):
        h = masked_conv(tf.nn.relu(x), FEATURES, 3, "B", "res%d" % i)
        x = x + h
    x = masked_conv(tf.nn.relu(x), FEATURES, 1, "B", "out1")
    return masked_conv(tf.nn.relu(x), LEVELS, 1, "B", "logits")


def main():
    tf.reset_default_graph()
    tf.set_random_seed(16)
    rng = np.random.RandomState(16)
    # images: a bright diagonal stripe of random width on a dark ground, 4 levels
    data = np.zeros([64, SIZE, SIZE], np.int64)
    for k in range(64):
        width = rng.randint(1, 3)
        for r in range(SIZE):
            data[k, r, max(0, r - width):r + width] = 3
        data[k] = np.where(rng.rand(SIZE, SIZE) < 0.05, 1, data[k])
    levels = tf.placeholder(tf.int64, [None, SIZE, SIZE])
    images = tf.expand_dims(tf.to_float(levels) / (LEVELS - 1), -1)
    logits = pixelcnn(images)
    print("logits", logits.get_shape().as_list())
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=levels,
                                                                         logits=logits))
    bits_per_pixel = loss / np.log(2.0)
    train = tf.train.AdamOptimizer(3e-3).minimize(loss)
    row, col = tf.placeholder(tf.int32, []), tf.placeholder(tf.int32, [])
    pixel_logits = logits[:, row, col, :]
    draw = tf.multinomial(pixel_logits, 1, seed=21)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            batch = data[rng.randint(0, 64, 16)]
            b, _ = sess.run([bits_per_pixel, train], {levels: batch})
            if step % 10 == 0 or step == 39:
                print("step %2d bits/pixel %.5f" % (step, b))
        # the first pixel's prediction cannot see the image: the mask A check
        first = sess.run(logits[:, 0, 0, :], {levels: data[:2]})
        print("first pixel logits equal for two images:", bool(np.allclose(first[0], first[1])))
        sample = np.zeros([2, SIZE, SIZE], np.int64)
        for r in range(SIZE):
            for c in range(SIZE):
                sample[:, r, c] = sess.run(draw, {levels: sample, row: r, col: c})[:, 0]
        for line in sample[0]:
            print("".join(" .o#"[v] for v in line))
        print("sample mean level %.4f" % sample.mean())


if __name__ == "__main__":
    main()
