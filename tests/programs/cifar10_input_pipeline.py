"""The TF 1.x CIFAR-10 tutorial's cifar10_input.py on a small data set the program writes
itself, and a CSV file read the way the "Reading data" how-to read one.

CIFAR-10's binary version is a few data_batch_N.bin files of fixed-length records: a label
byte, then a 32x32x3 image depth-major (the red plane, the green, the blue). Here the images
are 8x8x3 and each file holds 12 records; the second file ends with a record cut short,
which tf.FixedLengthRecordReader drops. read_cifar10() is the tutorial's (decode_raw,
strided_slice, reshape, transpose); inputs() crops the centre, standardises each image
(tf.image.per_image_standardization, written out) and batches with tf.train.shuffle_batch.
The CSV branch: tf.TextLineReader skipping the header, tf.decode_csv with defaults and an NA
value, tf.train.batch. Then tf.write_file/tf.read_file and tf.WholeFileReader, and the error
tf.decode_csv gives for a bad row.

The tutorial read with 16 threads and no seed; here one thread, and min_after_dequeue covers
the whole data set, so the shuffle queue draws only once the reader has closed it: the
batches do not depend on thread timing, and TensorFlow prints the same every run.
"""
import os
import shutil
import tempfile

import numpy as np

import engine as tf

tf.reset_default_graph()

NUM_CLASSES = 10
LABEL_BYTES, HEIGHT, WIDTH, DEPTH = 1, 8, 8, 3
CROP = 6
RECORDS_PER_FILE, NUM_FILES = 12, 2
BATCH_SIZE = 8
CSV_TEXT = (
    'sepal_length,sepal_width,species,name\n'
    '5.1,3.5,0,setosa\n'
    '7.0,3.2,1,"versicolor, large"\n'
    '6.3,NA,2,virginica\n'
    '4.9,3.0,,\n'
    '5.8,2.7,1,"say ""hi"""\n'
)


def write_data_batches(directory, rng):
    """data_batch_N.bin as CIFAR-10's binary version lays them out."""
    filenames = []
    for i in range(1, NUM_FILES + 1):
        labels = rng.randint(0, NUM_CLASSES, RECORDS_PER_FILE).astype(np.uint8)
        images = rng.randint(0, 256, (RECORDS_PER_FILE, DEPTH, HEIGHT, WIDTH)).astype(np.uint8)
        path = os.path.join(directory, 'data_batch_%d.bin' % i)
        with open(path, 'wb') as f:
            for label, image in zip(labels, images):
                f.write(bytes([label]) + image.tobytes())
            if i == NUM_FILES:
                f.write(b'\x07' + bytes(10))  # a record cut short: the reader drops it
        print('%s: %d bytes, labels %s' % (os.path.basename(path), os.path.getsize(path),
                                           labels.tolist()))
        filenames.append(path)
    return filenames


class CIFAR10Record(object):
    pass


def read_cifar10(filename_queue):
    """Reads and parses examples from CIFAR10 data files (the tutorial's)."""
    result = CIFAR10Record()
    label_bytes = LABEL_BYTES
    result.height = HEIGHT
    result.width = WIDTH
    result.depth = DEPTH
    image_bytes = result.height * result.width * result.depth
    record_bytes = label_bytes + image_bytes

    reader = tf.FixedLengthRecordReader(record_bytes=record_bytes)
    result.key, value = reader.read(filename_queue)
    result.reader = reader

    record_bytes = tf.decode_raw(value, tf.uint8)
    result.label = tf.cast(
        tf.strided_slice(record_bytes, [0], [label_bytes]), tf.int32)
    depth_major = tf.reshape(
        tf.strided_slice(record_bytes, [label_bytes], [label_bytes + image_bytes]),
        [result.depth, result.height, result.width])
    result.uint8image = tf.transpose(depth_major, [1, 2, 0])
    return result


def per_image_standardization(image):
    """(x - mean) / max(stddev, 1 / sqrt(N)), as tf.image.per_image_standardization."""
    num_pixels = float(CROP * CROP * DEPTH)
    mean = tf.reduce_mean(image)
    stddev = tf.sqrt(tf.reduce_mean(tf.square(image - mean)))
    adjusted_stddev = tf.maximum(stddev, 1.0 / np.sqrt(num_pixels))
    return (image - mean) / adjusted_stddev


