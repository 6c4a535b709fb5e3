"""conv2d + max_pool + dense + softmax cross entropy: two GradientDescent steps on tiny images."""

import numpy as np

import engine as tf

STEPS = 2
_rng = np.random.RandomState(1)
IMAGES = _rng.uniform(0.0, 1.0, size=(2, 6, 6, 1)).astype(np.float32)
LABELS = np.array([[1, 0, 0], [0, 0, 1]], dtype=np.float32)


def build():
    tf.set_random_seed(5)
    images = tf.placeholder(tf.float32, shape=[None, 6, 6, 1], name="images")
    labels = tf.placeholder(tf.float32, shape=[None, 3], name="labels")
    with tf.name_scope("conv"):
        kernel = tf.Variable(tf.truncated_normal([3, 3, 1, 2], stddev=0.3, seed=1), name="kernel")
        bias = tf.Variable(tf.constant(0.1, shape=[2]), name="bias")
        conv = tf.nn.relu(tf.nn.conv2d(images, kernel, strides=[1, 1, 1, 1], padding="SAME") + bias)
        pool = tf.nn.max_pool(conv, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    with tf.name_scope("dense"):
        flat = tf.reshape(pool, [-1, 3 * 3 * 2])
        weights = tf.Variable(tf.truncated_normal([18, 3], stddev=0.3, seed=2), name="weights")
        biases = tf.Variable(tf.zeros([3]), name="biases")
        logits = tf.matmul(flat, weights) + biases
    loss = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits), name="loss")
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    init = tf.global_variables_initializer()
    return {"images": images, "labels": labels, "loss": loss, "train": train, "init": init}


def main():
    g = build()
    feed = {g["images"]: IMAGES, g["labels"]: LABELS}
    with tf.Session() as sess:
        sess.run(g["init"])
        for step in range(1, STEPS + 1):
            loss, _ = sess.run([g["loss"], g["train"]], feed)
            print(f"step {step} loss {loss:.6f}")
        print(f"final loss {sess.run(g['loss'], feed):.6f}")


if __name__ == "__main__":
    main()
