"""A TF 1.x VAE of 2017: a dense encoder to a diagonal tf.distributions.Normal, a
reparameterised sample (loc + scale * seeded noise), a Bernoulli decoder's log_prob, the KL to
the prior by tf.distributions.kl_divergence; RMSProp with a piecewise_constant learning rate,
an ExponentialMovingAverage of the weights applied after each step, tf.summary scalars and a
histogram through a FileWriter, then Saver save, list_variables and restore."""
# fixture threads: 1 2 4
import os
import shutil
import tempfile

import numpy as np

import engine as tf

DIM, LATENT, HIDDEN = 20, 3, 16


def main():
    tf.reset_default_graph()
    tf.set_random_seed(3)
    rng = np.random.RandomState(1)
    data = (rng.uniform(size=(64, DIM)) < np.linspace(0.1, 0.9, DIM)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, DIM], name="x")
    with tf.variable_scope("encoder"):
        h = tf.layers.dense(x, HIDDEN, activation=tf.nn.softplus)
        loc = tf.layers.dense(h, LATENT)
        scale = tf.nn.softplus(tf.layers.dense(h, LATENT)) + 1e-4
    posterior = tf.distributions.Normal(loc=loc, scale=scale)
    prior = tf.distributions.Normal(loc=tf.zeros(LATENT), scale=tf.ones(LATENT))
    eps = tf.random_normal(tf.shape(loc), seed=4)
    code = loc + scale * eps
    with tf.variable_scope("decoder"):
        h = tf.layers.dense(code, HIDDEN, activation=tf.nn.softplus)
        logits = tf.layers.dense(h, DIM)
    likelihood = tf.distributions.Bernoulli(logits=logits)
    log_lik = tf.reduce_sum(likelihood.log_prob(x), axis=1)
    kl = tf.reduce_sum(tf.distributions.kl_divergence(posterior, prior), axis=1)
    elbo = tf.reduce_mean(log_lik - kl)
    global_step = tf.train.get_or_create_global_step()
    lr = tf.train.piecewise_constant(global_step, [10, 20], [0.01, 0.005, 0.001])
    opt = tf.train.RMSPropOptimizer(lr)
    train = opt.minimize(-elbo, global_step=global_step)
    ema = tf.train.ExponentialMovingAverage(0.9, num_updates=global_step)
    with tf.control_dependencies([train]):
        train_op = ema.apply(tf.trainable_variables())
    tf.summary.scalar("elbo", elbo)
    tf.summary.scalar("kl", tf.reduce_mean(kl))
    tf.summary.histogram("code", code)
    merged = tf.summary.merge_all()
    saver = tf.train.Saver(max_to_keep=2)
    logdir = tempfile.mkdtemp()
    try:
        with tf.Session() as sess:
            writer = tf.summary.FileWriter(logdir, sess.graph)
            sess.run(tf.global_variables_initializer())
            for i in range(25):
                batch = data[(i * 16) % 64:(i * 16) % 64 + 16]
                e, k, s, _ = sess.run([elbo, tf.reduce_mean(kl), merged, train_op], {x: batch})
                writer.add_summary(s, i)
                if i % 5 == 0:
                    print("step %d elbo %.5f kl %.5f lr %.4f" % (i, e, k, sess.run(lr)))
            writer.close()
            path = saver.save(sess, os.path.join(logdir, "vae.ckpt"), global_step=global_step)
            print("saved", os.path.basename(path))
            before = sess.run(elbo, {x: data})
            print("mean std", np.round(sess.run(posterior.stddev(), {x: data[:2]}), 5).tolist())
            print("entropy", np.round(sess.run(posterior.entropy(), {x: data[:1]}), 5).tolist())
            print("ema kernel", np.round(sess.run(ema.average(tf.trainable_variables()[0]))[0, :3],
                                         5).tolist())
        names = sorted(n for n, _ in tf.train.list_variables(logdir))
        print("checkpoint", len(names), names[:4])
        with tf.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(logdir))
            print("restored step", sess.run(global_step), "elbo same",
                  abs(sess.run(elbo, {x: data}) - before) < 0.5)
        events = [f for f in os.listdir(logdir) if f.startswith("events.out")]
        print("event files", len(events))
    finally:
        shutil.rmtree(logdir)


if __name__ == "__main__":
    main()
