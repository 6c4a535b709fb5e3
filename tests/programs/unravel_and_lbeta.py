"""tf.unravel_index and tf.math.lbeta as TF 1.x code used them (argmax positions of a
flattened heatmap; a Dirichlet's log normaliser), with the unravel kernel's errors."""
import numpy as np

import engine as tf


def kernel_line(error):
    lines = error.message.split("\n")
    return next(lines[i - 1] for i, line in enumerate(lines) if "[[{{node" in line)


def main():
    tf.reset_default_graph()
    heat = tf.constant(np.random.RandomState(2).rand(3, 4, 5).astype(np.float32))
    flat_argmax = tf.argmax(tf.reshape(heat, [3, -1]), axis=1, output_type=tf.int32)
    coords = tf.unravel_index(flat_argmax, [4, 5])
    one = tf.unravel_index(17, [3, 6])
    wide = tf.unravel_index(np.array([0, 59, 7], np.int64), np.array([3, 4, 5], np.int64))
    alpha = tf.constant([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [10.0, 1e-3, 4.0]])
    lb = tf.math.lbeta(alpha)
    lb_scalar = tf.lbeta([2.0, 3.0])
    grad = tf.gradients(tf.reduce_sum(lb), alpha)[0]
    print(coords.name, str(coords.shape), str(one.shape), str(wide.shape), lb.name, str(lb.shape))
    with tf.Session() as sess:
        print(sess.run([coords, one, wide, tf.unravel_index([-1], [3, 4])]))
        print([np.round(v, 5).tolist() for v in sess.run([lb, lb_scalar, grad])])
        for indices, dims in (([12], [3, 4]), ([1], [3, 0]), ([[1, 2]], [3, 4])):
            try:
                sess.run(tf.unravel_index(tf.placeholder_with_default(indices, None),
                                          tf.placeholder_with_default(dims, None)))
            except tf.errors.InvalidArgumentError as e:
                print("error", kernel_line(e))


if __name__ == "__main__":
    main()
