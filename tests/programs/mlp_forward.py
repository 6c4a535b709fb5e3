"""Forward pass of a two-layer MLP with seeded initial weights and a placeholder input."""

import numpy as np

import engine as tf

INPUT = (np.arange(12, dtype=np.float32).reshape(3, 4) - 6.0) / 4.0


def build():
    tf.set_random_seed(42)
    x = tf.placeholder(tf.float32, shape=[None, 4], name="x")
    with tf.name_scope("layer1"):
        w1 = tf.Variable(tf.random_normal([4, 8], stddev=0.5, seed=1), name="weights")
        b1 = tf.Variable(tf.zeros([8]), name="biases")
        hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    with tf.name_scope("layer2"):
        w2 = tf.Variable(tf.random_uniform([8, 3], -1.0, 1.0, seed=2), name="weights")
        b2 = tf.Variable(tf.constant(0.1, shape=[3]), name="biases")
        logits = tf.add(tf.matmul(hidden, w2), b2, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    init = tf.global_variables_initializer()
    return {"x": x, "logits": logits, "probs": probs, "init": init}


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(g["init"])
        logits, probs = sess.run([g["logits"], g["probs"]], {g["x"]: INPUT})
        print("logits:")
        print(logits)
        print("probs:")
        print(probs)


if __name__ == "__main__":
    main()
