"""A TF 1.x variable-length sequence regressor: padded batches with sequence_length through
tf.nn.bidirectional_dynamic_rnn (GRU forward, LSTM backward) and tf.nn.dynamic_rnn, the
final states into a dense layer predicting each sequence's mean, Adam."""

import numpy as np

import engine as tf

MAX_STEPS, BATCH = 7, 16


def make_batch(rng):
    lengths = rng.randint(2, MAX_STEPS + 1, size=BATCH).astype(np.int32)
    values = rng.uniform(-1, 1, size=(BATCH, MAX_STEPS, 1)).astype(np.float32)
    mask = np.arange(MAX_STEPS)[None, :] < lengths[:, None]
    values[~mask] = 0.0
    targets = (values[:, :, 0].sum(axis=1) / lengths).astype(np.float32)
    return values, lengths, targets


def main():
    rng = np.random.RandomState(5)
    batches = [make_batch(rng) for _ in range(4)]
    tf.set_random_seed(6)
    x = tf.placeholder(tf.float32, [BATCH, MAX_STEPS, 1], name="x")
    lengths = tf.placeholder(tf.int32, [BATCH], name="lengths")
    target = tf.placeholder(tf.float32, [BATCH], name="target")
    (fw, bw), (fw_state, bw_state) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(4), tf.nn.rnn_cell.BasicLSTMCell(4), x,
        sequence_length=lengths, dtype=tf.float32)
    _, top_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), tf.concat([fw, bw], 2),
                                     sequence_length=lengths, dtype=tf.float32,
                                     scope="top")
    features = tf.concat([fw_state, bw_state.h, top_state], 1)
    prediction = tf.squeeze(tf.layers.dense(features, 1, name="head"), 1)
    loss = tf.reduce_mean(tf.square(prediction - target))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    print([v.name for v in tf.trainable_variables()])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(3):
            for values, lens, targets in batches:
                _, value = sess.run([train, loss], {x: values, lengths: lens, target: targets})
            print("epoch", epoch, "loss", value)
        values, lens, targets = batches[0]
        outputs = sess.run(fw, {x: values, lengths: lens, target: targets})
        print("lengths", lens[:3])
        print("forward outputs past row 0's length are zero:",
              bool((outputs[0, lens[0]:] == 0).all()))
        print("predictions", sess.run(prediction, {x: values, lengths: lens})[:4])
        print("targets", targets[:4])


if __name__ == "__main__":
    main()
