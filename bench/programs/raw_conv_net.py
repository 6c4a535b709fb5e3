"""A raw TensorFlow conv net as the 2016 examples wrote it (convolutional_network_raw): conv2d
with bias_add and relu helpers, k=2 max pooling, two 5x5 conv layers of 32 and 64 filters, a
1024-unit dense layer with dropout at 0.75, Adam at 1e-3 on batches of 128, loss and accuracy
every 10 steps; synthetic 28x28 images stand in for MNIST. The training loop is cut to STEPS
steps; it prints the compute seconds, wall and CPU.
`python raw_conv_net.py [STEPS [INTRA_OP_THREADS]]`"""

import sys
import time

import numpy as np

import engine as tf

WARM_UP = 5  # steps before the steady-state clock starts

learning_rate = 0.001
batch_size = 128
display_step = 10
num_input = 784
num_classes = 10
dropout = 0.75


def conv2d(x, W, b, strides=1):
    x = tf.nn.conv2d(x, W, strides=[1, strides, strides, 1], padding='SAME')
    x = tf.nn.bias_add(x, b)
    return tf.nn.relu(x)


def maxpool2d(x, k=2):
    return tf.nn.max_pool(x, ksize=[1, k, k, 1], strides=[1, k, k, 1], padding='SAME')


def conv_net(x, weights, biases, dropout):
    x = tf.reshape(x, shape=[-1, 28, 28, 1])
    conv1 = maxpool2d(conv2d(x, weights['wc1'], biases['bc1']), k=2)
    conv2 = maxpool2d(conv2d(conv1, weights['wc2'], biases['bc2']), k=2)
    fc1 = tf.reshape(conv2, [-1, weights['wd1'].get_shape().as_list()[0]])
    fc1 = tf.nn.relu(tf.add(tf.matmul(fc1, weights['wd1']), biases['bd1']))
    fc1 = tf.nn.dropout(fc1, dropout)
    return tf.add(tf.matmul(fc1, weights['out']), biases['out'])


def main(steps=20):
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    images = rng.uniform(0, 1, (batch_size * 2, num_input)).astype(np.float32)
    labels = np.eye(num_classes, dtype=np.float32)[rng.randint(0, 10, batch_size * 2)]
    X = tf.placeholder(tf.float32, [None, num_input])
    Y = tf.placeholder(tf.float32, [None, num_classes])
    keep_prob = tf.placeholder(tf.float32)
    weights = {
        'wc1': tf.Variable(tf.random_normal([5, 5, 1, 32])),
        'wc2': tf.Variable(tf.random_normal([5, 5, 32, 64])),
        'wd1': tf.Variable(tf.random_normal([7 * 7 * 64, 1024])),
        'out': tf.Variable(tf.random_normal([1024, num_classes]))
    }
    biases = {
        'bc1': tf.Variable(tf.random_normal([32])),
        'bc2': tf.Variable(tf.random_normal([64])),
        'bd1': tf.Variable(tf.random_normal([1024])),
        'out': tf.Variable(tf.random_normal([num_classes]))
    }
    logits = conv_net(X, weights, biases, keep_prob)
    prediction = tf.nn.softmax(logits)
    loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
    train_op = tf.train.AdamOptimizer(learning_rate=learning_rate).minimize(loss_op)
    correct_pred = tf.equal(tf.argmax(prediction, 1), tf.argmax(Y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))
    init = tf.global_variables_initializer()
    config = tf.ConfigProto(intra_op_parallelism_threads=int(sys.argv[2]) if len(sys.argv) > 2
                            else 0, inter_op_parallelism_threads=1)
    with tf.Session(config=config) as sess:
        sess.run(init)
        start, cpu = time.perf_counter(), time.process_time()
        steady = None
        for step in range(1, steps + 1):
            if step == WARM_UP + 1:
                steady = time.perf_counter(), time.process_time()
            at = (step % 2) * batch_size
            batch_x, batch_y = images[at:at + batch_size], labels[at:at + batch_size]
            sess.run(train_op, feed_dict={X: batch_x, Y: batch_y, keep_prob: dropout})
            if step % display_step == 0 or step == 1:
                loss, acc = sess.run([loss_op, accuracy],
                                     feed_dict={X: batch_x, Y: batch_y, keep_prob: 1.0})
                print("Step " + str(step) + ", Minibatch Loss= " + "{:.4f}".format(loss)
                      + ", Training Accuracy= " + "{:.3f}".format(acc))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        steady = (time.perf_counter() - steady[0], time.process_time() - steady[1]) if steady \
            else (0.0, 0.0)
    print(f"steps {steps} seconds {seconds:.3f} cpu {cpu:.3f} "
          f"after {WARM_UP} seconds {steady[0]:.3f} cpu {steady[1]:.3f}")
    return seconds


if __name__ == '__main__':
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
