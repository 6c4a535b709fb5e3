"""A TF 1.x sequence classifier: a two-layer MultiRNNCell (BasicLSTMCell, GRUCell) unrolled
with tf.nn.static_rnn over tf.unstack'ed steps; does a noisy sequence's running sum end
above zero? Trained with RMSProp and gradient clipping by value."""

import numpy as np

import engine as tf

STEPS, FEATURES, BATCH = 6, 2, 24


def make_data(rng, count):
    x = rng.normal(0.0, 1.0, size=(count, STEPS, FEATURES)).astype(np.float32)
    y = (x[:, :, 0].sum(axis=1) > 0).astype(np.int32)
    return x, y


def main():
    rng = np.random.RandomState(3)
    train_x, train_y = make_data(rng, 96)
    test_x, test_y = make_data(rng, 48)
    print("positives", train_y.sum(), "of", len(train_y))

    tf.set_random_seed(2)
    x = tf.placeholder(tf.float32, [None, STEPS, FEATURES], name="x")
    y = tf.placeholder(tf.int32, [None], name="y")
    cells = [tf.nn.rnn_cell.BasicLSTMCell(8), tf.nn.rnn_cell.GRUCell(6)]
    outputs, state = tf.nn.static_rnn(tf.nn.rnn_cell.MultiRNNCell(cells),
                                      tf.unstack(x, STEPS, axis=1), dtype=tf.float32)
    logits = tf.layers.dense(outputs[-1], 2, name="classifier")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32),
                                               y), tf.float32))
    optimizer = tf.train.RMSPropOptimizer(0.02)
    grads_and_vars = [(tf.clip_by_value(g, -1.0, 1.0), v)
                      for g, v in optimizer.compute_gradients(loss)]
    train = optimizer.apply_gradients(grads_and_vars)
    for v in tf.trainable_variables():
        print(v.name, v.shape)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(3):
            for start in range(0, len(train_x), BATCH):
                feed = {x: train_x[start:start + BATCH], y: train_y[start:start + BATCH]}
                _, batch_loss = sess.run([train, loss], feed)
            print("epoch", epoch, "last batch loss", batch_loss)
        test_loss, test_accuracy = sess.run([loss, accuracy], {x: test_x, y: test_y})
        print("test loss", test_loss, "accuracy", test_accuracy)
        lstm_state, gru_state = sess.run(state, {x: test_x[:2]})
        print("final LSTM c", lstm_state.c[0])
        print("final GRU h", gru_state[0])

if __name__ == "__main__":
    main()
