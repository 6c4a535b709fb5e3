"""A TF 1.x seq2seq with Bahdanau attention, written by hand as in 2017 tutorials: a
bidirectional GRU encoder (tf.nn.bidirectional_dynamic_rnn, sequence_length), a GRUCell decoder
unrolled in tf.while_loop with TensorArrays, masked loss with tf.sequence_mask, Adam with
exponential_decay and clip_by_global_norm; then greedy decoding."""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

VOCAB, EMB, UNITS, SRC, TGT, BATCH = 12, 8, 10, 7, 6, 4
GO = 1


def main():
    tf.reset_default_graph()
    tf.set_random_seed(7)
    rng = np.random.RandomState(0)
    src = tf.placeholder(tf.int32, [None, SRC], name="src")
    src_len = tf.placeholder(tf.int32, [None], name="src_len")
    tgt_in = tf.placeholder(tf.int32, [None, TGT], name="tgt_in")
    tgt_out = tf.placeholder(tf.int32, [None, TGT], name="tgt_out")
    tgt_len = tf.placeholder(tf.int32, [None], name="tgt_len")
    batch = tf.shape(src)[0]

    embedding = tf.get_variable("embedding", [VOCAB, EMB],
                                initializer=tf.random_uniform_initializer(-0.5, 0.5))
    with tf.variable_scope("encoder"):
        fw = tf.nn.rnn_cell.GRUCell(UNITS)
        bw = tf.nn.rnn_cell.GRUCell(UNITS)
        (out_fw, out_bw), (st_fw, st_bw) = tf.nn.bidirectional_dynamic_rnn(
            fw, bw, tf.nn.embedding_lookup(embedding, src), sequence_length=src_len,
            dtype=tf.float32)
        memory = tf.concat([out_fw, out_bw], axis=2)
        init_state = tf.layers.dense(tf.concat([st_fw, st_bw], 1), UNITS, activation=tf.tanh,
                                     name="bridge")
    mem_mask = tf.sequence_mask(src_len, SRC, dtype=tf.float32)

    with tf.variable_scope("decoder") as scope:
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        w_mem = tf.get_variable("w_mem", [2 * UNITS, UNITS])
        w_query = tf.get_variable("w_query", [UNITS, UNITS])
        v = tf.get_variable("v", [UNITS])
        out_w = tf.get_variable("out_w", [UNITS + 2 * UNITS, VOCAB])
        out_b = tf.get_variable("out_b", [VOCAB], initializer=tf.zeros_initializer())
        keys = tf.tensordot(memory, w_mem, axes=[[2], [0]])

        def attend(state):
            query = tf.expand_dims(tf.matmul(state, w_query), 1)
            scores = tf.reduce_sum(v * tf.tanh(keys + query), axis=2)
            scores = scores + (1.0 - mem_mask) * -1e9
            alignments = tf.nn.softmax(scores)
            return tf.reduce_sum(tf.expand_dims(alignments, 2) * memory, axis=1), alignments

        def step(token, state):
            context, alignments = attend(state)
            inputs = tf.concat([tf.nn.embedding_lookup(embedding, token), context], 1)
            output, state = cell(inputs, state)
            logits = tf.matmul(tf.concat([output, context], 1), out_w) + out_b
            return logits, state, alignments

        tgt_in_t = tf.transpose(tgt_in)

        def train_body(t, state, logits_ta):
            logits, state, _ = step(tgt_in_t[t], state)
            return t + 1, state, logits_ta.write(t, logits)

        _, _, logits_ta = tf.while_loop(
            lambda t, *_: t < TGT, train_body,
            [tf.constant(0), init_state, tf.TensorArray(tf.float32, size=TGT)])
        logits = tf.transpose(logits_ta.stack(), [1, 0, 2])
        scope.reuse_variables()

        def infer_body(t, token, state, ids_ta, att_ta):
            logits, state, alignments = step(token, state)
            token = tf.argmax(logits, axis=1, output_type=tf.int32)
            return t + 1, token, state, ids_ta.write(t, token), att_ta.write(t, alignments)

        _, _, _, ids_ta, att_ta = tf.while_loop(
            lambda t, *_: t < TGT, infer_body,
            [tf.constant(0), tf.fill([batch], GO), init_state,
             tf.TensorArray(tf.int32, size=TGT), tf.TensorArray(tf.float32, size=TGT)])
        predictions = tf.transpose(ids_ta.stack())
        attention = tf.transpose(att_ta.stack(), [1, 0, 2])

    weights = tf.sequence_mask(tgt_len, TGT, dtype=tf.float32)
    xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tgt_out, logits=logits)
    loss = tf.reduce_sum(xent * weights) / tf.reduce_sum(weights)
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.train.exponential_decay(0.02, global_step, 10, 0.9, staircase=True)
    params = tf.trainable_variables()
    grads, norm = tf.clip_by_global_norm(tf.gradients(loss, params), 5.0)
    train_op = tf.train.AdamOptimizer(learning_rate).apply_gradients(
        zip(grads, params), global_step=global_step)

    # Task: reverse the source (tokens 2..11), decoder reads GO + target.
    def make_batch():
        lengths = rng.randint(3, SRC + 1, size=BATCH)
        s = np.zeros([BATCH, SRC], np.int32)
        ti = np.zeros([BATCH, TGT], np.int32)
        to = np.zeros([BATCH, TGT], np.int32)
        tl = np.minimum(lengths, TGT)
        for i, n in enumerate(lengths):
            s[i, :n] = rng.randint(2, VOCAB, size=n)
            rev = s[i, :n][::-1][:TGT]
            to[i, :len(rev)] = rev
            ti[i, 0] = GO
            ti[i, 1:len(rev)] = rev[:-1]
        return {src: s, src_len: lengths, tgt_in: ti, tgt_out: to, tgt_len: tl}

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("params", sum(int(np.prod(p.shape.as_list())) for p in params), len(params))
        for i in range(30):
            feed = make_batch()
            l, n, lr, _ = sess.run([loss, norm, learning_rate, train_op], feed)
            if i % 5 == 0:
                print("step %d loss %.5f norm %.5f lr %.5f" % (i, l, n, lr))
        feed = make_batch()
        ids, att = sess.run([predictions, attention], {src: feed[src], src_len: feed[src_len]})
        print("predictions", ids.tolist())
        print("attention sums", np.round(att.sum(axis=2), 4).tolist()[0])
        print("attention row", np.round(att[0, 0], 4).tolist())
        print("global step", sess.run(global_step))


if __name__ == "__main__":
    main()
