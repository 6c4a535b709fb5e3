"""A while loop and a cond, for the debugger tests: the loop doubles x three times, then
the cond takes its true branch."""

import numpy as np

import engine as tf

tf.reset_default_graph()
x = tf.placeholder(tf.float32, shape=[2], name="x")
i0 = tf.constant(0, name="i0")
_, doubled = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0), [i0, x],
                           name="loop")
result = tf.cond(tf.reduce_sum(doubled) > 0, lambda: doubled + 1.0, lambda: doubled - 1.0,
                 name="pick")
with tf.Session() as sess:
    print("result =", sess.run(result, {x: np.array([1.0, 2.0], np.float32)}))
