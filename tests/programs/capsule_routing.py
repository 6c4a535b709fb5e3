"""Capsule networks' dynamic routing (Sabour et al. 2017) as the TF 1.x reimplementations wrote
it: primary capsules from a conv layer reshaped into 8-D vectors, the squash nonlinearity with
tf.norm and a safe epsilon, prediction vectors u_hat through tf.tile and tf.matmul (and the same
through tf.einsum), routing by agreement unrolled three times and again in tf.while_loop, the
margin loss with tf.maximum and a reconstruction decoder masked by the true label."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

BATCH, IN_CAPS, IN_DIM, OUT_CAPS, OUT_DIM, ROUTING = 4, 16, 4, 3, 6, 3


def squash(s, axis=-1, epsilon=1e-7, name=None):
    with tf.name_scope(name, default_name="squash"):
        squared_norm = tf.reduce_sum(tf.square(s), axis=axis, keepdims=True)
        safe_norm = tf.sqrt(squared_norm + epsilon)
        return squared_norm / (1.0 + squared_norm) * s / safe_norm


def route_unrolled(u_hat):
    b = tf.zeros([tf.shape(u_hat)[0], IN_CAPS, OUT_CAPS, 1, 1])
    for i in range(ROUTING):
        c = tf.nn.softmax(b, axis=2)
        s = tf.reduce_sum(c * u_hat, axis=1, keepdims=True)
        v = squash(s, axis=-2)
        if i < ROUTING - 1:
            agreement = tf.matmul(u_hat, tf.tile(v, [1, IN_CAPS, 1, 1, 1]), transpose_a=True)
            b += agreement
    return tf.squeeze(v, axis=[1, 4])


def route_while(u_hat):
    hat = tf.squeeze(u_hat, -1)  # [batch, in, out, dim]

    def body(i, b, v):
        c = tf.nn.softmax(b, axis=2)
        v = squash(tf.einsum("bij,bijd->bjd", c, hat))
        b = b + tf.einsum("bijd,bjd->bij", hat, v)
        return i + 1, b, v

    b0 = tf.zeros(tf.shape(hat)[:3])
    v0 = tf.zeros([tf.shape(hat)[0], OUT_CAPS, OUT_DIM])
    _, _, v = tf.while_loop(lambda i, b, v: i < ROUTING, body, [0, b0, v0])
    return v


def main():
    tf.reset_default_graph()
    tf.set_random_seed(17)
    rng = np.random.RandomState(9)
    images = rng.rand(BATCH, 8, 8, 1).astype(np.float32)
    labels = np.array([0, 2, 1, 2])
    x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    conv = tf.layers.conv2d(x, 8, 3, strides=2, activation=tf.nn.relu, name="conv")
    primary = tf.layers.conv2d(conv, 8, 2, strides=1, name="primary")  # [b, 2, 2, 8]
    primary = tf.reshape(tf.tile(primary, [1, 1, 1, IN_CAPS * IN_DIM // 32]),
                         [-1, IN_CAPS, IN_DIM])
    u = squash(primary, name="primary_squash")
    W = tf.get_variable("W", [1, IN_CAPS, OUT_CAPS, OUT_DIM, IN_DIM],
                        initializer=tf.random_normal_initializer(stddev=0.5, seed=3))
    u_tiled = tf.tile(u[:, :, None, :, None], [1, 1, OUT_CAPS, 1, 1])
    W_tiled = tf.tile(W, [tf.shape(x)[0], 1, 1, 1, 1])
    u_hat = tf.matmul(W_tiled, u_tiled, name="u_hat")  # [b, in, out, out_dim, 1]
    u_hat_einsum = tf.einsum("ijdk,bik->bijd", W[0], u)
    v = route_unrolled(u_hat)
    v_loop = route_while(u_hat)
    lengths = tf.norm(v, axis=-1, name="lengths")
    print("u_hat", u_hat.shape, "v", v.shape, "v_loop", v_loop.shape, "lengths", lengths.shape)
    T = tf.one_hot(y, OUT_CAPS)
    margin = (T * tf.square(tf.maximum(0.0, 0.9 - lengths))
              + 0.5 * (1.0 - T) * tf.square(tf.maximum(0.0, lengths - 0.1)))
    margin_loss = tf.reduce_mean(tf.reduce_sum(margin, axis=1))
    masked = tf.reshape(v * tf.expand_dims(T, -1), [-1, OUT_CAPS * OUT_DIM])
    decoded = tf.layers.dense(tf.layers.dense(masked, 16, tf.nn.relu), 64, tf.nn.sigmoid)
    recon = tf.reduce_mean(tf.reduce_sum(tf.square(decoded - tf.reshape(x, [-1, 64])), 1))
    loss = margin_loss + 0.0005 * recon
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    predicted = tf.argmax(lengths, axis=1)
    feed = {x: images, y: labels}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a, b = sess.run([u_hat, u_hat_einsum], feed)
        print("einsum matches matmul %.6f" % np.abs(a[..., 0] - b).max())
        va, vb = sess.run([v, v_loop], feed)
        print("while matches unrolled %.6f" % np.abs(va - vb).max())
        print("lengths", np.round(sess.run(lengths, feed), 4).tolist())
        for step in range(8):
            l, m, _ = sess.run([loss, margin_loss, train], feed)
            if step % 2 == 1:
                print("step %d loss %.5f margin %.5f" % (step, l, m))
        print("predicted", sess.run(predicted, feed).tolist())
        g = tf.gradients(margin_loss, W)[0]
        print("grad norm %.5f" % sess.run(tf.norm(g), feed))


if __name__ == "__main__":
    main()
