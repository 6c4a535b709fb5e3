"""A neural Turing machine's memory head (Graves et al. 2014) in TF 1.x, as the 2016-2017
reimplementations wrote its addressing: a controller step inside tf.scan over time, content
addressing by cosine similarity (tf.nn.l2_normalize, a key strength through softplus),
interpolation with the previous weighting, a 3-way circular shift by tf.concat of rolled
copies, sharpening by a power, the erase/add memory write; trained by RMSProp with
clip_by_global_norm on a copy task, gradients flowing back through the scan."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

SLOTS, WIDTH, BITS, STEPS = 6, 5, 4, 6


def circular_shift(w, shift):
    rolled = [tf.concat([w[:, -1:], w[:, :-1]], 1), w, tf.concat([w[:, 1:], w[:, :1]], 1)]
    return tf.add_n([shift[:, k:k + 1] * rolled[k] for k in range(3)])


def head_step(state, x):
    memory, w_prev, read_prev = state
    controller_in = tf.concat([x, read_prev], 1)
    with tf.variable_scope("controller", reuse=tf.AUTO_REUSE):
        h = tf.layers.dense(controller_in, 16, activation=tf.tanh, name="hidden")
        key = tf.tanh(tf.layers.dense(h, WIDTH, name="key"))
        strength = tf.nn.softplus(tf.layers.dense(h, 1, name="strength")) + 1.0
        gate = tf.sigmoid(tf.layers.dense(h, 1, name="gate"))
        shift = tf.nn.softmax(tf.layers.dense(h, 3, name="shift"))
        gamma = tf.nn.softplus(tf.layers.dense(h, 1, name="gamma")) + 1.0
        erase = tf.sigmoid(tf.layers.dense(h, WIDTH, name="erase"))
        add = tf.tanh(tf.layers.dense(h, WIDTH, name="add"))
    similarity = tf.reduce_sum(tf.nn.l2_normalize(memory, 2)
                               * tf.expand_dims(tf.nn.l2_normalize(key, 1), 1), 2)
    w_content = tf.nn.softmax(strength * similarity)
    w_gated = gate * w_content + (1 - gate) * w_prev
    w_shifted = circular_shift(w_gated, shift)
    w_sharp = tf.pow(w_shifted + 1e-6, gamma)
    w = w_sharp / tf.reduce_sum(w_sharp, 1, keepdims=True)
    read = tf.reduce_sum(tf.expand_dims(w, 2) * memory, 1)
    weight = tf.expand_dims(w, 2)
    memory = memory * (1 - weight * tf.expand_dims(erase, 1)) + weight * tf.expand_dims(add, 1)
    return memory, w, read


def main():
    tf.reset_default_graph()
    tf.set_random_seed(55)
    rng = np.random.RandomState(55)
    inputs = tf.placeholder(tf.float32, [STEPS, None, BITS])  # time-major
    batch = tf.shape(inputs)[1]
    memory0 = tf.fill([batch, SLOTS, WIDTH], 1e-3)
    w0 = tf.one_hot(tf.zeros([batch], tf.int32), SLOTS)
    read0 = tf.zeros([batch, WIDTH])
    memories, weights, reads = tf.scan(head_step, inputs, initializer=(memory0, w0, read0))
    with tf.variable_scope("output"):
        logits = tf.layers.dense(tf.concat([reads, inputs], 2), BITS)
    # the copy task: reproduce the input delayed by one step
    targets = tf.concat([tf.zeros_like(inputs[:1]), inputs[:-1]], 0)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=targets,
                                                                  logits=logits))
    params = tf.trainable_variables()
    grads, norm = tf.clip_by_global_norm(tf.gradients(loss, params), 5.0)
    train = tf.train.RMSPropOptimizer(3e-3, momentum=0.9).apply_gradients(zip(grads, params))
    print("scan outputs", memories.get_shape().as_list(), weights.get_shape().as_list(),
          reads.get_shape().as_list())
    print("parameters", sum(int(np.prod(p.get_shape().as_list())) for p in params))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            data = (rng.rand(STEPS, 8, BITS) > 0.5).astype(np.float32)
            l, n, _ = sess.run([loss, norm, train], {inputs: data})
            if step % 10 == 0 or step == 39:
                print("step %2d loss %.5f grad norm %.5f" % (step, l, n))
        data = (rng.rand(STEPS, 2, BITS) > 0.5).astype(np.float32)
        w, m = sess.run([weights, memories], {inputs: data})
        print("weights of sequence 0", np.round(w[:, 0], 3).tolist())
        print("memory norm %.5f" % np.linalg.norm(m[-1]))


if __name__ == "__main__":
    main()
