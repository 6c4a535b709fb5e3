"""REINFORCE on a toy bandit-chain (2017 style): a policy MLP, actions drawn with
tf.multinomial, discounted returns with tf.scan (reverse), baseline with tf.foldl, an entropy
bonus, tf.map_fn, tf.boolean_mask, tf.dynamic_partition, tf.unique, tf.gather_nd."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

STATES, ACTIONS, STEPS = 4, 3, 6


def main():
    tf.reset_default_graph()
    tf.set_random_seed(21)
    rng = np.random.RandomState(2)
    states = tf.placeholder(tf.float32, [None, STATES], name="states")
    rewards = tf.placeholder(tf.float32, [None], name="rewards")
    actions = tf.placeholder(tf.int32, [None], name="actions")
    hidden = tf.layers.dense(states, 16, activation=tf.nn.elu, name="h")
    logits = tf.layers.dense(hidden, ACTIONS, name="logits")
    sample = tf.squeeze(tf.multinomial(logits, 1, seed=5), axis=1)
    returns = tf.scan(lambda acc, r: r + 0.9 * acc, rewards, initializer=0.0, reverse=True)
    baseline = tf.foldl(lambda acc, r: acc + r, returns, initializer=0.0) / tf.cast(
        tf.size(returns), tf.float32)
    advantages = tf.map_fn(lambda r: r - baseline, returns)
    log_probs = tf.nn.log_softmax(logits)
    idx = tf.stack([tf.range(tf.shape(actions)[0]), actions], axis=1)
    chosen = tf.gather_nd(log_probs, idx)
    entropy = -tf.reduce_sum(tf.exp(log_probs) * log_probs, axis=1)
    loss = -tf.reduce_mean(chosen * advantages) - 0.01 * tf.reduce_mean(entropy)
    positive = tf.boolean_mask(advantages, advantages > 0)
    parts = tf.dynamic_partition(returns, actions, ACTIONS)
    uniq, uniq_idx = tf.unique(actions)
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for episode in range(8):
            obs = rng.randn(STEPS, STATES).astype(np.float32)
            acts = sess.run(sample, {states: obs})
            rew = (acts == np.argmax(obs[:, :ACTIONS], axis=1)).astype(np.float32)
            feed = {states: obs, actions: acts, rewards: rew}
            l, ret, pos, pr, u, _ = sess.run([loss, returns, positive, parts, uniq, train], feed)
            print("episode %d acts %s loss %.5f return0 %.4f positive %d parts %s uniq %s" % (
                episode, acts.tolist(), l, ret[0], len(pos), [len(p) for p in pr], u.tolist()))


if __name__ == "__main__":
    main()
