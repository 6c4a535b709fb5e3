"""DQN (2015-2018 TF 1.x style) on a tiny chain environment: an online and a target Q-network
under variable scopes, the target refreshed by a group of tf.assign ops copying variables (hard
update) and a soft Polyak update, a NumPy experience-replay buffer, epsilon-greedy actions,
Q(s, a) picked with tf.gather_nd on stacked indices, tf.losses.huber_loss and RMSProp with
gradient clipping by value."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

STATES, ACTIONS, GAMMA = 6, 2, 0.9


def q_network(states, scope):
    with tf.variable_scope(scope):
        h = tf.layers.dense(states, 16, activation=tf.nn.relu, name="hidden")
        return tf.layers.dense(h, ACTIONS, name="q")


def env_step(state, action):
    nxt = min(state + 1, STATES - 1) if action == 1 else max(state - 1, 0)
    reward = 1.0 if nxt == STATES - 1 else -0.05
    return nxt, reward, nxt == STATES - 1


def main():
    tf.reset_default_graph()
    tf.set_random_seed(5)
    rng = np.random.RandomState(11)
    s = tf.placeholder(tf.float32, [None, STATES], name="s")
    a = tf.placeholder(tf.int32, [None], name="a")
    r = tf.placeholder(tf.float32, [None], name="r")
    s2 = tf.placeholder(tf.float32, [None, STATES], name="s2")
    done = tf.placeholder(tf.float32, [None], name="done")
    q = q_network(s, "online")
    q_next = q_network(s2, "target")
    online_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="online")
    target_vars = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="target")
    hard_update = tf.group(*[t.assign(o) for o, t in zip(online_vars, target_vars)],
                           name="hard_update")
    tau = 0.5
    soft_update = tf.group(*[tf.assign(t, tau * o + (1 - tau) * t)
                             for o, t in zip(online_vars, target_vars)])
    indices = tf.stack([tf.range(tf.shape(a)[0]), a], axis=1)
    q_taken = tf.gather_nd(q, indices)
    target = r + GAMMA * (1.0 - done) * tf.stop_gradient(tf.reduce_max(q_next, axis=1))
    loss = tf.losses.huber_loss(target, q_taken, delta=1.0)
    optimizer = tf.train.RMSPropOptimizer(0.01, decay=0.95, epsilon=0.01)
    grads = [(tf.clip_by_value(g, -1.0, 1.0), v)
             for g, v in optimizer.compute_gradients(loss, var_list=online_vars)]
    train = optimizer.apply_gradients(grads)
    greedy = tf.argmax(q, axis=1, output_type=tf.int32)
    print("online", [v.name for v in online_vars])
    print("target", [v.name for v in target_vars])
    print("hard update", hard_update.name, len(hard_update.control_inputs))
    eye = np.eye(STATES, dtype=np.float32)
    buffer, capacity = [], 64
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(hard_update)
        diff = sum(np.abs(x - y).sum() for x, y in zip(*sess.run([online_vars, target_vars])))
        print("after copy %.6f" % diff)
        state, episode_return, returns = 0, 0.0, []
        for t in range(120):
            epsilon = max(0.1, 1.0 - t / 60.0)
            if rng.rand() < epsilon:
                action = rng.randint(ACTIONS)
            else:
                action = int(sess.run(greedy, {s: eye[[state]]})[0])
            nxt, reward, terminal = env_step(state, action)
            buffer.append((state, action, reward, nxt, float(terminal)))
            buffer = buffer[-capacity:]
            episode_return += reward
            state = 0 if terminal else nxt
            if terminal:
                returns.append(round(episode_return, 2))
                episode_return = 0.0
            if len(buffer) >= 16:
                batch = [buffer[i] for i in rng.randint(len(buffer), size=16)]
                bs, ba, br, bs2, bd = map(np.array, zip(*batch))
                l, _ = sess.run([loss, train], {s: eye[bs], a: ba, r: br, s2: eye[bs2],
                                                done: bd})
                if t % 20 == 0:
                    print("t %d loss %.5f eps %.3f" % (t, l, epsilon))
            if t % 30 == 29:
                sess.run(soft_update if t < 60 else hard_update)
        print("returns", returns[:8])
        print("q values", np.round(sess.run(q, {s: eye}), 4).tolist())
        print("policy", sess.run(greedy, {s: eye}).tolist())


if __name__ == "__main__":
    main()
