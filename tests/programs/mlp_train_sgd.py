"""A two-layer MLP trained for a few GradientDescent steps on tiny synthetic data; loss per step."""

import numpy as np

import engine as tf

STEPS = 3
_rng = np.random.RandomState(0)
INPUTS = _rng.uniform(-1.0, 1.0, size=(8, 4)).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)[(INPUTS @ np.array([[1.0], [-1.0], [0.5], [2.0]])
                                       > 0).astype(int).ravel() + (INPUTS[:, 0] > 0.5)]


def build(optimizer=None):
    tf.set_random_seed(3)
    x = tf.placeholder(tf.float32, shape=[None, 4], name="x")
    labels = tf.placeholder(tf.float32, shape=[None, 3], name="labels")
    with tf.name_scope("layer1"):
        w1 = tf.Variable(tf.truncated_normal([4, 6], stddev=0.5, seed=1), name="weights")
        b1 = tf.Variable(tf.zeros([6]), name="biases")
        hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    with tf.name_scope("layer2"):
        w2 = tf.Variable(tf.truncated_normal([6, 3], stddev=0.5, seed=2), name="weights")
        b2 = tf.Variable(tf.zeros([3]), name="biases")
        logits = tf.matmul(hidden, w2) + b2
    loss = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits), name="loss")
    optimizer = optimizer or tf.train.GradientDescentOptimizer(0.5)
    train = optimizer.minimize(loss, name="train")
    init = tf.global_variables_initializer()
    return {"x": x, "labels": labels, "loss": loss, "train": train, "init": init}


def train_and_print(g):
    feed = {g["x"]: INPUTS, g["labels"]: LABELS}
    with tf.Session() as sess:
        sess.run(g["init"])
        for step in range(1, STEPS + 1):
            loss, _ = sess.run([g["loss"], g["train"]], feed)
            print(f"step {step} loss {loss:.6f}")
        print(f"final loss {sess.run(g['loss'], feed):.6f}")


def main():
    train_and_print(build())


if __name__ == "__main__":
    main()
