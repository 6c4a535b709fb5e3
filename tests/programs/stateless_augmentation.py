"""Reproducible augmentation and dropout with stateless random ops: a step counter folded
into a seed gives each step its own noise, flips and dropout mask, so a rerun of any step
draws the same numbers (tf.random.fold_in, split, stateless_uniform, stateless_normal,
stateless_categorical, experimental.stateless_shuffle, nn.experimental.stateless_dropout)."""

import numpy as np

import engine as tf

BASE_SEED = [20, 21]


def build():
    """A linear model trained on noisy, shuffled batches whose randomness comes from the step."""
    step = tf.placeholder(tf.int32, [], name="step")
    images = tf.constant(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
    labels = tf.constant([0, 1, 2, 0, 1, 2], tf.int64)
    step_seed = tf.random.fold_in(BASE_SEED, step)
    seeds = tf.random.split(step_seed, num=4)
    noisy = images + tf.random.stateless_normal([6, 4], seed=seeds[0], stddev=0.1)
    flip = tf.random.stateless_uniform([6, 1], seed=seeds[1]) < 0.5
    augmented = tf.where(tf.tile(flip, [1, 4]), tf.reverse(noisy, [1]), noisy)
    order = tf.random.experimental.stateless_shuffle(tf.range(6), seed=seeds[2])
    batch, batch_labels = tf.gather(augmented, order), tf.gather(labels, order)
    weights = tf.Variable(tf.random.stateless_truncated_normal([4, 3], seed=[1, 1], stddev=0.3),
                          name="weights")
    hidden = tf.nn.experimental.stateless_dropout(batch, 0.25, seed=seeds[3])
    logits = tf.matmul(hidden, weights)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=batch_labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    samples = tf.random.stateless_categorical(logits, 3, seed=step_seed)
    return {"step": step, "order": order, "loss": loss, "train": train, "samples": samples,
            "seeds": seeds, "init": tf.global_variables_initializer()}


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(g["init"])
        for step in range(4):
            feed = {g["step"]: step}
            seeds, order, loss, samples = sess.run(
                [g["seeds"], g["order"], g["loss"], g["samples"]], feed)
            sess.run(g["train"], feed)
            print(f"step {step}: seeds {seeds.tolist()} order {order.tolist()} "
                  f"loss {loss:.6f} samples {samples.tolist()}")
        again = sess.run(g["order"], {g["step"]: 2})
        print("step 2 again:", again.tolist())


if __name__ == "__main__":
    main()
