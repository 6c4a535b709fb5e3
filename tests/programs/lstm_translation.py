"""Neural machine translation with LSTMs in TF 1.x (2017-2018 tutorials without tf.contrib): a
two-layer MultiRNNCell encoder of LSTMCells (peepholes, num_proj) under tf.nn.dynamic_rnn,
Luong-style multiplicative attention written with tf.einsum and masked by tf.sequence_mask,
teacher forcing through a decoder LSTMCell whose initial state is the encoder's last, a
sequence_loss-style mask as weights of tf.losses.sparse_softmax_cross_entropy, and greedy
decoding in tf.while_loop with maximum_iterations, a TensorArray and an LSTMStateTuple in the
loop state."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

VOCAB, EMB, UNITS, SRC, TGT, BATCH = 10, 6, 8, 6, 5, 4
GO, EOS = 1, 2


def make_batch(rng):
    src = rng.randint(3, VOCAB, (BATCH, SRC))
    lengths = rng.randint(3, SRC + 1, BATCH)
    for row, n in enumerate(lengths):
        src[row, n:] = 0
    tgt = np.zeros((BATCH, TGT), np.int64)
    for row, n in enumerate(lengths):
        reversed_src = src[row, :n][::-1][:TGT - 1]
        tgt[row, :len(reversed_src)] = reversed_src
        tgt[row, len(reversed_src)] = EOS
    return src, lengths, tgt


def main():
    tf.reset_default_graph()
    tf.set_random_seed(19)
    rng = np.random.RandomState(5)
    src = tf.placeholder(tf.int64, [None, SRC], name="src")
    src_len = tf.placeholder(tf.int32, [None], name="src_len")
    tgt = tf.placeholder(tf.int64, [None, TGT], name="tgt")
    batch = tf.shape(src)[0]
    embedding = tf.get_variable("embedding", [VOCAB, EMB])
    with tf.variable_scope("encoder"):
        cells = [tf.nn.rnn_cell.LSTMCell(UNITS, use_peepholes=True, name="lstm0"),
                 tf.nn.rnn_cell.LSTMCell(UNITS, num_proj=UNITS // 2, name="lstm1")]
        encoder = tf.nn.rnn_cell.MultiRNNCell(cells)
        memory, state = tf.nn.dynamic_rnn(encoder, tf.nn.embedding_lookup(embedding, src),
                                          sequence_length=src_len, dtype=tf.float32)
    print("memory", memory.shape, "state", [(s.c.shape, s.h.shape) for s in state])
    mask = tf.sequence_mask(src_len, SRC, dtype=tf.float32)
    decoder_cell = tf.nn.rnn_cell.LSTMCell(UNITS, name="decoder_lstm")
    attention_w = tf.get_variable("attention_w", [UNITS, UNITS // 2])
    combine = tf.layers.Dense(UNITS, activation=tf.nn.tanh, name="combine")
    project = tf.layers.Dense(VOCAB, name="project")
    initial = tf.nn.rnn_cell.LSTMStateTuple(
        tf.layers.dense(state[-1].c, UNITS, name="bridge_c"),
        tf.layers.dense(state[-1].h, UNITS, name="bridge_h"))

    def step(token, cell_state):
        output, cell_state = decoder_cell(tf.nn.embedding_lookup(embedding, token), cell_state)
        scores = tf.einsum("bu,uk,btk->bt", output, attention_w, memory)
        scores = scores * mask + (1.0 - mask) * -1e9
        weights = tf.nn.softmax(scores)
        context = tf.einsum("bt,btk->bk", weights, memory)
        return project(combine(tf.concat([output, context], 1))), cell_state, weights

    inputs = tf.concat([tf.fill([batch, 1], tf.constant(GO, tf.int64)), tgt[:, :-1]], 1)
    logits, cell_state = [], initial
    with tf.variable_scope("decoder"):
        for t in range(TGT):
            out, cell_state, _ = step(inputs[:, t], cell_state)
            logits.append(out)
    logits = tf.stack(logits, axis=1)
    target_mask = tf.cast(tf.sequence_mask(tf.reduce_sum(tf.cast(tf.not_equal(tgt, 0),
                                                                 tf.int32), 1) + 0, TGT),
                          tf.float32)
    loss = tf.losses.sparse_softmax_cross_entropy(tgt, logits, weights=target_mask)
    optimizer = tf.train.AdamOptimizer(0.02)
    grads, variables = zip(*optimizer.compute_gradients(loss))
    clipped, norm = tf.clip_by_global_norm(grads, 5.0)
    train = optimizer.apply_gradients(zip(clipped, variables))

    def cond(t, token, cell_state, outputs, finished):
        return tf.logical_not(tf.reduce_all(finished))

    def body(t, token, cell_state, outputs, finished):
        with tf.variable_scope("decoder", reuse=True):
            out, cell_state, weights = step(token, cell_state)
        token = tf.argmax(out, axis=1)
        outputs = outputs.write(t, tf.where(finished, tf.zeros_like(token), token))
        # a list, as loop_vars: under maximum_iterations a returned tuple is a TypeError
        return [t + 1, token, cell_state, outputs,
                tf.logical_or(finished, tf.equal(token, EOS))]

    _, _, _, decoded, _ = tf.while_loop(
        cond, body, [0, tf.fill([batch], tf.constant(GO, tf.int64)), initial,
                     tf.TensorArray(tf.int64, size=0, dynamic_size=True),
                     tf.zeros([batch], tf.bool)], maximum_iterations=TGT + 2)
    decoded = tf.transpose(decoded.stack())
    print("variables", [v.name for v in tf.trainable_variables()][:7])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(30):
            s, n, t = make_batch(rng)
            l, gn, _ = sess.run([loss, norm, train], {src: s, src_len: n, tgt: t})
            if i % 10 == 9:
                print("step %d loss %.5f norm %.5f" % (i, l, gn))
        s, n, t = make_batch(rng)
        print("source", s.tolist())
        print("target", t.tolist())
        print("greedy", sess.run(decoded, {src: s, src_len: n}).tolist())


if __name__ == "__main__":
    main()
