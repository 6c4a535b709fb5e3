"""A TF1 program's scaffolding: tf.app.flags, tf.app.run, tf.gfile and tf.logging around training.

Flags with defaults (overridable on the command line), a log directory made fresh with
tf.gfile, a tiny least-squares fit whose progress goes to tf.logging (stderr) and whose
results go to stdout and to a text file written and read back with tf.gfile.GFile.
"""
# fixture threads: 1 2 4
# fixture args custom: --max_steps=12 --learning_rate 0.05 --noverbose extra_arg
# fixture args help: --help
# fixture args bad: --max_steps=lots

import os
import tempfile

import numpy as np

import engine as tf

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_integer("max_steps", 30, "Number of steps to run trainer.")
flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
flags.DEFINE_string("train_dir", "", "Directory for the run's files (a fresh temporary one "
                    "when empty).")
flags.DEFINE_boolean("verbose", True, "Print every step.")


def main(argv):
    print("argv after flags:", argv[1:])
    print("max_steps=%d learning_rate=%g verbose=%s" % (FLAGS.max_steps, FLAGS.learning_rate,
                                                        FLAGS.verbose))
    tf.logging.set_verbosity(tf.logging.INFO)
    log_dir = FLAGS.train_dir or os.path.join(tempfile.mkdtemp(), "run")
    if tf.gfile.Exists(log_dir):
        tf.gfile.DeleteRecursively(log_dir)
    tf.gfile.MakeDirs(os.path.join(log_dir, "checkpoints"))

    tf.set_random_seed(5)
    xs = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(-1, 1)
    ys = 3.0 * xs - 0.5
    x = tf.placeholder(tf.float32, [None, 1])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.random_uniform([1, 1], -1.0, 1.0), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    train = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.max_steps):
            _, value = sess.run([train, loss], {x: xs, y: ys})
            tf.logging.info("step %d: loss = %.4f", step, value)
            if FLAGS.verbose and step % 10 == 0:
                print("step %d loss %.6f" % (step, value))
        w_value, b_value = sess.run([w, b])
    with tf.gfile.GFile(os.path.join(log_dir, "result.txt"), "w") as f:
        f.write("w=%.5f\nb=%.5f\n" % (w_value[0, 0], b_value[0]))
    with tf.gfile.GFile(os.path.join(log_dir, "result.txt")) as f:
        print("result.txt:", f.read().split())
    print("log_dir holds", sorted(tf.gfile.ListDirectory(log_dir)),
          [os.path.basename(p) for p in tf.gfile.Glob(os.path.join(log_dir, "*.txt"))])
    tf.gfile.DeleteRecursively(os.path.dirname(log_dir) if not FLAGS.train_dir else log_dir)
    tf.logging.warning("done")


if __name__ == "__main__":
    tf.app.run()
