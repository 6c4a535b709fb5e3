"""Advantage actor-critic (A2C, Mnih et al. 2016, synchronous) in TF 1.x on a small corridor
world, as the 2017 OpenAI-baselines-style tutorials built it: shared hidden layer, a policy
head as tf.distributions.Categorical (sample, log_prob, entropy), a value head, n-step
discounted returns computed in NumPy, the policy-gradient, value and entropy losses summed,
gradients clipped by global norm, RMSProp; actions sampled in the graph with seeds."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

N_STATES, N_ACTIONS, GAMMA = 6, 2, 0.9


def step_env(state, action):
    nxt = min(state + 1, N_STATES - 1) if action == 1 else max(state - 1, 0)
    done = nxt == N_STATES - 1
    return nxt, (1.0 if done else -0.05), done


def main():
    tf.reset_default_graph()
    tf.set_random_seed(77)
    states = tf.placeholder(tf.int32, [None], name="states")
    actions = tf.placeholder(tf.int32, [None], name="actions")
    returns = tf.placeholder(tf.float32, [None], name="returns")
    h = tf.layers.dense(tf.one_hot(states, N_STATES), 16, activation=tf.nn.relu, name="shared")
    logits = tf.layers.dense(h, N_ACTIONS, name="policy")
    value = tf.squeeze(tf.layers.dense(h, 1, name="value"), axis=1)
    dist = tf.distributions.Categorical(logits=logits)
    sampled = dist.sample(seed=3)
    greedy = tf.argmax(logits, 1)
    also_sampled = tf.multinomial(logits, 1, seed=5)
    advantage = returns - value
    pg_loss = -tf.reduce_mean(dist.log_prob(actions) * tf.stop_gradient(advantage))
    vf_loss = tf.reduce_mean(tf.square(advantage)) * 0.5
    entropy = tf.reduce_mean(dist.entropy())
    loss = pg_loss + 0.5 * vf_loss - 0.01 * entropy
    params = tf.trainable_variables()
    grads, norm = tf.clip_by_global_norm(tf.gradients(loss, params), 0.5)
    train = tf.train.RMSPropOptimizer(7e-3, decay=0.99, epsilon=1e-5).apply_gradients(
        zip(grads, params))
    print("sample", sampled.get_shape().as_list(), sampled.dtype.name,
          "log_prob", dist.log_prob(actions).dtype.name)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        state, episode_reward, rewards_seen = 0, 0.0, []
        for update in range(30):
            batch_s, batch_a, batch_r, dones = [], [], [], []
            for _ in range(5):
                action = sess.run(sampled, {states: [state]})[0]
                nxt, reward, done = step_env(state, action)
                batch_s.append(state)
                batch_a.append(action)
                batch_r.append(reward)
                dones.append(done)
                episode_reward += reward
                state = 0 if done else nxt
                if done:
                    rewards_seen.append(round(episode_reward, 2))
                    episode_reward = 0.0
            bootstrap = 0.0 if dones[-1] else sess.run(value, {states: [state]})[0]
            target, discounted = bootstrap, []
            for r, d in zip(batch_r[::-1], dones[::-1]):
                target = r + GAMMA * target * (1.0 - d)
                discounted.append(target)
            feed = {states: batch_s, actions: batch_a, returns: discounted[::-1]}
            l, e, gn, _ = sess.run([loss, entropy, norm, train], feed)
            if update % 6 == 0:
                print("update %2d loss %.5f entropy %.5f grad norm %.5f actions %s" % (
                    update, l, e, gn, batch_a))
        print("episode rewards", rewards_seen)
        everywhere = list(range(N_STATES))
        print("greedy policy", sess.run(greedy, {states: everywhere}).tolist())
        print("values", np.round(sess.run(value, {states: everywhere}), 4).tolist())
        print("multinomial", sess.run(also_sampled, {states: everywhere})[:, 0].tolist())


if __name__ == "__main__":
    main()
