"""Synchronous between-graph replication with tf.train.SyncReplicasOptimizer, as TF 1.x ran it.

One command per task (1 ps, 2 workers):
    python distributed_sync_replicas.py --ps_hosts=H:P --worker_hosts=H:P,H:P \
        --job_name=ps|worker --task_index=N
Each worker pushes its gradient into the accumulators on the ps and waits for a token; the
chief's queue runner averages the two workers' gradients, applies them, bumps the global
step and hands out the next tokens, so every step uses both workers' gradients at the same
variables. The token a step returns is the global step it finished, and the loss a worker
computes at step N is the loss of the variables after step N-1: the same numbers on every
run, whichever worker is faster.
"""
# fixtures: tools/make_distributed_fixtures.py (one process per task)

import numpy as np

import engine as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("worker_hosts", "", "Comma-separated list of hostname:port pairs")
flags.DEFINE_string("job_name", "", "One of 'ps', 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_integer("train_steps", 20, "Global steps to train")
flags.DEFINE_string("logdir", "", "Unused: the chief writes no checkpoints here")
FLAGS = flags.FLAGS


def shard(task_index):
    """This worker's 8 examples of a noisy linear problem with 4 features."""
    rng = np.random.RandomState(7 + task_index)
    features = rng.uniform(-1.0, 1.0, size=(8, 4)).astype(np.float32)
    targets = features.dot(np.array([[1.5], [-0.5], [0.25], [2.0]], np.float32)) - 0.75
    targets += rng.normal(scale=0.1, size=targets.shape)
    return features, targets.astype(np.float32)


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    num_workers = cluster.num_tasks("worker")
    is_chief = FLAGS.task_index == 0
    # This worker's sessions see the ps and itself only: a session waits for every task it
    # sees, and the other worker may have finished already.
    config = tf.ConfigProto(
        device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        hidden = tf.layers.dense(x, 3, activation=tf.nn.tanh, name="hidden",
                                 kernel_initializer=tf.truncated_normal_initializer(stddev=0.5,
                                                                                   seed=1))
        prediction = tf.layers.dense(hidden, 1, name="out",
                                     kernel_initializer=tf.truncated_normal_initializer(stddev=0.5,
                                                                                   seed=2))
        loss = tf.losses.mean_squared_error(y, prediction)
        opt = tf.train.SyncReplicasOptimizer(tf.train.MomentumOptimizer(0.2, 0.5),
                                             replicas_to_aggregate=num_workers,
                                             total_num_replicas=num_workers)
        train_op = opt.minimize(loss, global_step=global_step)

    # No initial tokens: the first step waits for both workers too, so no gradient is
    # computed at variables that are about to change.
    sync_hook = opt.make_session_run_hook(is_chief, num_tokens=0)
    hooks = [sync_hook, tf.train.StopAtStepHook(last_step=FLAGS.train_steps)]
    features, targets = shard(FLAGS.task_index)
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief,
                                           config=config, hooks=hooks,
                                           stop_grace_period_secs=1) as sess:
        while not sess.should_stop():
            step, loss_value = sess.run([train_op, loss], {x: features, y: targets})
            print("Worker %d: step %d loss %.6f" % (FLAGS.task_index, step, loss_value))
    # The monitored session refuses runs once it should stop; a plain one reads the result.
    with tf.Session(server.target, config=config) as sess:
        weights = sess.run(tf.trainable_variables())
    print("Worker %d: final %s" % (FLAGS.task_index, " ".join(
        "%.5f" % v for array in weights for v in np.ravel(array))))


if __name__ == "__main__":
    tf.app.run()
