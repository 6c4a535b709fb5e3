"""A TF 1.x GAN in the style of the 2016-17 example collections: generator and discriminator
as plain functions over a dict of tf.Variable weights (glorot_init from tf.random_normal),
the discriminator applied to real and generated samples, losses written out with tf.log,
two AdamOptimizers each given its own var_list, alternating runs fed with NumPy noise.
The real data are points of a 1-D Gaussian (mean 4, stddev 0.5), as in "GANs in 50 lines";
every 100 steps it prints both losses and what the generator's samples look like."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

NUM_STEPS, BATCH_SIZE, LEARNING_RATE = 600, 32, 0.002
DATA_DIM, HIDDEN_DIM, NOISE_DIM = 1, 16, 4
MU, SIGMA = 4.0, 0.5

tf.set_random_seed(1)  # before the weights below: their initial values come from it


def glorot_init(shape):
    return tf.random_normal(shape=shape, stddev=1. / tf.sqrt(shape[0] / 2.))


weights = {
    'gen_hidden1': tf.Variable(glorot_init([NOISE_DIM, HIDDEN_DIM])),
    'gen_out': tf.Variable(glorot_init([HIDDEN_DIM, DATA_DIM])),
    'disc_hidden1': tf.Variable(glorot_init([DATA_DIM, HIDDEN_DIM])),
    'disc_out': tf.Variable(glorot_init([HIDDEN_DIM, 1])),
}
biases = {
    'gen_hidden1': tf.Variable(tf.zeros([HIDDEN_DIM])),
    'gen_out': tf.Variable(tf.zeros([DATA_DIM])),
    'disc_hidden1': tf.Variable(tf.zeros([HIDDEN_DIM])),
    'disc_out': tf.Variable(tf.zeros([1])),
}


def generator(x):
    hidden_layer = tf.matmul(x, weights['gen_hidden1'])
    hidden_layer = tf.add(hidden_layer, biases['gen_hidden1'])
    hidden_layer = tf.nn.relu(hidden_layer)
    out_layer = tf.matmul(hidden_layer, weights['gen_out'])
    out_layer = tf.add(out_layer, biases['gen_out'])
    return out_layer


def discriminator(x):
    hidden_layer = tf.matmul(x, weights['disc_hidden1'])
    hidden_layer = tf.add(hidden_layer, biases['disc_hidden1'])
    hidden_layer = tf.nn.tanh(hidden_layer)
    out_layer = tf.matmul(hidden_layer, weights['disc_out'])
    out_layer = tf.add(out_layer, biases['disc_out'])
    out_layer = tf.nn.sigmoid(out_layer)
    return out_layer


def main():
    rng = np.random.RandomState(1)
    gen_input = tf.placeholder(tf.float32, shape=[None, NOISE_DIM], name='input_noise')
    disc_input = tf.placeholder(tf.float32, shape=[None, DATA_DIM], name='disc_input')

    # The data are normalised as the examples did: (x - 4) / 2 in, the inverse out.
    gen_sample = generator(gen_input)
    disc_real = discriminator(disc_input)
    disc_fake = discriminator(gen_sample)

    gen_loss = -tf.reduce_mean(tf.log(disc_fake + 1e-8))
    disc_loss = -tf.reduce_mean(tf.log(disc_real + 1e-8) + tf.log(1. - disc_fake + 1e-8))

    optimizer_gen = tf.train.AdamOptimizer(learning_rate=LEARNING_RATE)
    optimizer_disc = tf.train.AdamOptimizer(learning_rate=LEARNING_RATE)
    gen_vars = [weights['gen_hidden1'], weights['gen_out'],
                biases['gen_hidden1'], biases['gen_out']]
    disc_vars = [weights['disc_hidden1'], weights['disc_out'],
                 biases['disc_hidden1'], biases['disc_out']]
    train_gen = optimizer_gen.minimize(gen_loss, var_list=gen_vars)
    train_disc = optimizer_disc.minimize(disc_loss, var_list=disc_vars)
    print('slots:', sorted(v.op.name for v in tf.global_variables()
                           if 'Adam' in v.op.name)[:6])

    init = tf.global_variables_initializer()
    with tf.Session() as sess:
        sess.run(init)
        for i in range(1, NUM_STEPS + 1):
            batch_x = (rng.normal(MU, SIGMA, (BATCH_SIZE, DATA_DIM)) - MU) / 2.0
            z = rng.uniform(-1., 1., size=[BATCH_SIZE, NOISE_DIM])
            feed_dict = {disc_input: batch_x, gen_input: z}
            # One run each, discriminator first: in one run the two Adam updates would race
            # the other network's backprop for the shared weights.
            _, dl = sess.run([train_disc, disc_loss], feed_dict=feed_dict)
            _, gl = sess.run([train_gen, gen_loss], feed_dict=feed_dict)
            if i % 100 == 0 or i == 1:
                print('Step %i: Generator Loss: %f, Discriminator Loss: %f' % (i, gl, dl))

        z = rng.uniform(-1., 1., size=[1000, NOISE_DIM])
        samples = sess.run(gen_sample, feed_dict={gen_input: z}) * 2.0 + MU
        print('generated mean %.3f stddev %.3f' % (samples.mean(), samples.std()))
        print('histogram', np.histogram(samples, bins=8, range=(2.0, 6.0))[0].tolist())
        grid = np.linspace(2.0, 6.0, 5).reshape(-1, 1)
        belief = sess.run(disc_real, {disc_input: (grid - MU) / 2.0})[:, 0]
        print('D(x) on 2..6:', ' '.join('%.4f' % p for p in belief))


if __name__ == '__main__':
    main()
