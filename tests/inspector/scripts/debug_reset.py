"""A TF1 script as most begin: tf.reset_default_graph() at its top, then a graph and a run."""

import engine as tf

tf.reset_default_graph()
a = tf.constant([1.0, 2.0], name="a")
b = tf.multiply(a, 10.0, name="b")
with tf.Session() as sess:
    print("b =", sess.run(b))
tf.reset_default_graph()
print("nodes after reset:", len(tf.get_default_graph().get_operations()))
