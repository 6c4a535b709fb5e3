"""A TF 1.x queue input pipeline as the "Reading data" how-to and cifar10_input.py built it:
tf.train.slice_input_producer over in-memory examples (two epochs, shuffled by its own
RandomShuffle), tf.train.shuffle_batch (one enqueue thread, a seed) into a softmax
regression, QueueRunners started under a tf.train.Coordinator, and the training loop run
until the input runs out (OutOfRangeError), printing each batch's labels and loss.

min_after_dequeue covers the whole (tiny) data set, so the shuffle queue draws only once
the producer has closed it: what each batch holds then does not depend on how far the
queue runner's thread got between two steps, and TensorFlow prints the same every time.
"""
import numpy as np

import engine as tf

NUM_EXAMPLES, FEATURES, CLASSES = 45, 4, 3
NUM_EPOCHS, BATCH_SIZE = 2, 8


def make_data(rng):
    centres = rng.normal(0.0, 2.0, (CLASSES, FEATURES))
    labels = rng.randint(0, CLASSES, NUM_EXAMPLES)
    features = centres[labels] + rng.normal(0.0, 1.0, (NUM_EXAMPLES, FEATURES))
    return features.astype(np.float32), labels.astype(np.int32)


def inputs(features, labels):
    example, label = tf.train.slice_input_producer([features, labels], num_epochs=NUM_EPOCHS,
                                                   shuffle=True, seed=7)
    min_after_dequeue = NUM_EPOCHS * NUM_EXAMPLES
    capacity = min_after_dequeue + 3 * BATCH_SIZE
    return tf.train.shuffle_batch([example, label], batch_size=BATCH_SIZE, num_threads=1,
                                  capacity=capacity, min_after_dequeue=min_after_dequeue,
                                  seed=11)


def main():
    features, labels = make_data(np.random.RandomState(2017))
    print('label counts:', np.bincount(labels).tolist())
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        example_batch, label_batch = inputs(features, labels)
        weights = tf.Variable(tf.truncated_normal([FEATURES, CLASSES], stddev=0.1),
                              name='weights')
        biases = tf.Variable(tf.zeros([CLASSES]), name='biases')
        logits = tf.matmul(example_batch, weights) + biases
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=label_batch, logits=logits))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(tf.argmax(logits, 1), tf.int32),
                                                   label_batch), tf.float32))

        init_op = tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())
        sess = tf.Session()
        sess.run(init_op)
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        step = 0
        try:
            while not coord.should_stop():
                _, loss_value, acc, batch_labels = sess.run(
                    [train_op, loss, accuracy, label_batch])
                print('Step %d: loss = %.4f accuracy = %.3f labels = %s' %
                      (step, loss_value, acc, batch_labels.tolist()))
                step += 1
        except tf.errors.OutOfRangeError:
            print('Done training for %d epochs, %d steps.' % (NUM_EPOCHS, step))
        finally:
            coord.request_stop()
        coord.join(threads)
        for row in sess.run(weights):
            print('weights:', ' '.join('%.4f' % w for w in row))
        sess.close()


if __name__ == '__main__':
    main()
