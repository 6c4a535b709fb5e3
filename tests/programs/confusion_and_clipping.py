"""TF 1.x odds and ends of evaluation code: tf.confusion_matrix (inferred and given
num_classes, weights, its range assertions failing), tf.clip_by_average_norm, a
tf.get_local_variable counter and tf.compat.as_bytes/as_text; prints the values and the
nodes TensorFlow builds for them."""

import numpy as np

import engine as tf


def main():
    tf.reset_default_graph()
    x = tf.constant(np.arange(-3.0, 3.0, dtype=np.float32).reshape(2, 3))
    clipped = tf.clip_by_average_norm(x, 0.5)
    cm = tf.confusion_matrix([0, 2, 1, 2, 2], [0, 1, 1, 2, 0])
    cm2 = tf.math.confusion_matrix([0, 2, 1], [0, 1, 1], num_classes=4, weights=[1.0, 2.0, 0.5],
                                   dtype=tf.float32)
    lv = tf.get_local_variable("counter", [2], initializer=tf.zeros_initializer())
    print(tf.compat.as_bytes("héllo"), tf.compat.as_text(b"abc"), lv.name,
          [v.name for v in tf.local_variables()], tf.trainable_variables())
    print([n.name for n in tf.get_default_graph().as_graph_def().node
           if n.name.startswith(("confusion_matrix", "clip_by"))])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        print(np.round(sess.run(clipped), 5).tolist(), sess.run(cm).tolist(),
              sess.run(cm2).tolist(), sess.run(lv).tolist())
        try:
            sess.run(tf.confusion_matrix([0, 5], [0, 1], num_classes=3))
        except tf.errors.InvalidArgumentError as e:
            print("error", e.message.splitlines()[0][:80])


if __name__ == "__main__":
    main()
