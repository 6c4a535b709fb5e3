"""TF 1.x's how_tos/reading_data pair, convert_to_records.py and fully_connected_reader.py, on
small synthetic digits: the images go into TFRecord files as tf.train.Examples (height,
width, depth, label, image_raw bytes) with tf.python_io.TFRecordWriter; training reads
them back through tf.train.string_input_producer (num_epochs), a tf.TFRecordReader,
tf.parse_single_example and tf.decode_raw, into tf.train.shuffle_batch with the
tutorial's capacity and min_after_dequeue, feeding mnist.py's two-layer inference(); the
loop runs until the epochs are used up (OutOfRangeError).

The tutorial read with num_threads=2; two threads enqueue the records in a different order
from run to run, so this reads with one, and seeds the graph."""
import math
import os
import shutil
import tempfile

import numpy as np

import engine as tf

NUM_CLASSES, IMAGE_SIZE = 10, 8
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE
HIDDEN1, HIDDEN2 = 32, 16
LEARNING_RATE, NUM_EPOCHS, BATCH_SIZE = 0.3, 3, 25
TRAIN_FILE, VALIDATION_FILE = 'train.tfrecords', 'validation.tfrecords'


class DataSet(object):
    def __init__(self, images, labels):
        self.images, self.labels = images, labels
        self.num_examples = images.shape[0]


def read_data_sets(rng):
    """uint8 images [N, 8, 8, 1]: a noisy prototype per digit."""
    prototypes = rng.randint(0, 256, (NUM_CLASSES, IMAGE_SIZE, IMAGE_SIZE, 1))

    def make(count):
        labels = rng.randint(0, NUM_CLASSES, count)
        noise = rng.randint(-60, 61, (count, IMAGE_SIZE, IMAGE_SIZE, 1))
        images = np.clip(prototypes[labels] + noise, 0, 255).astype(np.uint8)
        return DataSet(images, labels.astype(np.int64))

    return make(300), make(100)


def _int64_feature(value):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))


def _bytes_feature(value):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


def convert_to(data_set, name, directory):
    """Converts a dataset to tfrecords."""
    images = data_set.images
    labels = data_set.labels
    num_examples = data_set.num_examples
    rows, cols, depth = images.shape[1], images.shape[2], images.shape[3]

    filename = os.path.join(directory, name + '.tfrecords')
    print('Writing', os.path.basename(filename))
    with tf.python_io.TFRecordWriter(filename) as writer:
        for index in range(num_examples):
            image_raw = images[index].tobytes()
            example = tf.train.Example(features=tf.train.Features(feature={
                'height': _int64_feature(rows),
                'width': _int64_feature(cols),
                'depth': _int64_feature(depth),
                'label': _int64_feature(int(labels[index])),
                'image_raw': _bytes_feature(image_raw)}))
            writer.write(example.SerializeToString())
    print('  %d records, %d bytes' % (num_examples, os.path.getsize(filename)))


def read_and_decode(filename_queue):
    reader = tf.TFRecordReader()
    _, serialized_example = reader.read(filename_queue)
    features = tf.parse_single_example(
        serialized_example,
        features={
            'image_raw': tf.FixedLenFeature([], tf.string),
            'label': tf.FixedLenFeature([], tf.int64),
        })
    image = tf.decode_raw(features['image_raw'], tf.uint8)
    image.set_shape([IMAGE_PIXELS])
    # Convert from [0, 255] -> [-0.5, 0.5] floats.
    image = tf.cast(image, tf.float32) * (1. / 255) - 0.5
    label = tf.cast(features['label'], tf.int32)
    return image, label


def inputs(directory, train, batch_size, num_epochs):
    filename = os.path.join(directory, TRAIN_FILE if train else VALIDATION_FILE)
    with tf.name_scope('input'):
        filename_queue = tf.train.string_input_producer([filename], num_epochs=num_epochs)
        image, label = read_and_decode(filename_queue)
        # Shuffle the examples and collect them into batch_size batches.
        images, sparse_labels = tf.train.shuffle_batch(
            [image, label], batch_size=batch_size, num_threads=1,
            capacity=1000 + 3 * batch_size,
            # Ensures a minimum amount of shuffling of examples.
            min_after_dequeue=1000)
        return images, sparse_labels


def inference(images, hidden1_units, hidden2_units):
    with tf.name_scope('hidden1'):
        weights = tf.Variable(tf.truncated_normal(
            [IMAGE_PIXELS, hidden1_units], stddev=1.0 / math.sqrt(float(IMAGE_PIXELS))),
            name='weights')
        biases = tf.Variable(tf.zeros([hidden1_units]), name='biases')
        hidden1 = tf.nn.relu(tf.matmul(images, weights) + biases)
    with tf.name_scope('hidden2'):
        weights = tf.Variable(tf.truncated_normal(
            [hidden1_units, hidden2_units], stddev=1.0 / math.sqrt(float(hidden1_units))),
            name='weights')
        biases = tf.Variable(tf.zeros([hidden2_units]), name='biases')
        hidden2 = tf.nn.relu(tf.matmul(hidden1, weights) + biases)
    with tf.name_scope('softmax_linear'):
        weights = tf.Variable(tf.truncated_normal(
            [hidden2_units, NUM_CLASSES], stddev=1.0 / math.sqrt(float(hidden2_units))),
            name='weights')
        biases = tf.Variable(tf.zeros([NUM_CLASSES]), name='biases')
        logits = tf.matmul(hidden2, weights) + biases
    return logits


def run_training(directory):
    with tf.Graph().as_default():
        tf.set_random_seed(2017)
        images, labels = inputs(directory, train=True, batch_size=BATCH_SIZE,
                                num_epochs=NUM_EPOCHS)
        logits = inference(images, HIDDEN1, HIDDEN2)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        train_op = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss)
        correct = tf.reduce_sum(tf.cast(tf.nn.in_top_k(logits, labels, 1), tf.int32))
        init_op = tf.group(tf.global_variables_initializer(),
                           tf.local_variables_initializer())
        sess = tf.Session()
        sess.run(init_op)
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            step = 0
            while not coord.should_stop():
                _, loss_value, num_correct = sess.run([train_op, loss, correct])
                if step % 5 == 0:
                    print('Step %d: loss = %.2f, %d/%d correct' %
                          (step, loss_value, num_correct, BATCH_SIZE))
                step += 1
        except tf.errors.OutOfRangeError:
            print('Done training for %d epochs, %d steps.' % (NUM_EPOCHS, step))
        finally:
            coord.request_stop()
        coord.join(threads)
        sess.close()


def main():
    directory = tempfile.mkdtemp()
    try:
        train, validation = read_data_sets(np.random.RandomState(0))
        convert_to(train, 'train', directory)
        convert_to(validation, 'validation', directory)
        for record in tf.python_io.tf_record_iterator(os.path.join(directory, TRAIN_FILE)):
            example = tf.train.Example.FromString(record)
            print('first record:', sorted(example.features.feature),
                  example.features.feature['label'].int64_list.value[0])
            break
        run_training(directory)
    finally:
        shutil.rmtree(directory)


if __name__ == '__main__':
    main()
