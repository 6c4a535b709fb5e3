"""Bayesian rate models in TF 1.x with tf.distributions, as 2017-2018 tutorials wrote them: a
Beta-Bernoulli posterior for a click-through rate (conjugate update, posterior mean, interval
by cdf, KL from the prior, seeded posterior draws), a Gamma model of waiting times fitted by
maximising log_prob with Adam (softplus-parametrised concentration and rate, data drawn in the
graph by a seeded Gamma), an Exponential's survival, a Dirichlet posterior over a die's faces
with KL(Dirichlet || Dirichlet), and a Student-t likelihood for a robust location fit."""
import numpy as np

import engine as tf


def main():
    tf.reset_default_graph()
    tf.set_random_seed(2018)
    d = tf.distributions

    clicks = tf.placeholder(tf.float32, [None], name="clicks")
    prior = d.Beta(2.0, 8.0, name="ctr_prior")
    heads = tf.reduce_sum(clicks)
    tails = tf.cast(tf.size(clicks), tf.float32) - heads
    posterior = d.Beta(prior.concentration1 + heads, prior.concentration0 + tails,
                       name="ctr_posterior")
    ctr_stats = [posterior.mean(), posterior.stddev(), posterior.mode(),
                 posterior.cdf(0.1), posterior.cdf(0.3), d.kl_divergence(posterior, prior),
                 posterior.log_prob(0.2)]
    ctr_draws = posterior.sample(4, seed=1)

    true_waits = d.Gamma(3.0, 1.5, name="truth").sample(200, seed=2)
    raw_concentration = tf.Variable(0.0, name="raw_concentration")
    raw_rate = tf.Variable(0.0, name="raw_rate")
    model = d.Gamma(tf.nn.softplus(raw_concentration) + 1e-3, tf.nn.softplus(raw_rate),
                    name="waiting_model")
    waits = tf.Variable(tf.zeros([200]), trainable=False, name="waits")
    load = tf.assign(waits, true_waits)
    nll = -tf.reduce_mean(model.log_prob(waits))
    train = tf.train.AdamOptimizer(0.05).minimize(nll)
    expo = d.Exponential(rate=1.0 / tf.reduce_mean(waits), name="memoryless")
    survival = [expo.survival_function([1.0, 2.0, 4.0]), expo.log_prob([0.5, 3.0])]

    faces = tf.constant([3.0, 7.0, 5.0, 4.0, 6.0, 11.0])
    die_prior = d.Dirichlet(tf.ones([6]), name="die_prior")
    die_posterior = d.Dirichlet(die_prior.concentration + faces, name="die_posterior")
    die_stats = [die_posterior.mean(), die_posterior.entropy(),
                 d.kl_divergence(die_posterior, die_prior),
                 die_posterior.log_prob(tf.fill([6], 1.0 / 6.0))]

    data = tf.constant([0.3, -0.1, 0.2, 0.5, 9.0, 0.1, -0.4, 0.25], name="with_outlier")
    location = tf.Variable(2.0, name="location")
    robust = d.StudentT(df=2.0, loc=location, scale=0.5, name="robust")
    robust_loss = -tf.reduce_sum(robust.log_prob(data))
    fit_location = tf.train.GradientDescentOptimizer(0.02).minimize(robust_loss)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        observed = np.array([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], np.float32)
        stats = sess.run(ctr_stats, {clicks: observed})
        print("ctr posterior mean %.5f sd %.5f mode %.5f" % tuple(stats[:3]))
        print("ctr P(<0.1) %.5f P(<0.3) %.5f KL %.5f log_prob(0.2) %.5f" % tuple(stats[3:]))
        print("ctr draws", np.round(sess.run(ctr_draws, {clicks: observed}), 5))
        sess.run(load)
        print("waits mean %.4f var %.4f" % (sess.run(tf.reduce_mean(waits)),
                                            sess.run(tf.reduce_mean(tf.square(
                                                waits - tf.reduce_mean(waits))))))
        for step in range(301):
            loss, _ = sess.run([nll, train])
            if step % 75 == 0:
                print("step %3d nll %.5f" % (step, loss))
        fitted = sess.run([model.concentration, model.rate, model.mean(), model.mode()])
        print("fitted concentration %.4f rate %.4f mean %.4f mode %.4f" % tuple(fitted))
        print("exponential survival", np.round(sess.run(survival[0]), 5),
              "log_prob", np.round(sess.run(survival[1]), 5))
        mean, entropy, kl, uniform_lp = sess.run(die_stats)
        print("die posterior mean", np.round(mean, 5))
        print("die entropy %.5f KL %.5f log_prob(uniform) %.5f" % (entropy, kl, uniform_lp))
        for step in range(60):
            sess.run(fit_location)
        print("robust location %.4f (mean %.4f) variance %.4f" % (
            sess.run(location), observed_mean(sess, data), sess.run(robust.variance())))


def observed_mean(sess, data):
    return sess.run(tf.reduce_mean(data))


if __name__ == "__main__":
    main()
