"""TF 1.x learning-rate schedules of the 2017-2018 papers: tf.train.linear_cosine_decay and
tf.train.cosine_decay_restarts (SGDR, geometric cycles with t_mul and m_mul, and constant ones
with t_mul=1, a tf.cond inside) over a fed global step; prints their names, the graph's op
count and the rates."""

import engine as tf


def main():
    tf.reset_default_graph()
    step = tf.placeholder(tf.int64, [])
    lin = tf.train.linear_cosine_decay(0.1, step, 20, num_periods=2.0, alpha=0.1, beta=0.01)
    sgdr = tf.train.cosine_decay_restarts(0.1, step, 5, t_mul=2.0, m_mul=0.5, alpha=0.05)
    flat = tf.train.cosine_decay_restarts(0.1, step, 5, t_mul=1.0, name="flat")
    print(lin.name, sgdr.name, flat.name, len(tf.get_default_graph().get_operations()))
    with tf.Session() as sess:
        for s in [0, 3, 5, 7, 12, 17, 30]:
            print(s, ["%.7f" % v for v in sess.run([lin, sgdr, flat], {step: s})])


if __name__ == "__main__":
    main()
