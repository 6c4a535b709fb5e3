"""Asynchronous between-graph replication under tf.train.Supervisor, as TF 1.x scripts ran it.

One command per task:
    python distributed_supervisor.py --ps_hosts=H:P --worker_hosts=H:P,H:P \
        --job_name=ps --task_index=0
    ... --job_name=worker --task_index=0 --logdir=DIR   (the chief)
    ... --job_name=worker --task_index=1 --logdir=DIR
The ps serves its variables (server.join()); each worker builds the same model with
replica_device_setter and trains on its own shard of a noise-free linear problem, updating
the shared variables without waiting for the other worker. The global step is a plain
tf.Variable the Supervisor finds by its name. Which worker updates when is up to the
scheduler of the machine, so the global steps printed per step vary from run to run; by its
100th step a worker has made 100 updates at least, so the loss it prints is nil to the digits
shown, and both workers end at the exact solution (w = [0.5, -1, 2], b = 0.25), rounded.
"""
# fixtures: tools/make_distributed_fixtures.py (one process per task)

import numpy as np

import engine as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("worker_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("job_name", "", "One of 'ps', 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_integer("train_steps", 300, "Steps each worker trains")
flags.DEFINE_string("logdir", "/tmp/distributed_supervisor", "Chief's log directory")
FLAGS = flags.FLAGS

TRUE_W = np.array([[0.5], [-1.0], [2.0]], np.float32)
TRUE_B = 0.25


def shard(task_index):
    """This worker's 16 examples of y = x.w + b."""
    rng = np.random.RandomState(100 + task_index)
    features = rng.randn(16, 3).astype(np.float32)
    return features, (features.dot(TRUE_W) + TRUE_B).astype(np.float32)


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    is_chief = FLAGS.task_index == 0
    # This worker's sessions see the ps and itself only: a session waits for every task it
    # sees, and the other worker may have finished already.
    config = tf.ConfigProto(
        device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.Variable(0, name="global_step", trainable=False)
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        w = tf.Variable(tf.zeros([3, 1]), name="w")
        b = tf.Variable(tf.zeros([1]), name="b")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
        tf.summary.scalar("loss", loss)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss,
                                                                  global_step=global_step)
        saver = tf.train.Saver()
        summary_op = tf.summary.merge_all()
        init_op = tf.global_variables_initializer()

    # summary_op=None: the summary needs the fed examples, so the chief computes it in its
    # own loop (a Supervisor's summary thread would run it without them).
    sv = tf.train.Supervisor(is_chief=is_chief, logdir=FLAGS.logdir, init_op=init_op,
                             summary_op=None, saver=saver, global_step=global_step,
                             recovery_wait_secs=1, save_model_secs=600)
    if is_chief:
        print("Worker %d: Initializing session..." % FLAGS.task_index)
    else:
        print("Worker %d: Waiting for session to be initialized..." % FLAGS.task_index)
    features, targets = shard(FLAGS.task_index)
    with sv.managed_session(server.target, config=config) as sess:
        print("Worker %d: Session initialization complete." % FLAGS.task_index)
        local_step = 0
        while not sv.should_stop() and local_step < FLAGS.train_steps:
            feed = {x: features, y: targets}
            _, loss_value, step = sess.run([train_op, loss, global_step], feed)
            local_step += 1
            if local_step % 100 == 0:
                if is_chief:
                    sv.summary_computed(sess, sess.run(summary_op, feed))
                print("Worker %d: training step %d done (global step: %d), loss %.4f"
                      % (FLAGS.task_index, local_step, step, loss_value))
        w_value, b_value = sess.run([w, b])
        print("Worker %d: trained %d steps, w [%s] b %.3f" % (
            FLAGS.task_index, local_step, ", ".join("%.3f" % v for v in w_value.ravel()),
            b_value[0]))
        if is_chief:
            print("Worker %d: checkpoint written: %s"
                  % (FLAGS.task_index, tf.train.latest_checkpoint(FLAGS.logdir) is not None))
    sv.stop()


if __name__ == "__main__":
    tf.app.run()
