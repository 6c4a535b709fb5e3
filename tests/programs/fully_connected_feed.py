"""TF 1.x's tutorials/mnist/fully_connected_feed.py, on small synthetic digits: placeholders
sized to the batch, fill_feed_dict, a two-hidden-layer inference() in name scopes, a loss
scalar summary written with tf.summary.FileWriter every 20 steps, tf.train.Saver checkpoints
with the global step every 50 steps, and do_eval's precision @ 1 (tf.nn.in_top_k) on the
training, validation and test sets at each checkpoint."""
import math
import os
import shutil
import tempfile

import numpy as np

import engine as tf

NUM_CLASSES = 10
IMAGE_SIZE = 6
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE
HIDDEN1, HIDDEN2 = 24, 12
BATCH_SIZE = 20
MAX_STEPS = 150
LEARNING_RATE = 0.1


class DataSet(object):
    """The tutorial's input_data.DataSet: next_batch reshuffles after each epoch."""

    def __init__(self, images, labels, rng):
        self._images, self._labels, self._rng = images, labels, rng
        self._num_examples = images.shape[0]
        self._index_in_epoch = 0
        self.epochs_completed = 0

    @property
    def num_examples(self):
        return self._num_examples

    def next_batch(self, batch_size):
        start = self._index_in_epoch
        self._index_in_epoch += batch_size
        if self._index_in_epoch > self._num_examples:
            self.epochs_completed += 1
            perm = np.arange(self._num_examples)
            self._rng.shuffle(perm)
            self._images, self._labels = self._images[perm], self._labels[perm]
            start, self._index_in_epoch = 0, batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


def read_data_sets(rng):
    """Ten noisy prototypes, one per digit; 400 training, 100 validation, 100 test images."""
    prototypes = rng.uniform(0.0, 1.0, (NUM_CLASSES, IMAGE_PIXELS))

    def make(count):
        labels = rng.randint(0, NUM_CLASSES, count)
        images = prototypes[labels] + rng.normal(0.0, 0.35, (count, IMAGE_PIXELS))
        return DataSet(images.astype(np.float32), labels.astype(np.int32), rng)

    return make(400), make(100), make(100)


def inference(images, hidden1_units, hidden2_units):
    with tf.name_scope('hidden1'):
        weights = tf.Variable(
            tf.truncated_normal([IMAGE_PIXELS, hidden1_units],
                                stddev=1.0 / math.sqrt(float(IMAGE_PIXELS))), name='weights')
        biases = tf.Variable(tf.zeros([hidden1_units]), name='biases')
        hidden1 = tf.nn.relu(tf.matmul(images, weights) + biases)
    with tf.name_scope('hidden2'):
        weights = tf.Variable(
            tf.truncated_normal([hidden1_units, hidden2_units],
                                stddev=1.0 / math.sqrt(float(hidden1_units))), name='weights')
        biases = tf.Variable(tf.zeros([hidden2_units]), name='biases')
        hidden2 = tf.nn.relu(tf.matmul(hidden1, weights) + biases)
    with tf.name_scope('softmax_linear'):
        weights = tf.Variable(
            tf.truncated_normal([hidden2_units, NUM_CLASSES],
                                stddev=1.0 / math.sqrt(float(hidden2_units))), name='weights')
        biases = tf.Variable(tf.zeros([NUM_CLASSES]), name='biases')
        logits = tf.matmul(hidden2, weights) + biases
    return logits


def loss(logits, labels):
    labels = tf.to_int64(labels)
    return tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)


def training(loss, learning_rate):
    tf.summary.scalar('loss', loss)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate)
    global_step = tf.Variable(0, name='global_step', trainable=False)
    train_op = optimizer.minimize(loss, global_step=global_step)
    return train_op


def evaluation(logits, labels):
    correct = tf.nn.in_top_k(logits, labels, 1)
    return tf.reduce_sum(tf.cast(correct, tf.int32))


def placeholder_inputs(batch_size):
    images_placeholder = tf.placeholder(tf.float32, shape=(batch_size, IMAGE_PIXELS))
    labels_placeholder = tf.placeholder(tf.int32, shape=(batch_size))
    return images_placeholder, labels_placeholder


