"""A TF 1.x RNN text classifier, as the sentiment-analysis tutorials wrote it: padded word-id
sentences with their lengths, an embedding matrix (tf.get_variable) and
tf.nn.embedding_lookup, an LSTMCell in a DropoutWrapper (output_keep_prob fed through a
placeholder, a fresh mask at every step) unrolled by tf.nn.dynamic_rnn with
sequence_length, the last state's h into a softmax layer; Adam, accuracy on a held-out set
with keep_prob 1.0. Is a sentence's count of "good" words above its count of "bad" ones?

Dropout on the outputs only, as the PTB and sentiment tutorials had it: each step's mask
is drawn after that step's cell, so the draws follow the steps. (An input_keep_prob mask
depends on nothing of the step before; TensorFlow's executor draws those in the order its
thread pool runs the loop's iterations, backwards with one inter-op thread and differently
from run to run with more.)"""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

VOCAB, MAX_LEN, EMBED, HIDDEN, CLASSES = 20, 10, 8, 16, 2
GOOD, BAD = (2, 3, 4), (5, 6, 7)  # word ids; 0 is padding, 1 is the unknown word
BATCH_SIZE, TRAIN_STEPS = 32, 120


def make_sentences(rng, count):
    lengths = rng.randint(3, MAX_LEN + 1, count)
    words = np.zeros((count, MAX_LEN), np.int32)
    labels = np.zeros(count, np.int64)
    for i, length in enumerate(lengths):
        words[i, :length] = rng.randint(1, VOCAB, length)
        good = np.isin(words[i, :length], GOOD).sum()
        bad = np.isin(words[i, :length], BAD).sum()
        labels[i] = int(good > bad)
    return words, lengths.astype(np.int32), labels


def main():
    rng = np.random.RandomState(42)
    train_x, train_len, train_y = make_sentences(rng, 256)
    test_x, test_len, test_y = make_sentences(rng, 128)
    print('train positives: %d/%d, test positives: %d/%d' %
          (train_y.sum(), len(train_y), test_y.sum(), len(test_y)))

    tf.set_random_seed(1234)
    inputs = tf.placeholder(tf.int32, [None, MAX_LEN], name='inputs')
    lengths = tf.placeholder(tf.int32, [None], name='lengths')
    targets = tf.placeholder(tf.int64, [None], name='targets')
    keep_prob = tf.placeholder(tf.float32, name='keep_prob')

    embedding = tf.get_variable('embedding', [VOCAB, EMBED],
                                initializer=tf.random_uniform_initializer(-1.0, 1.0))
    embedded = tf.nn.embedding_lookup(embedding, inputs)
    cell = tf.nn.rnn_cell.LSTMCell(HIDDEN)
    cell = tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=keep_prob)
    outputs, state = tf.nn.dynamic_rnn(cell, embedded, sequence_length=lengths,
                                       dtype=tf.float32)
    softmax_w = tf.get_variable('softmax_w', [HIDDEN, CLASSES])
    softmax_b = tf.get_variable('softmax_b', [CLASSES], initializer=tf.zeros_initializer())
    logits = tf.matmul(state.h, softmax_w) + softmax_b
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                         logits=logits))
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    correct = tf.equal(tf.argmax(logits, 1), targets)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

    print('outputs', outputs.shape, 'state.h', state.h.shape)
    print([v.name for v in tf.trainable_variables()])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(TRAIN_STEPS):
            start = (step * BATCH_SIZE) % len(train_x)
            feed = {inputs: train_x[start:start + BATCH_SIZE],
                    lengths: train_len[start:start + BATCH_SIZE],
                    targets: train_y[start:start + BATCH_SIZE], keep_prob: 0.75}
            _, loss_value, acc = sess.run([train_op, loss, accuracy], feed_dict=feed)
            if step % 20 == 0 or step == TRAIN_STEPS - 1:
                print('step %3d  minibatch loss %.4f  accuracy %.3f' % (step, loss_value, acc))
        test_feed = {inputs: test_x, lengths: test_len, targets: test_y, keep_prob: 1.0}
        test_loss, test_acc = sess.run([loss, accuracy], feed_dict=test_feed)
        print('test loss %.4f  test accuracy %.4f' % (test_loss, test_acc))
        # With dropout on, two runs of the same batch see different masks.
        feed = {inputs: test_x[:4], lengths: test_len[:4], keep_prob: 0.5}
        print('dropout on:', np.round(sess.run(outputs, feed)[:, 2, :3], 4).tolist())
        print('dropout on:', np.round(sess.run(outputs, feed)[:, 2, :3], 4).tolist())


if __name__ == '__main__':
    main()
