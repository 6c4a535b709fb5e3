"""An optimizer's slots of a partitioned variable are parts of one full slot, as TensorFlow's
slot_creator makes them: a checkpoint holds `net/w/Momentum` whole, sliced as its variable,
not `net/w/part_0/Momentum` and `net/w/part_1/Momentum`. The names below are what TensorFlow
2.21 saved for this program (tf.train.list_variables of its checkpoint); a scalar slot has no
slice info."""

import numpy as np

import engine as tf


def test_slots_of_a_partitioned_variable_save_as_one_full_slot(tmp_path):
    tf.reset_default_graph()
    with tf.variable_scope("net", partitioner=tf.fixed_size_partitioner(2)):
        w = tf.get_variable("w", [10, 4], initializer=tf.ones_initializer())
        b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
    loss = tf.reduce_sum(tf.matmul(tf.ones([3, 10]), w) + b)
    train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        path = saver.save(sess, str(tmp_path / "m"))
        momentum = sess.run(tf.concat([v for v in tf.global_variables()
                                       if v.op.name.startswith("net/w/part_")
                                       and v.op.name.endswith("Momentum")], 0))
    assert tf.train.list_variables(path) == [
        ("net/b", [4]), ("net/b/Momentum", [4]), ("net/w", [10, 4]),
        ("net/w/Momentum", [10, 4])]
    assert np.array_equal(tf.train.load_variable(path, "net/w/Momentum"), momentum)