def fill_feed_dict(data_set, images_pl, labels_pl):
    images_feed, labels_feed = data_set.next_batch(BATCH_SIZE)
    feed_dict = {
        images_pl: images_feed,
        labels_pl: labels_feed,
    }
    return feed_dict


def do_eval(sess, eval_correct, images_placeholder, labels_placeholder, data_set):
    true_count = 0
    steps_per_epoch = data_set.num_examples // BATCH_SIZE
    num_examples = steps_per_epoch * BATCH_SIZE
    for step in range(steps_per_epoch):
        feed_dict = fill_feed_dict(data_set, images_placeholder, labels_placeholder)
        true_count += sess.run(eval_correct, feed_dict=feed_dict)
    precision = float(true_count) / num_examples
    print('  Num examples: %d  Num correct: %d  Precision @ 1: %0.04f' %
          (num_examples, true_count, precision))


def run_training(log_dir):
    train, validation, test = read_data_sets(np.random.RandomState(1234))
    with tf.Graph().as_default():
        tf.set_random_seed(66478)
        images_placeholder, labels_placeholder = placeholder_inputs(BATCH_SIZE)
        logits = inference(images_placeholder, HIDDEN1, HIDDEN2)
        loss_op = loss(logits, labels_placeholder)
        train_op = training(loss_op, LEARNING_RATE)
        eval_correct = evaluation(logits, labels_placeholder)
        summary = tf.summary.merge_all()
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        sess = tf.Session()
        summary_writer = tf.summary.FileWriter(log_dir, sess.graph)
        sess.run(init)

        for step in range(MAX_STEPS):
            feed_dict = fill_feed_dict(train, images_placeholder, labels_placeholder)
            _, loss_value = sess.run([train_op, loss_op], feed_dict=feed_dict)
            if step % 20 == 0:
                print('Step %d: loss = %.2f' % (step, loss_value))
                summary_str = sess.run(summary, feed_dict=feed_dict)
                summary_writer.add_summary(summary_str, step)
                summary_writer.flush()
            if (step + 1) % 50 == 0 or (step + 1) == MAX_STEPS:
                checkpoint_file = os.path.join(log_dir, 'model.ckpt')
                saver.save(sess, checkpoint_file, global_step=step)
                print('Training Data Eval:')
                do_eval(sess, eval_correct, images_placeholder, labels_placeholder, train)
                print('Validation Data Eval:')
                do_eval(sess, eval_correct, images_placeholder, labels_placeholder, validation)
                print('Test Data Eval:')
                do_eval(sess, eval_correct, images_placeholder, labels_placeholder, test)
        summary_writer.close()
        sess.close()

    print('latest checkpoint:', os.path.basename(tf.train.latest_checkpoint(log_dir)))
    state = tf.train.get_checkpoint_state(log_dir)
    print('kept:', [os.path.basename(p) for p in state.all_model_checkpoint_paths])
    events = [name for name in os.listdir(log_dir) if name.startswith('events.out.tfevents')]
    losses = []
    for event in tf.train.summary_iterator(os.path.join(log_dir, events[0])):
        for value in event.summary.value:
            losses.append((event.step, value.tag, round(float(value.simple_value), 4)))
    print('event files:', len(events), 'loss summaries:', losses)

    # A fresh graph restores the last checkpoint and scores the test set again.
    with tf.Graph().as_default():
        images_placeholder, labels_placeholder = placeholder_inputs(BATCH_SIZE)
        logits = inference(images_placeholder, HIDDEN1, HIDDEN2)
        eval_correct = evaluation(logits, labels_placeholder)
        tf.Variable(0, name='global_step', trainable=False)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, tf.train.latest_checkpoint(log_dir))
            print('Restored Test Data Eval:')
            do_eval(sess, eval_correct, images_placeholder, labels_placeholder, test)


def main():
    log_dir = tempfile.mkdtemp()
    try:
        run_training(log_dir)
    finally:
        shutil.rmtree(log_dir)


if __name__ == '__main__':
    main()
