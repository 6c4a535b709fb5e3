"""A small TF 1.x Transformer block (2018 tutorials): scaled dot-product attention with
tf.matrix_band_part causal masks, multi-head split with tf.reshape/tf.transpose, layer norm
via tf.nn.moments, position-wise FFN with tf.layers.dense, sinusoid positions, label-smoothed
softmax cross entropy, Noam learning rate (rsqrt warmup) with Adam and clip_by_global_norm."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

VOCAB, D, HEADS, T, B = 11, 8, 2, 5, 3


def layer_norm(x, name):
    with tf.variable_scope(name):
        mean, var = tf.nn.moments(x, [-1], keep_dims=True)
        gamma = tf.get_variable("gamma", [D], initializer=tf.ones_initializer())
        beta = tf.get_variable("beta", [D], initializer=tf.zeros_initializer())
        return gamma * (x - mean) * tf.rsqrt(var + 1e-6) + beta


def attention(x, name):
    with tf.variable_scope(name):
        q, k, v = [tf.layers.dense(x, D, use_bias=False, name=n) for n in "qkv"]

        def split(t):
            return tf.transpose(tf.reshape(t, [-1, T, HEADS, D // HEADS]), [0, 2, 1, 3])
        q, k, v = split(q), split(k), split(v)
        scores = tf.matmul(q, k, transpose_b=True) / np.sqrt(D // HEADS)
        mask = tf.matrix_band_part(tf.ones([T, T]), -1, 0)
        scores = scores * mask - 1e9 * (1 - mask)
        weights = tf.nn.softmax(scores)
        out = tf.reshape(tf.transpose(tf.matmul(weights, v), [0, 2, 1, 3]), [-1, T, D])
        return tf.layers.dense(out, D, name="out"), weights


def main():
    tf.reset_default_graph()
    tf.set_random_seed(31)
    rng = np.random.RandomState(7)
    tokens = tf.placeholder(tf.int32, [None, T])
    targets = tf.placeholder(tf.int32, [None, T])
    emb = tf.get_variable("emb", [VOCAB, D], initializer=tf.random_normal_initializer(0, D ** -0.5))
    pos = np.arange(T)[:, None] / np.power(10000, (2 * (np.arange(D)[None] // 2)) / D)
    pos = np.where(np.arange(D)[None] % 2 == 0, np.sin(pos), np.cos(pos)).astype(np.float32)
    x = tf.nn.embedding_lookup(emb, tokens) * D ** 0.5 + pos
    a, weights = attention(layer_norm(x, "ln1"), "self_attention")
    x = x + a
    h = tf.layers.dense(layer_norm(x, "ln2"), 4 * D, activation=tf.nn.relu, name="ffn1")
    x = x + tf.layers.dense(h, D, name="ffn2")
    logits = tf.tensordot(layer_norm(x, "ln3"), emb, [[2], [1]])
    onehot = tf.one_hot(targets, VOCAB)
    loss = tf.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.1)
    step = tf.train.get_or_create_global_step()
    s = tf.cast(step + 1, tf.float32)
    lr = D ** -0.5 * tf.minimum(tf.rsqrt(s), s * 4.0 ** -1.5)
    opt = tf.train.AdamOptimizer(lr, beta2=0.98, epsilon=1e-9)
    grads, variables = zip(*opt.compute_gradients(loss))
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    train = opt.apply_gradients(zip(clipped, variables), global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(12):
            seq = rng.randint(1, VOCAB, size=(B, T))
            l, n, r, _ = sess.run([loss, norm, lr, train], {tokens: seq, targets: np.roll(seq, -1, 1)})
            if i % 3 == 0:
                print("step %d loss %.5f norm %.5f lr %.6f" % (i, l, n, r))
        w = sess.run(weights, {tokens: seq})
        print("causal", np.allclose(np.triu(w[0, 0], 1), 0), np.round(w[0, 1, 2], 4).tolist())


if __name__ == "__main__":
    main()
