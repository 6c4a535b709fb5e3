"""TensorFlow's "Deep MNIST for experts" tutorial network (mnist_deep.py): two 5x5 conv layers
of 32 and 64 filters with 2x2 max pooling, a 1024-unit dense layer with dropout, a softmax
layer, Adam at 1e-4 on batches of 50; synthetic 28x28 images stand in for MNIST. The training
loop is cut to STEPS steps; it prints the compute seconds, wall and CPU (the graph built and the
variables initialised before the clock starts, as the import is).
`python mnist_deep_cnn.py [STEPS [INTRA_OP_THREADS]]`"""

import sys
import time

import numpy as np

import engine as tf

WARM_UP = 5  # steps before the steady-state clock starts

BATCH = 50


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')


def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')


def deepnn(x):
    x_image = tf.reshape(x, [-1, 28, 28, 1])
    h_conv1 = tf.nn.relu(conv2d(x_image, weight_variable([5, 5, 1, 32])) + bias_variable([32]))
    h_pool1 = max_pool_2x2(h_conv1)
    h_conv2 = tf.nn.relu(conv2d(h_pool1, weight_variable([5, 5, 32, 64])) + bias_variable([64]))
    h_pool2 = max_pool_2x2(h_conv2)
    h_pool2_flat = tf.reshape(h_pool2, [-1, 7 * 7 * 64])
    h_fc1 = tf.nn.relu(tf.matmul(h_pool2_flat, weight_variable([7 * 7 * 64, 1024]))
                       + bias_variable([1024]))
    keep_prob = tf.placeholder(tf.float32)
    h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)
    y_conv = tf.matmul(h_fc1_drop, weight_variable([1024, 10])) + bias_variable([10])
    return y_conv, keep_prob


def main(steps=20):
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    images = rng.uniform(0, 1, (BATCH * 4, 784)).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, BATCH * 4)]
    x = tf.placeholder(tf.float32, [None, 784])
    y_ = tf.placeholder(tf.float32, [None, 10])
    y_conv, keep_prob = deepnn(x)
    cross_entropy = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
    train_step = tf.train.AdamOptimizer(1e-4).minimize(cross_entropy)
    correct_prediction = tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    config = tf.ConfigProto(intra_op_parallelism_threads=int(sys.argv[2]) if len(sys.argv) > 2
                            else 0, inter_op_parallelism_threads=1)
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        start, cpu = time.perf_counter(), time.process_time()
        steady = None
        for i in range(steps):
            if i == WARM_UP:
                steady = time.perf_counter(), time.process_time()
            at = (i % 4) * BATCH
            feed = {x: images[at:at + BATCH], y_: labels[at:at + BATCH]}
            if i % 10 == 0:
                train_accuracy = accuracy.eval(feed_dict={**feed, keep_prob: 1.0})
                print('step %d, training accuracy %g' % (i, train_accuracy))
            train_step.run(feed_dict={**feed, keep_prob: 0.5})
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        steady = (time.perf_counter() - steady[0], time.process_time() - steady[1]) if steady \
            else (0.0, 0.0)
    print(f"steps {steps} seconds {seconds:.3f} cpu {cpu:.3f} "
          f"after {WARM_UP} seconds {steady[0]:.3f} cpu {steady[1]:.3f}")
    return seconds


if __name__ == '__main__':
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
