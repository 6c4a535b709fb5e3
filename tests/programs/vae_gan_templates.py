"""A VAE-GAN (Larsen et al. 2016) in TF 1.x idioms of 2017-2018: the encoder, decoder and
discriminator as tf.make_template functions shared between calls, tf.distributions.Normal with
kl_divergence, the decoder upsampling with tf.layers.conv2d_transpose, a discriminator feature
("learned similarity") loss, separate optimizers per scope with var_list, an
ExponentialMovingAverage of the decoder read back through a variable_scope custom_getter, and
guided-backprop saliency with gradient_override_map on a RegisterGradient'ed ReLU."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

LATENT = 3


def encoder(x):
    h = tf.layers.conv2d(x, 4, 3, strides=2, padding="same", activation=tf.nn.relu)
    h = tf.layers.flatten(h)
    return tf.layers.dense(h, LATENT, name="mu"), tf.layers.dense(h, LATENT, name="log_sigma")


def decoder(z):
    h = tf.layers.dense(z, 4 * 4 * 4, activation=tf.nn.relu)
    h = tf.reshape(h, [-1, 4, 4, 4])
    h = tf.layers.conv2d_transpose(h, 2, 3, strides=2, padding="same", activation=tf.nn.relu)
    return tf.layers.conv2d_transpose(h, 1, 3, strides=1, padding="same",
                                      activation=tf.nn.sigmoid)


def discriminator(x):
    h = tf.layers.conv2d(x, 4, 3, strides=2, padding="same", activation=tf.nn.leaky_relu)
    features = tf.layers.flatten(h)
    return tf.layers.dense(features, 1), features


@tf.RegisterGradient("GuidedRelu")
def _guided_relu_grad(op, grad):
    return tf.where(0.0 < grad, grad * tf.cast(op.outputs[0] > 0.0, grad.dtype),
                    tf.zeros_like(grad))


def main():
    tf.reset_default_graph()
    tf.set_random_seed(31)
    rng = np.random.RandomState(8)
    images = (rng.rand(8, 8, 8, 1) > 0.6).astype(np.float32)
    encode = tf.make_template("encoder", encoder)
    decode = tf.make_template("decoder", decoder)
    discriminate = tf.make_template("discriminator", discriminator)
    x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
    mu, log_sigma = encode(x)
    posterior = tf.distributions.Normal(loc=mu, scale=tf.exp(log_sigma))
    prior = tf.distributions.Normal(loc=tf.zeros_like(mu), scale=tf.ones_like(mu))
    z = posterior.sample(seed=5)
    kl = tf.reduce_mean(tf.reduce_sum(tf.distributions.kl_divergence(posterior, prior), 1))
    reconstruction = decode(z)
    sampled = decode(prior.sample(seed=6))
    real_logit, real_features = discriminate(x)
    recon_logit, recon_features = discriminate(reconstruction)
    fake_logit, _ = discriminate(sampled)
    print("shapes", reconstruction.shape, sampled.shape, real_features.shape)
    print("template variables", [v.name for v in tf.trainable_variables()][:6])
    similarity = tf.reduce_mean(tf.square(real_features - recon_features))
    xent = tf.nn.sigmoid_cross_entropy_with_logits
    d_loss = tf.reduce_mean(xent(labels=tf.ones_like(real_logit), logits=real_logit)
                            + xent(labels=tf.zeros_like(recon_logit), logits=recon_logit)
                            + xent(labels=tf.zeros_like(fake_logit), logits=fake_logit))
    g_loss = tf.reduce_mean(xent(labels=tf.ones_like(recon_logit), logits=recon_logit)
                            + xent(labels=tf.ones_like(fake_logit), logits=fake_logit))
    log_prob = tf.reduce_mean(posterior.log_prob(z))
    enc_vars = tf.trainable_variables("encoder")
    dec_vars = tf.trainable_variables("decoder")
    dis_vars = tf.trainable_variables("discriminator")
    train_enc = tf.train.AdamOptimizer(1e-3).minimize(kl + similarity, var_list=enc_vars)
    train_dec = tf.train.AdamOptimizer(1e-3).minimize(similarity + 0.1 * g_loss,
                                                      var_list=dec_vars)
    train_dis = tf.train.AdamOptimizer(1e-3).minimize(d_loss, var_list=dis_vars)
    ema = tf.train.ExponentialMovingAverage(0.9)
    with tf.control_dependencies([train_dec]):
        train_dec = ema.apply(dec_vars)

    def ema_getter(getter, name, *args, **kwargs):
        var = getter(name, *args, **kwargs)
        return ema.average(var)

    with tf.variable_scope("decoder", reuse=True, custom_getter=ema_getter):
        averaged = decoder(tf.zeros([1, LATENT]))

    graph = tf.get_default_graph()
    with graph.gradient_override_map({"Relu": "GuidedRelu"}):
        guided = tf.nn.relu(x - 0.5)
    saliency = tf.gradients(tf.reduce_sum(guided * tf.cos(x * 3.0)), x)[0]
    plain = tf.gradients(tf.reduce_sum(tf.nn.relu(x - 0.5) * tf.cos(x * 3.0)), x)[0]

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(6):
            feed = {x: images}
            k, s, d, g, lp, _, _, _ = sess.run([kl, similarity, d_loss, g_loss, log_prob,
                                                train_enc, train_dec, train_dis], feed)
            if step % 2 == 0:
                print("step %d kl %.5f sim %.5f d %.5f g %.5f logp %.4f" % (step, k, s, d, g, lp))
        print("ema vars", sorted(v.name for v in tf.global_variables()
                                 if "ExponentialMovingAverage" in v.name)[:3])
        print("averaged decode %.6f" % sess.run(averaged).mean(),
              "raw decode %.6f" % sess.run(decode(tf.zeros([1, LATENT]))).mean())
        sal, pl = sess.run([saliency, plain], {x: images[:1] * 0.8 + 0.1})
        print("guided", np.round(sal[0, :2, :3, 0], 4).tolist())
        print("plain", np.round(pl[0, :2, :3, 0], 4).tolist())


if __name__ == "__main__":
    main()
