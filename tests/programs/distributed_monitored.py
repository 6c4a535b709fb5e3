"""Asynchronous between-graph training in MonitoredTrainingSessions, the chief checkpointing.

One command per task (1 ps, 2 workers):
    python distributed_monitored.py --ps_hosts=H:P --worker_hosts=H:P,H:P \
        --job_name=ps|worker --task_index=N --checkpoint_dir=DIR
The chief's MonitoredTrainingSession initializes the variables on the ps (or restores them
from DIR), saves checkpoints there and the summaries beside them; the other worker waits
until the chief has made the model ready. Both train, unsynchronized, until the global step
reaches --last_step, on their own shards of a noise-free linear problem, so both end at the
same solution whatever the order of their updates was (Adagrad's accumulators are sums over
that order: the chief prints only their names and shapes). The chief then reads its last
checkpoint back.
"""
# fixtures: tools/make_distributed_fixtures.py (one process per task)

import os

import numpy as np

import engine as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("worker_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("job_name", "", "One of 'ps', 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_integer("last_step", 400, "Global step to stop at")
flags.DEFINE_string("checkpoint_dir", "/tmp/distributed_monitored", "The chief's checkpoints")
FLAGS = flags.FLAGS


def shard(task_index):
    """This worker's 12 examples of y = x.[1, -2] + 0.5."""
    rng = np.random.RandomState(31 + task_index)
    features = rng.uniform(-2.0, 2.0, size=(12, 2)).astype(np.float32)
    return features, (features.dot([[1.0], [-2.0]]) + 0.5).astype(np.float32)


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    is_chief = FLAGS.task_index == 0
    # This worker's sessions see the ps and itself only: a session waits for every task it
    # sees, and the other worker may have finished already.
    config = tf.ConfigProto(
        device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        tf.summary.scalar("loss", loss)
        train_op = tf.train.AdagradOptimizer(0.5).minimize(loss, global_step=global_step)

    features, targets = shard(FLAGS.task_index)
    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.last_step)]
    with tf.train.MonitoredTrainingSession(
            master=server.target, is_chief=is_chief, config=config,
            checkpoint_dir=FLAGS.checkpoint_dir,
            hooks=hooks, save_checkpoint_steps=100, save_summaries_steps=100,
            log_step_count_steps=100) as sess:
        while not sess.should_stop():
            sess.run(train_op, {x: features, y: targets})
    with tf.Session(server.target, config=config) as sess:
        print("Worker %d: stopped at global step >= %d: %s" % (
            FLAGS.task_index, FLAGS.last_step, sess.run(global_step) >= FLAGS.last_step))

    if is_chief:
        checkpoint = tf.train.latest_checkpoint(FLAGS.checkpoint_dir)
        step = int(checkpoint.rsplit("-", 1)[1])
        print("Worker 0: last checkpoint at step >= %d: %s" % (FLAGS.last_step,
                                                                step >= FLAGS.last_step))
        reader = tf.train.NewCheckpointReader(checkpoint)
        for name, shape in tf.train.list_variables(checkpoint):
            value = reader.get_tensor(name)
            if name == "global_step":
                print("  %s %s (>= %d: %s)" % (name, shape, FLAGS.last_step,
                                               value >= FLAGS.last_step))
            elif "Adagrad" in name:
                print("  %s %s" % (name, shape))
            else:
                print("  %s %s %s" % (name, shape, " ".join("%.3f" % v
                                                          for v in np.ravel(value))))
        print("Worker 0: files", sorted(set(
            name.split(".")[0] for name in os.listdir(FLAGS.checkpoint_dir))))


if __name__ == "__main__":
    tf.app.run()
