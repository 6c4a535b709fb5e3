"""DeepDream (Mordvintsev et al. 2015) in TF 1.x, as the TensorFlow deepdream notebook did it,
on a small fixed random conv net instead of Inception: gradient ascent on an input image
Variable toward a layer's mean activation, the gradient normalized by its std, octaves
through tf.image.resize_bilinear (align_corners) and tf.image.resize_images, a total
variation penalty (tf.image.total_variation), tf.image.adjust_contrast / adjust_brightness /
per_image_standardization and tf.image.central_crop for the final picture, and the Variable
re-assigned between octaves with tf.assign (validate_shape=False)."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def net(image):
    with tf.variable_scope("net", reuse=tf.AUTO_REUSE):
        init = tf.random_normal_initializer(stddev=0.3, seed=4)
        h = tf.layers.conv2d(image, 8, 3, padding="same", activation=tf.nn.relu,
                             kernel_initializer=init, name="conv1", trainable=False)
        h = tf.layers.max_pooling2d(h, 2, 2)
        h = tf.layers.conv2d(h, 12, 3, padding="same", activation=tf.nn.relu,
                             kernel_initializer=init, name="conv2", trainable=False)
        return h


def main():
    tf.reset_default_graph()
    tf.set_random_seed(44)
    rng = np.random.RandomState(44)
    base = rng.uniform(0.3, 0.7, (1, 12, 12, 3)).astype(np.float32)
    image = tf.Variable(base, validate_shape=False, name="image")
    image.set_shape([1, None, None, 3])
    layer = net(image)
    channel = layer[..., 5]
    objective = tf.reduce_mean(channel) - 1e-4 * tf.reduce_sum(tf.image.total_variation(image))
    grad, = tf.gradients(objective, image)
    grad /= tf.sqrt(tf.reduce_mean(tf.square(grad))) + 1e-8
    step = tf.assign(image, tf.clip_by_value(image + 0.05 * grad, 0.0, 1.0),
                     validate_shape=False)
    new_size = tf.placeholder(tf.int32, [2])
    upscale = tf.assign(image, tf.image.resize_bilinear(image, new_size, align_corners=True),
                        validate_shape=False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for octave, size in enumerate([(12, 12), (16, 16), (20, 20)]):
            if octave:
                sess.run(upscale, {new_size: size})
            for i in range(6):
                value, _ = sess.run([objective, step])
            print("octave %d size %s objective %.5f" % (octave, size, value))
        dream = sess.run(image)
        print("dream shape", dream.shape, "mean %.5f" % dream.mean())
        final = tf.constant(dream[0])
        shown = tf.image.central_crop(tf.image.adjust_brightness(
            tf.image.adjust_contrast(final, 1.5), 0.05), 0.8)
        resized = tf.image.resize_images(shown, [8, 8])
        standardized = tf.image.per_image_standardization(resized)
        a, b, c = sess.run([shown, resized, standardized])
        print("shown", a.shape, "mean %.5f max %.5f" % (a.mean(), a.max()))
        print("resized corner", np.round(b[0, 0], 5).tolist())
        print("standardized std %.5f corner %s" % (c.std(), np.round(c[0, 0], 5).tolist()))


if __name__ == "__main__":
    main()
