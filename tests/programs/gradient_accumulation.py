"""Gradient accumulation over micro-batches in TF 1.x, as people wrote it on Stack Overflow in
2017 to fit a big batch in a small GPU: non-trainable accumulator Variables beside each
trainable one, a zero op (tf.group of assigns), an accumulate op (assign_add of each
micro-batch's compute_gradients, the loss fetched under tf.control_dependencies), and one
apply_gradients of the averaged sums; checked against training on the whole batch at once."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

MICRO = 4


def build(scope, lr):
    with tf.variable_scope(scope):
        x = tf.placeholder(tf.float32, [None, 5], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        h = tf.layers.dense(x, 8, activation=tf.nn.sigmoid, name="h",
                            kernel_initializer=tf.constant_initializer(0.1))
        out = tf.layers.dense(h, 1, name="out", kernel_initializer=tf.constant_initializer(-0.2))
        loss = tf.losses.mean_squared_error(y, out)
        opt = tf.train.MomentumOptimizer(lr, 0.9)
        tvars = tf.trainable_variables(scope)
    return x, y, loss, opt, tvars


def main():
    tf.reset_default_graph()
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    data_x = rng.randn(32, 5).astype(np.float32)
    data_y = (data_x[:, :1] * 0.7 - data_x[:, 1:2] ** 2 * 0.3).astype(np.float32)

    x, y, loss, opt, tvars = build("accumulated", 0.1)
    accums = [tf.Variable(tf.zeros_like(v.initialized_value()), trainable=False,
                          name=v.op.name.split("/", 1)[1].replace("/", "_") + "_accum")
              for v in tvars]
    count = tf.Variable(0.0, trainable=False, name="micro_batches")
    zero_ops = tf.group(*([a.assign(tf.zeros_like(a)) for a in accums] + [count.assign(0.0)]),
                        name="zero")
    grads_and_vars = opt.compute_gradients(loss, tvars)
    with tf.control_dependencies([g for g, _ in grads_and_vars]):
        accum_ops = tf.group(*([a.assign_add(g) for a, (g, _) in zip(accums, grads_and_vars)]
                               + [count.assign_add(1.0)]), name="accumulate")
    with tf.control_dependencies([accum_ops]):
        micro_loss = tf.identity(loss)
    step = tf.train.get_or_create_global_step()
    apply_op = opt.apply_gradients([(a / count, v) for a, v in zip(accums, tvars)],
                                   global_step=step)

    bx, by, bloss, bopt, bvars = build("whole_batch", 0.1)
    btrain = bopt.minimize(bloss)
    print("accumulators", [a.op.name for a in accums])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(8):
            sess.run(zero_ops)
            losses = [sess.run(micro_loss, {x: mx, y: my}) for mx, my in
                      zip(np.split(data_x, MICRO), np.split(data_y, MICRO))]
            sess.run(apply_op)
            whole, _ = sess.run([bloss, btrain], {bx: data_x, by: data_y})
            if epoch % 2 == 0:
                print("epoch %d micro losses %s mean %.6f whole batch %.6f" % (
                    epoch, " ".join("%.5f" % l for l in losses), np.mean(losses), whole))
        print("global step", sess.run(step), "micro batches", sess.run(count))
        diffs = [np.abs(a - b).max() for a, b in zip(sess.run(tvars), sess.run(bvars))]
        print("largest difference to whole-batch training below 1e-5:", max(diffs) < 1e-5)
        print("out/kernel", np.round(sess.run(tvars[2])[:, 0], 5).tolist())


if __name__ == "__main__":
    main()
