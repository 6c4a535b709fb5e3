"""A TF 1.x image program of the DCGAN / super-resolution era: a CIFAR-style input pipeline
on a batch (tf.random_crop, tf.image.random_flip_left_right, random_brightness and
random_contrast, per_image_standardization, resize_images), a small encoder (tf.layers.conv2d,
separable_conv2d, max pooling, tf.nn.atrous_conv2d) and a decoder upsampling with
tf.layers.conv2d_transpose and tf.nn.depth_to_space, trained a few steps with Adam on a
reconstruction loss and a classification loss; the evaluation path crops or pads
(resize_image_with_crop_or_pad, central_crop) and scores with tf.image.psnr.

The distortions are drawn for the whole batch (op seeds under a graph seed), not per image in
a tf.map_fn: TensorFlow runs a map_fn's iterations in parallel and its random ops then draw in
whatever order they run, so its own output changes run to run.
"""
import numpy as np

import engine as tf

tf.reset_default_graph()
tf.set_random_seed(42)

rng = np.random.RandomState(0)
raw = rng.randint(0, 256, size=(8, 20, 20, 3)).astype(np.uint8)
labels_np = rng.randint(0, 10, size=(8,)).astype(np.int64)

images_u8 = tf.placeholder(tf.uint8, [None, 20, 20, 3], name="images")
labels = tf.placeholder(tf.int64, [None], name="labels")

images = tf.image.convert_image_dtype(images_u8, tf.float32)
distorted = tf.random_crop(images, [8, 16, 16, 3], seed=1)
distorted = tf.image.random_flip_left_right(distorted, seed=2)
distorted = tf.image.random_brightness(distorted, max_delta=0.2, seed=3)
distorted = tf.image.random_contrast(distorted, lower=0.5, upper=1.5, seed=4)
distorted = tf.image.per_image_standardization(distorted)
small = tf.image.resize_images(distorted, [8, 8], method=tf.image.ResizeMethod.AREA)

with tf.variable_scope("encoder"):
    h = tf.layers.conv2d(distorted, 8, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.separable_conv2d(h, 12, 3, padding="same", depth_multiplier=2,
                                   activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    dilated = tf.get_variable("dilated", [3, 3, 12, 12],
                              initializer=tf.truncated_normal_initializer(stddev=0.1))
    code = tf.nn.relu(tf.nn.atrous_conv2d(h, dilated, 2, "SAME"))
with tf.variable_scope("decoder"):
    d = tf.layers.conv2d_transpose(code, 8, 3, strides=2, padding="same",
                                   activation=tf.nn.relu)
    d = tf.nn.depth_to_space(tf.layers.conv2d(d, 12, 1), 2)
    recon = tf.image.resize_bilinear(d, [16, 16], half_pixel_centers=True)
with tf.variable_scope("classifier"):
    logits = tf.layers.dense(tf.layers.flatten(tf.concat([code, small], axis=3)), 10)

recon_loss = tf.reduce_mean(tf.square(recon - distorted))
class_loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
loss = recon_loss + class_loss
train = tf.train.AdamOptimizer(1e-3).minimize(loss)

evaluated = tf.image.resize_image_with_crop_or_pad(images, 16, 24)
centre = tf.image.central_crop(images, 0.5)
score = tf.image.psnr(tf.image.flip_up_down(images), images, max_val=1.0)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {images_u8: raw, labels: labels_np}
    first, small_v = sess.run([distorted, small], feed)
    print("distorted", first.shape, "mean %.5f std %.5f" % (first.mean(), first.std()))
    print("first row", np.round(first[0, 0, :4, 0], 4))
    print("area resized", small_v.shape, np.round(small_v[1, 2, :3, 1], 4))
    ev, ce, ps = sess.run([evaluated, centre, score], feed)
    print("crop or pad", ev.shape, "central", ce.shape, "psnr", np.round(ps, 3))
    for step in range(4):
        _, l, r, c = sess.run([train, loss, recon_loss, class_loss], feed)
        print("step %d loss %.5f recon %.5f class %.5f" % (step, l, r, c))
    print("variables", [v.name for v in tf.trainable_variables()][:6])
