"""A TF 1.x convolutional autoencoder, as the 2016 tutorials built it by hand: an encoder of
tf.nn.conv2d layers with stride 2 (weights from tf.random_uniform scaled by fan-in, leaky
ReLU as tf.maximum(0.2 * x, x)), a decoder of tf.nn.conv2d_transpose layers reusing the
encoder's weights in reverse with output_shape taken from tf.shape at run time, a mean
squared reconstruction cost minimised with Adam, on small synthetic images of bars and
blobs; then a denoising pass, the code's size and a few reconstructed pixels."""
# fixture threads: 1 2 4
import math

import numpy as np

import engine as tf

SIZE, BATCH, EPOCHS = 12, 16, 8


def make_images(rng, count):
    """Each image is a bright horizontal or vertical bar and a blob, plus a little noise."""
    images = np.zeros((count, SIZE, SIZE), np.float32)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    for image in images:
        position = rng.randint(2, SIZE - 2)
        if rng.rand() < 0.5:
            image[position - 1:position + 1, :] = 1.0
        else:
            image[:, position - 1:position + 1] = 1.0
        cy, cx = rng.uniform(2, SIZE - 2, 2)
        image += np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 4.0).astype(np.float32)
    images += rng.normal(0.0, 0.05, images.shape).astype(np.float32)
    return np.clip(images, 0.0, 1.0).reshape(count, SIZE * SIZE)


def lrelu(x, leak=0.2, name='lrelu'):
    with tf.variable_scope(name):
        return tf.maximum(x, leak * x)


def autoencoder(input_shape=(None, SIZE * SIZE), n_filters=(1, 6, 8), filter_sizes=(3, 3)):
    x = tf.placeholder(tf.float32, input_shape, name='x')
    x_tensor = tf.reshape(x, [-1, SIZE, SIZE, 1])
    current_input = x_tensor

    encoder = []
    shapes = []
    for layer_i, n_output in enumerate(n_filters[1:]):
        n_input = current_input.get_shape().as_list()[3]
        shapes.append(current_input.get_shape().as_list())
        W = tf.Variable(
            tf.random_uniform([filter_sizes[layer_i], filter_sizes[layer_i], n_input, n_output],
                              -1.0 / math.sqrt(n_input), 1.0 / math.sqrt(n_input)))
        b = tf.Variable(tf.zeros([n_output]))
        encoder.append(W)
        output = lrelu(tf.add(tf.nn.conv2d(current_input, W, strides=[1, 2, 2, 1],
                                           padding='SAME'), b))
        current_input = output

    z = current_input
    encoder.reverse()
    shapes.reverse()

    for layer_i, shape in enumerate(shapes):
        W = encoder[layer_i]
        b = tf.Variable(tf.zeros([W.get_shape().as_list()[2]]))
        output = lrelu(tf.add(
            tf.nn.conv2d_transpose(
                current_input, W,
                tf.stack([tf.shape(x)[0], shape[1], shape[2], shape[3]]),
                strides=[1, 2, 2, 1], padding='SAME'), b))
        current_input = output

    y = current_input
    cost = tf.reduce_mean(tf.square(y - x_tensor))
    return {'x': x, 'z': z, 'y': y, 'cost': cost}


def main():
    rng = np.random.RandomState(7)
    train = make_images(rng, 96)
    test = make_images(rng, 8)
    mean_img = np.mean(train, axis=0)
    print('train', train.shape, 'mean pixel %.4f' % mean_img.mean())

    tf.set_random_seed(0)
    ae = autoencoder()
    print('z', ae['z'].get_shape(), 'y', ae['y'].get_shape())
    learning_rate = 0.01
    optimizer = tf.train.AdamOptimizer(learning_rate).minimize(ae['cost'])

    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    for epoch_i in range(EPOCHS):
        order = rng.permutation(len(train))
        for batch_i in range(len(train) // BATCH):
            batch_xs = train[order[batch_i * BATCH:(batch_i + 1) * BATCH]]
            train_batch = np.array([img - mean_img for img in batch_xs])
            sess.run(optimizer, feed_dict={ae['x']: train_batch})
        print(epoch_i, sess.run(ae['cost'], feed_dict={ae['x']: train_batch}))

    test_norm = np.array([img - mean_img for img in test])
    recon, code = sess.run([ae['y'], ae['z']], feed_dict={ae['x']: test_norm})
    print('test cost %.6f' % sess.run(ae['cost'], feed_dict={ae['x']: test_norm}))
    print('code', code.shape, 'nonzero fraction %.4f' % np.mean(code > 0))
    print('reconstructed row 6 of image 0:',
          ' '.join('%.3f' % v for v in recon[0, 6, :, 0] + mean_img.reshape(SIZE, SIZE)[6]))
    noisy = np.clip(test + rng.normal(0.0, 0.2, test.shape), 0.0, 1.0).astype(np.float32)
    print('noisy input cost %.6f' % sess.run(ae['cost'], feed_dict={ae['x']: noisy - mean_img}))
    sess.close()


if __name__ == '__main__':
    main()
