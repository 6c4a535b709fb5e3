"""A linear-chain CRF tagger decoded by the Viterbi algorithm written with tf.while_loop and
TensorArrays, as 2017 sequence-labelling repos did before tf.contrib.crf was everywhere:
emission scores from a dense layer, a transition matrix Variable, the forward algorithm's
log partition (reduce_logsumexp in the loop) for the CRF loss, Viterbi backpointers written
with TensorArray.write, read back in a second loop in reverse; TensorArray.unstack, scatter
and gather, and training by Adam through the while loop's gradients."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

TAGS, FEATURES, LENGTH = 3, 5, 7


def forward_log_partition(emissions, transitions):
    """log Z of each sequence: emissions [batch, time, tags]."""
    steps = tf.TensorArray(tf.float32, size=LENGTH).unstack(tf.transpose(emissions, [1, 0, 2]))

    def body(t, alpha):
        scores = tf.expand_dims(alpha, 2) + tf.expand_dims(transitions, 0)
        return t + 1, tf.reduce_logsumexp(scores, axis=1) + steps.read(t)

    _, alpha = tf.while_loop(lambda t, _: t < LENGTH, body,
                             [tf.constant(1), steps.read(0)])
    return tf.reduce_logsumexp(alpha, axis=1)


def sequence_score(emissions, transitions, tags):
    batch = tf.shape(tags)[0]
    rows = tf.reshape(tf.tile(tf.range(batch)[:, None], [1, LENGTH]), [-1])
    cols = tf.tile(tf.range(LENGTH), [batch])
    flat_tags = tf.reshape(tags, [-1])
    unary = tf.reshape(tf.gather_nd(emissions, tf.stack([rows, cols, flat_tags], 1)),
                       [batch, LENGTH])
    pairs = tf.stack([tags[:, :-1], tags[:, 1:]], 2)
    binary = tf.gather_nd(transitions, pairs)
    return tf.reduce_sum(unary, 1) + tf.reduce_sum(binary, 1)


def viterbi(emissions, transitions):
    steps = tf.TensorArray(tf.float32, size=LENGTH).unstack(tf.transpose(emissions, [1, 0, 2]))
    backpointers = tf.TensorArray(tf.int32, size=LENGTH - 1)

    def forward(t, score, pointers):
        scores = tf.expand_dims(score, 2) + tf.expand_dims(transitions, 0)
        pointers = pointers.write(t - 1, tf.argmax(scores, 1, output_type=tf.int32))
        return t + 1, tf.reduce_max(scores, 1) + steps.read(t), pointers

    _, score, backpointers = tf.while_loop(lambda t, *_: t < LENGTH, forward,
                                           [tf.constant(1), steps.read(0), backpointers])
    best_last = tf.argmax(score, 1, output_type=tf.int32)
    batch = tf.shape(best_last)[0]
    path = tf.TensorArray(tf.int32, size=LENGTH)
    path = path.write(LENGTH - 1, best_last)

    def backward(t, tag, path):
        pointers = backpointers.read(t)
        previous = tf.gather_nd(pointers, tf.stack([tf.range(batch), tag], 1))
        return t - 1, previous, path.write(t, previous)

    _, _, path = tf.while_loop(lambda t, *_: t >= 0, backward,
                               [tf.constant(LENGTH - 2), best_last, path])
    return tf.transpose(path.stack()), tf.reduce_max(score, 1)


def main():
    tf.reset_default_graph()
    tf.set_random_seed(31)
    rng = np.random.RandomState(31)
    # tags follow 0 -> 1 -> 2 -> 0 mostly; features are noisy one-hots of the tag
    tags = np.zeros([40, LENGTH], np.int32)
    for b in range(40):
        tags[b, 0] = rng.randint(TAGS)
        for t in range(1, LENGTH):
            tags[b, t] = (tags[b, t - 1] + 1) % TAGS if rng.rand() < 0.85 else rng.randint(TAGS)
    feats = (np.eye(FEATURES)[tags] + 0.9 * rng.randn(40, LENGTH, FEATURES)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, LENGTH, FEATURES])
    y = tf.placeholder(tf.int32, [None, LENGTH])
    emissions = tf.layers.dense(x, TAGS, name="emissions")
    transitions = tf.get_variable("transitions", [TAGS, TAGS],
                                  initializer=tf.zeros_initializer())
    log_z = forward_log_partition(emissions, transitions)
    nll = tf.reduce_mean(log_z - sequence_score(emissions, transitions, y))
    train = tf.train.AdamOptimizer(0.05).minimize(nll)
    decoded, best = viterbi(emissions, transitions)
    # TensorArray scatter and gather: the decoded tags of a few time steps
    picked = tf.TensorArray(tf.int32, size=LENGTH).scatter(
        tf.range(LENGTH), tf.transpose(decoded)).gather([0, 3, 6])
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(decoded, y)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(50):
            l, _ = sess.run([nll, train], {x: feats[:32], y: tags[:32]})
            if step % 10 == 0 or step == 49:
                print("step %2d crf nll %.5f" % (step, l))
        print("transitions", np.round(sess.run(transitions), 3).tolist())
        acc, path, score, cols = sess.run([accuracy, decoded, best, picked],
                                          {x: feats[32:], y: tags[32:]})
        print("held-out accuracy %.4f" % acc)
        print("first path", path[0].tolist(), "gold", tags[32].tolist())
        print("best scores", np.round(score[:3], 4).tolist())
        print("gathered steps", cols[:, :3].tolist())


if __name__ == "__main__":
    main()
