"""log_device_placement on a small training graph: one line per node, as TensorFlow prints them.

The session places the whole graph when it first runs and again for the nodes added after,
so the lines come in groups: the training graph, then the late Identity, then a pinned Mul.
"""

import engine as tf
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.Variable([[1.0], [2.0]], name="w")
loss = tf.reduce_mean(tf.square(tf.matmul(x, w)), name="loss")
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(loss, {x: [[1.0, 2.0]]}))
    sess.run(train, {x: [[1.0, 2.0]]})
    extra = tf.identity(w, name="late")
    print(sess.run(extra))
    with tf.device("/cpu:0"):
        y = tf.constant(3.0, name="pinned") * 2
    print(sess.run(y))
