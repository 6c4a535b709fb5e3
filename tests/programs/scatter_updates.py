"""Scatter updates as 2017-era TF 1.x code wrote them (memory networks, replay buffers, count
tables): tf.scatter_update, scatter_add/sub/mul/div/min/max and scatter_nd_update/add/sub on
ref variables, tf.tensor_scatter_nd_update/add/sub with their gradients, and the kernels'
out-of-range errors."""
import numpy as np

import engine as tf


def kernel_line(error):
    """The kernel's own message: the line before TensorFlow's [[{{node ...}}]] trailer."""
    lines = error.message.split("\n")
    return next(lines[i - 1] for i, line in enumerate(lines) if "[[{{node" in line)


def main():
    tf.reset_default_graph()
    memory = tf.Variable(np.zeros([4, 3], np.float32), name="memory")
    counts = tf.Variable(np.ones([4], np.int32), name="counts")
    grid = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4), name="grid")
    rows = tf.placeholder(tf.int32, [None])
    write = tf.scatter_update(memory, rows, tf.ones([tf.size(rows), 3]) * 2.0)
    bump = tf.scatter_add(memory, [0, 0], [[1.0, 1.0, 1.0], [0.5, 0.5, 0.5]])
    shrink = tf.scatter_sub(memory, [3], [[0.25, 0.25, 0.25]])
    scale = tf.scatter_mul(counts, [1, 2, 1], [3, 5, 2])
    halve = tf.scatter_div(counts, [1], [4])
    low = tf.scatter_min(grid, [0], [[5.0, 5.0, 0.0, 5.0]])
    high = tf.scatter_max(grid, [2], [[0.0, 20.0, 0.0, 20.0]])
    nd_set = tf.scatter_nd_update(grid, [[1, 1], [0, 3]], [-1.0, -2.0])
    nd_add = tf.scatter_nd_add(grid, [[2]], [[10.0, 10.0, 10.0, 10.0]])
    nd_sub = tf.scatter_nd_sub(grid, [[0, 0]], [100.0])
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    u = tf.constant([[7.0, 8.0], [9.0, 10.0]])
    t_set = tf.tensor_scatter_nd_update(x, [[2], [0]], u)
    t_add = tf.tensor_scatter_add(x, [[1, 1], [1, 1]], [1.0, 2.0])
    t_sub = tf.tensor_scatter_nd_sub(x, [[0, 0]], [5.0])
    loss = (tf.reduce_sum(t_set * t_set) + tf.reduce_sum(t_add * 3.0)
            - tf.reduce_sum(t_sub * t_sub))
    grads = tf.gradients(loss, [x, u])
    print(write.op.type, nd_set.op.type, t_set.op.type, t_add.op.name, str(t_set.shape))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(write, {rows: [1, 3]}).tolist())
        print(sess.run(bump).tolist())
        print(sess.run(shrink).tolist())
        print(sess.run(scale).tolist(), sess.run(halve).tolist())
        print(sess.run(low).tolist())
        print(sess.run(high).tolist())
        print(sess.run(nd_set).tolist())
        print(sess.run(nd_add).tolist())
        print(sess.run(nd_sub).tolist())
        print(sess.run([t_set, t_add, t_sub]))
        print([g.tolist() for g in sess.run(grads)])
        for bad in ([[3], [5]], [[0, 4]]):
            try:
                sess.run(tf.tensor_scatter_nd_update(
                    x, bad, tf.zeros([len(bad)] + [2] * (2 - len(bad[0])))))
            except tf.errors.InvalidArgumentError as e:
                print("error", kernel_line(e))
        try:
            sess.run(tf.scatter_update(memory, [9], [[0.0, 0.0, 0.0]]))
        except tf.errors.InvalidArgumentError as e:
            print("error", kernel_line(e))


if __name__ == "__main__":
    main()
