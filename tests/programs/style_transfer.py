"""Neural style transfer (Gatys et al.) as 2017 TF 1.x notebooks wrote it, on a tiny fixed conv
"feature extractor" instead of VGG: the image itself a tf.Variable, content loss on one layer,
style loss on Gram matrices of several (tf.einsum and tf.matmul with transpose_a), total
variation via tf.image.total_variation, Adam on the image alone (var_list), tf.clip_by_value
back into [0, 1] through an assign, and the tf.image ops used to prepare inputs."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

SIZE = 12


def features(image):
    """Two conv layers with fixed (constant-initialised, untrainable) filters, as with VGG."""
    layers = {}
    with tf.variable_scope("extractor", reuse=tf.AUTO_REUSE):
        h = image
        for i, depth in enumerate([6, 8]):
            w = tf.get_variable("w%d" % i, [3, 3, h.shape[-1].value, depth], trainable=False,
                                initializer=tf.truncated_normal_initializer(stddev=0.3, seed=i))
            h = tf.nn.relu(tf.nn.conv2d(h, w, [1, 1, 1, 1], "SAME"))
            layers["conv%d" % i] = h
            h = tf.nn.avg_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    return layers


def gram(layer):
    shape = tf.shape(layer)
    flat = tf.reshape(layer, [shape[0], -1, shape[3]])
    size = tf.cast(shape[1] * shape[2] * shape[3], tf.float32)
    return tf.matmul(flat, flat, transpose_a=True) / size


def main():
    tf.reset_default_graph()
    tf.set_random_seed(4)
    rng = np.random.RandomState(6)
    content_raw = (rng.rand(16, 16, 3) * 255).astype(np.uint8)
    style_raw = (rng.rand(10, 10, 3) * 255).astype(np.uint8)

    raw = tf.placeholder(tf.uint8, [None, None, 3], name="raw")
    prepared = tf.image.convert_image_dtype(raw, tf.float32)
    prepared = tf.image.resize_images(prepared, [SIZE, SIZE],
                                      method=tf.image.ResizeMethod.BILINEAR)
    flipped = tf.image.flip_left_right(prepared)
    adjusted = tf.image.adjust_contrast(tf.image.adjust_brightness(prepared, 0.05), 1.2)
    with tf.Session() as sess:
        content = sess.run(prepared, {raw: content_raw})[None]
        style = sess.run(prepared, {raw: style_raw})[None]
        f, a = sess.run([flipped, adjusted], {raw: style_raw})
        print("prepared", content.shape, "%.5f %.5f" % (content.mean(), style.mean()))
        print("flip", np.allclose(f[:, ::-1], style[0]), "adjusted %.5f" % a.mean())

    image = tf.Variable(content, name="image", dtype=tf.float32)
    target_layers = features(tf.constant(content))
    style_layers = features(tf.constant(style))
    layers = features(image)
    content_loss = tf.reduce_mean(tf.square(layers["conv1"] - target_layers["conv1"]))
    style_loss = tf.add_n([tf.reduce_sum(tf.square(gram(layers[k]) - gram(style_layers[k])))
                           for k in sorted(layers)])
    tv_loss = tf.reduce_sum(tf.image.total_variation(image)) / (SIZE * SIZE)
    loss = content_loss + 10.0 * style_loss + 0.01 * tv_loss
    gram_einsum = tf.einsum("bijc,bijd->bcd", layers["conv0"], layers["conv0"]) / (SIZE ** 2 * 6)
    train = tf.train.AdamOptimizer(0.02).minimize(loss, var_list=[image])
    clip = tf.assign(image, tf.clip_by_value(image, 0.0, 1.0))
    print("trainable", [v.name for v in tf.trainable_variables()])
    print("adam slots", sorted(v.name for v in tf.global_variables() if "Adam" in v.name))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g1, g2 = sess.run([gram(layers["conv0"]), gram_einsum])
        print("gram einsum %.7f" % np.abs(g1 - g2).max())
        for step in range(12):
            values = sess.run([loss, content_loss, style_loss, tv_loss, train])
            sess.run(clip)
            if step % 4 == 0:
                print("step %d loss %.6f content %.6f style %.6f tv %.6f" % (step, *values[:4]))
        result = sess.run(image)
        print("image range %.5f %.5f mean %.5f" % (result.min(), result.max(), result.mean()))
        encoded = sess.run(tf.image.encode_png(tf.image.convert_image_dtype(image[0], tf.uint8,
                                                                            saturate=True)))
        print("png", encoded[:8], len(sess.run(tf.image.decode_png(encoded)).tobytes()))


if __name__ == "__main__":
    main()