def inputs(filenames, batch_size):
    for f in filenames:
        if not tf.gfile.Exists(f):
            raise ValueError('Failed to find file: ' + f)
    filename_queue = tf.train.string_input_producer(filenames, num_epochs=1, shuffle=False)
    read_input = read_cifar10(filename_queue)
    reshaped_image = tf.cast(read_input.uint8image, tf.float32)
    offset = (HEIGHT - CROP) // 2
    cropped = tf.slice(reshaped_image, [offset, offset, 0], [CROP, CROP, DEPTH])
    float_image = per_image_standardization(cropped)
    float_image.set_shape([CROP, CROP, DEPTH])
    read_input.label.set_shape([1])

    min_queue_examples = NUM_FILES * RECORDS_PER_FILE
    print('Filling queue with %d CIFAR images before starting to train. '
          'This will take a few minutes.' % min_queue_examples)
    images, labels, keys, pixel_sums = tf.train.shuffle_batch(
        [float_image, read_input.label, read_input.key,
         tf.reduce_sum(tf.cast(read_input.uint8image, tf.int32))],
        batch_size=batch_size, num_threads=1,
        capacity=min_queue_examples + 3 * batch_size,
        min_after_dequeue=min_queue_examples, seed=42)
    return images, tf.reshape(labels, [batch_size]), keys, pixel_sums, read_input.reader


def csv_inputs(filename):
    filename_queue = tf.train.string_input_producer([filename], num_epochs=1, shuffle=False)
    reader = tf.TextLineReader(skip_header_lines=1)
    key, line = reader.read(filename_queue)
    sepal_length, sepal_width, species, name = tf.decode_csv(
        line, record_defaults=[[0.0], [-1.0], [-1], ['unknown']], na_value='NA')
    features = tf.stack([sepal_length, sepal_width])
    return tf.train.batch([key, features, species, name], batch_size=2, num_threads=1,
                          capacity=8, allow_smaller_final_batch=True)


def kernel_message(error):
    lines = error.message.splitlines()
    for i, line in enumerate(lines):
        if line.startswith('Node: '):
            return lines[i + 1]
    return lines[0]


def run_until_done(sess, fetches, show):
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    step = 0
    try:
        while not coord.should_stop():
            show(step, sess.run(fetches))
            step += 1
    except tf.errors.OutOfRangeError:
        print('Done: %d batches.' % step)
    finally:
        coord.request_stop()
    coord.join(threads)


def show_cifar(step, values):
    images, labels, keys, pixel_sums = values
    print('batch %d: labels %s' % (step, labels.tolist()))
    print('  keys %s' % [os.path.basename(k.decode()) for k in keys])
    print('  pixel sums %s' % pixel_sums.tolist())
    print('  image shape %s, min %.7g, max %.7g, first %.7g' % (
        images.shape, images.min(), images.max(), images[0, 0, 0, 0]))


def show_csv(step, values):
    keys, features, species, names = values
    print('csv batch %d: keys %s' % (step, [os.path.basename(k.decode()) for k in keys]))
    print('  features %s species %s names %s' % (features.tolist(), species.tolist(),
                                                 [n.decode() for n in names]))


def main():
    directory = tempfile.mkdtemp()
    try:
        filenames = write_data_batches(directory, np.random.RandomState(10))
        csv_path = os.path.join(directory, 'iris.csv')
        with open(csv_path, 'w') as f:
            f.write(CSV_TEXT)

        images, labels, keys, pixel_sums, reader = inputs(filenames, BATCH_SIZE)
        csv_batch = csv_inputs(csv_path)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            run_until_done(sess, [images, labels, keys, pixel_sums], show_cifar)
            print('records produced %d, files completed %d' % tuple(
                sess.run([reader.num_records_produced(), reader.num_work_units_completed()])))

        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            run_until_done(sess, csv_batch, show_csv)

        summary_path = os.path.join(directory, 'out', 'summary.txt')
        contents = tf.read_file(csv_path)
        write = tf.write_file(summary_path, 'rows: five')
        whole_queue = tf.train.string_input_producer([csv_path, summary_path], num_epochs=1,
                                                     shuffle=False)
        whole_key, whole_value = tf.WholeFileReader().read(whole_queue)
        row = tf.placeholder(tf.string, [None])
        decoded = tf.decode_csv(row, record_defaults=[tf.constant([], tf.float32), [0]])
        with tf.Session() as sess:
            text = sess.run(contents)
            print('read_file: %d bytes, first line %r' % (len(text), text.split(b'\n')[0]))
            sess.run(write)
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            for _ in range(2):
                key, value = sess.run([whole_key, whole_value])
                print('whole file %s: %d bytes, ends %r' % (os.path.basename(key.decode()),
                                                            len(value), value[-6:]))
            coord.request_stop()
            coord.join(threads)
            print('decode_csv:', [v.tolist() for v in sess.run(decoded, {row: ['1.5,2',
                                                                                  ' 3 ,4']})])
            for bad in (['1.5,x'], ['1.5'], ['"open,1'], [',2']):
                try:
                    sess.run(decoded, {row: bad})
                except tf.errors.InvalidArgumentError as e:
                    print('decode_csv %r: %s' % (bad[0], kernel_message(e)))
    finally:
        shutil.rmtree(directory)


if __name__ == '__main__':
    main()
