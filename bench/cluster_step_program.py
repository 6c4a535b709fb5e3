"""The program bench/cluster_step.py times: one task of a 1-ps 2-worker between-graph
cluster, as TF 1.x programs ran it (one command per task). Each worker trains a small
linear model on the ps's variables with a SessionManager session, then times `steps`
training steps while the other worker trains too, and prints "step_ms <median>".

Runs on the engine (`import engine as tf`) or, through tools/tf_shim, on TensorFlow:
    python bench/cluster_step_program.py PS WORKER0,WORKER1 JOB INDEX STEPS
"""

import statistics
import sys
import time

import numpy as np

import engine as tf

WARMUP = 20


def main(ps, workers, job, index, steps):
    cluster = tf.train.ClusterSpec({"ps": [ps], "worker": workers.split(",")})
    server = tf.train.Server(cluster, job_name=job, task_index=index)
    if job == "ps":
        server.join()
        return
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.Variable(tf.zeros([3, 1]))
        b = tf.Variable(tf.zeros([1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=global_step)
        init = tf.global_variables_initializer()
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % index])
    manager = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables(),
                                      recovery_wait_secs=0.2)
    if index == 0:
        sess = manager.prepare_session(server.target, init_op=init, config=config)
    else:
        sess = manager.wait_for_session(server.target, config=config)
    rng = np.random.RandomState(index)
    feed = {x: rng.randn(16, 3).astype(np.float32), y: rng.randn(16, 1).astype(np.float32)}
    for _ in range(WARMUP):
        sess.run([train, loss], feed)
    times, cpu = [], time.process_time()
    for _ in range(steps):
        start = time.perf_counter()
        sess.run([train, loss], feed)
        times.append(time.perf_counter() - start)
    cpu = time.process_time() - cpu
    times.sort()
    print("step_ms %.3f p10 %.3f p90 %.3f cpu_ms %.3f" % (
        statistics.median(times) * 1e3, times[len(times) // 10] * 1e3,
        times[len(times) * 9 // 10] * 1e3, cpu / steps * 1e3), flush=True)
    sess.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
