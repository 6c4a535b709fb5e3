"""tf.app, tf.flags, tf.gfile and tf.logging: the program scaffolding of TensorFlow 1.x."""
