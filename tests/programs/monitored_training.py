"""Training under tf.train.MonitoredTrainingSession with hooks, the TF 1.4-era loop.

StopAtStepHook ends training at a global step, NanTensorHook watches the loss,
LoggingTensorHook logs through tf.logging (sent to stdout here, with a formatter so the lines
carry no timings), a SummarySaverHook writes summaries every few steps into a summary_dir
that is read back at the end; tf.metrics.mean keeps a running loss.
"""
# fixture threads: 1 2 4

import logging
import os
import shutil
import sys
import tempfile

import numpy as np

import engine as tf


def main():
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("log: %(levelname)s %(message)s"))
    logging.getLogger("tensorflow").addHandler(handler)
    tf.logging.set_verbosity(tf.logging.INFO)
    summary_dir = tempfile.mkdtemp()

    tf.set_random_seed(8)
    rng = np.random.RandomState(4)
    features = rng.uniform(-1, 1, (64, 3)).astype(np.float32)
    targets = (features @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.get_variable("w", [3, 1], initializer=tf.random_normal_initializer(seed=1))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("w", w)
    global_step = tf.train.get_or_create_global_step()
    lr = tf.train.polynomial_decay(0.3, global_step, 20, 0.05)
    train_op = tf.train.MomentumOptimizer(lr, 0.5).minimize(loss, global_step=global_step)
    running, running_update = tf.metrics.mean(loss)

    hooks = [tf.train.StopAtStepHook(last_step=23),
             tf.train.NanTensorHook(loss),
             tf.train.LoggingTensorHook({"step": global_step, "loss": loss}, every_n_iter=5,
                                        formatter=lambda v: "step %d loss %.5f" % (
                                            v["step"], v["loss"]))]
    batch = 0
    with tf.train.MonitoredTrainingSession(hooks=hooks, summary_dir=summary_dir,
                                           save_summaries_steps=10,
                                           log_step_count_steps=None) as sess:
        while not sess.should_stop():
            rows = slice(batch * 16 % 64, batch * 16 % 64 + 16)
            _, step, value, mean = sess.run([train_op, global_step, loss, running_update],
                                            {x: features[rows], y: targets[rows]})
            batch += 1
            if step % 4 == 0:
                print("run %d: step %d loss %.6f running mean %.6f" % (batch, step, value, mean))
    print("stopped after", batch, "runs")
    logging.getLogger("tensorflow").removeHandler(handler)
    tf.summary.FileWriterCache.clear()
    for name in sorted(tf.gfile.ListDirectory(summary_dir)):
        for event in tf.train.summary_iterator(os.path.join(summary_dir, name)):
            what = event.WhichOneof("what")
            if what == "summary":
                print("event step", event.step, [(v.tag, round(v.simple_value, 5))
                                                  if v.HasField("simple_value") else v.tag
                                                  for v in event.summary.value])
            elif what == "session_log":
                print("event step", event.step, "session log", event.session_log.status)
            elif what != "file_version":
                print("event", what)
    shutil.rmtree(summary_dir)


if __name__ == "__main__":
    main()
