"""A mixture density network (Bishop 1994) in TF 1.x, as hardmaru's and Edward's 2016-2017
notebooks fit it to the inverted sine data: a tanh hidden layer, mixture weights by softmax,
standard deviations by exp, the negative log-likelihood computed twice (by hand with
tf.reduce_logsumexp over the components, and through tf.distributions.Normal's log_prob),
Adam, then sampling from the mixture with tf.multinomial and tf.random_normal, seeded."""
# fixture threads: 1 2 4
import math

import numpy as np

import engine as tf

K = 5


def main():
    tf.reset_default_graph()
    tf.set_random_seed(10)
    rng = np.random.RandomState(10)
    y_data = rng.uniform(-10.5, 10.5, (200, 1)).astype(np.float32)
    x_data = (np.sin(0.75 * y_data) * 7.0 + y_data * 0.5
              + rng.randn(200, 1).astype(np.float32)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 1], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    hidden = tf.layers.dense(x, 24, activation=tf.nn.tanh,
                             kernel_initializer=tf.random_normal_initializer(stddev=0.5))
    params = tf.layers.dense(hidden, 3 * K,
                             kernel_initializer=tf.random_normal_initializer(stddev=0.5))
    logits, mu, log_sigma = tf.split(params, 3, axis=1)
    sigma = tf.exp(log_sigma)
    log_pi = tf.nn.log_softmax(logits)
    # by hand: log N(y | mu, sigma) summed over the mixture in log space
    log_normal = (-0.5 * tf.square((y - mu) / sigma) - tf.log(sigma)
                  - 0.5 * math.log(2 * math.pi))
    nll = -tf.reduce_mean(tf.reduce_logsumexp(log_pi + log_normal, axis=1))
    # the same through tf.distributions
    components = tf.distributions.Normal(loc=mu, scale=sigma)
    nll_dist = -tf.reduce_mean(tf.reduce_logsumexp(log_pi + components.log_prob(y), axis=1))
    train = tf.train.AdamOptimizer(0.01).minimize(nll)
    # sampling: a component per row, then a normal draw from it
    which = tf.multinomial(logits, 1, seed=4)
    rows = tf.range(tf.shape(x)[0], dtype=tf.int64)
    index = tf.stack([rows, tf.squeeze(which, 1)], axis=1)
    chosen_mu, chosen_sigma = tf.gather_nd(mu, index), tf.gather_nd(sigma, index)
    sample = chosen_mu + chosen_sigma * tf.random_normal(tf.shape(chosen_mu), seed=5)
    print("mixture params", params.get_shape().as_list(), "split", mu.get_shape().as_list())
    print("distribution", type(components).__name__, components.batch_shape)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(150):
            l, _ = sess.run([nll, train], {x: x_data, y: y_data})
            if step % 30 == 0:
                print("step %3d nll %.5f" % (step, l))
        a, b = sess.run([nll, nll_dist], {x: x_data, y: y_data})
        print("nll by hand %.5f by tf.distributions %.5f" % (a, b))
        grid = np.linspace(-10, 10, 6, dtype=np.float32).reshape(-1, 1)
        pis, s, w = sess.run([tf.exp(log_pi), sample, which], {x: grid})
        print("weights of x=-10:", np.round(pis[0], 4).tolist())
        print("components", w[:, 0].tolist())
        print("samples", np.round(s, 3).tolist())
        print("entropy %.5f" % sess.run(tf.reduce_mean(components.entropy()), {x: grid}))


if __name__ == "__main__":
    main()
