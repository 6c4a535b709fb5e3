"""A TF 1.x image classifier fed from JPEG files, as the era's input code read them:
tf.read_file, tf.image.decode_jpeg (colour, gray and CMYK files, baseline and progressive,
4:2:0 and 4:4:4), tf.image.resize_images and per_image_standardization, then a tiny conv net
trained a few steps with plain SGD. The files are tools/make_image_codec_fixtures.py's."""
import numpy as np

import engine as tf

FILES = ["rgb420.jpg", "rgb444.jpg", "rgb420_progressive.jpg", "odd420.jpg", "gray.jpg",
         "cmyk.jpg"]
LABELS = [0, 1, 0, 1, 0, 1]
FOLDER = "tests/fixtures/image_codecs/inputs/"


def load(path):
    contents = tf.read_file(path)
    image = tf.image.decode_jpeg(contents, channels=3)
    image = tf.image.resize_images(image, [16, 16])
    return tf.image.per_image_standardization(image), tf.image.extract_jpeg_shape(contents)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(7)
    paths = tf.constant([FOLDER + name for name in FILES])
    loaded = [load(paths[i]) for i in range(len(FILES))]
    images = tf.stack([image for image, _ in loaded])
    shapes = tf.stack([shape for _, shape in loaded])
    labels = tf.constant(LABELS)
    kernel = tf.Variable(tf.truncated_normal([3, 3, 3, 4], stddev=0.1), name="conv/kernel")
    conv = tf.nn.relu(tf.nn.conv2d(images, kernel, [1, 1, 1, 1], "SAME"))
    pooled = tf.nn.max_pool(conv, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    flat = tf.reshape(pooled, [len(FILES), 8 * 8 * 4])
    weights = tf.Variable(tf.truncated_normal([8 * 8 * 4, 2], stddev=0.05), name="dense/w")
    logits = tf.matmul(flat, weights)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                        logits=logits))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    print(images.shape, shapes.shape, loss.name)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(shapes).tolist())
        pixels = sess.run(images)
        print([round(float(v), 4) + 0.0 for v in pixels.mean(axis=(1, 2, 3))])
        print(np.round(pixels[2, 5, 7], 5).tolist())
        for step in range(5):
            _, value = sess.run([train, loss])
            print("step", step, "loss", round(float(value), 5))
        print(sess.run(tf.argmax(logits, 1)).tolist())


if __name__ == "__main__":
    main()
