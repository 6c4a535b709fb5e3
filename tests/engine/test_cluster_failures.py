"""A cluster's tasks fail and come back as TensorFlow's do: each task its own process,
launched as TensorFlow's (one command per task, nothing else).

- A worker killed mid-training and started again with the same command rejoins: it waits
  for the model the chief made ready, as before, and trains to its end.
- The ps killed mid-training: the chief's step fails with UnavailableError naming
  /job:ps/task:0 (its MonitoredTrainingSession logs it as TensorFlow's does), the worker's
  server finds the ps's new process when it is started again, and the monitored session
  makes a new session there (initializing the variables anew, as with TensorFlow: no
  checkpoint) and trains to its last step.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from tests.cluster_launch import free_port  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SUPERVISED = REPO / "tests" / "programs" / "distributed_supervisor.py"
pytestmark = pytest.mark.slow

# One task of a 1-ps 1-worker cluster: the ps serves, the worker trains in a monitored
# session to a step given on its command line, saying where it is every 100 steps.
MONITORED_TASK = textwrap.dedent("""
    import sys
    import engine as tf
    ps, worker, job, last_step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    tf.logging.set_verbosity(tf.logging.INFO)
    cluster = tf.train.ClusterSpec({"ps": [ps], "worker": [worker]})
    server = tf.train.Server(cluster, job_name=job, task_index=0)
    if job == "ps":
        server.join()
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        step = tf.train.get_or_create_global_step()
        v = tf.Variable(1.0, name="v")
        train = tf.group(tf.assign_add(v, 1.0), tf.assign_add(step, 1))
    hooks = [tf.train.StopAtStepHook(last_step=last_step)]
    with tf.train.MonitoredTrainingSession(master=server.target, hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(train)
            value = sess.run(step)
            if value % 100 == 0:
                print("at step", value, flush=True)
    print("done", flush=True)
""")


def start(args, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED="0")
    env.pop("DASK_SCHEDULER_ADDRESS", None)
    return subprocess.Popen([sys.executable, *args], env=env, cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def read_until(proc, wanted, timeout=120):
    """The lines `proc` printed up to one containing `wanted` (AssertionError after
    `timeout` seconds or at its end)."""
    lines, give_up = [], time.monotonic() + timeout
    while time.monotonic() < give_up:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if wanted in line:
            return lines
    raise AssertionError(f"no {wanted!r} in {lines} (stderr: {proc.stderr.read()[-3000:]})")


def stop_all(procs):
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_a_worker_killed_and_started_again_rejoins(tmp_path):
    hosts = [f"--ps_hosts=localhost:{free_port()}",
             f"--worker_hosts=localhost:{free_port()},localhost:{free_port()}",
             f"--logdir={tmp_path}", "--train_steps=4000"]
    ps = start([str(SUPERVISED), *hosts, "--job_name=ps", "--task_index=0"])
    chief = start([str(SUPERVISED), *hosts, "--job_name=worker", "--task_index=0"])
    worker = start([str(SUPERVISED), *hosts, "--job_name=worker", "--task_index=1"])
    procs = [ps, chief, worker]
    try:
        read_until(worker, "training step 100 done")
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        again = start([str(SUPERVISED), *hosts, "--job_name=worker", "--task_index=1"])
        procs.append(again)
        out, err = again.communicate(timeout=240)
        assert again.returncode == 0, err[-3000:]
        assert out.splitlines()[:2] == ["Worker 1: Waiting for session to be initialized...",
                                        "Worker 1: Session initialization complete."]
        assert out.splitlines()[-1] == "Worker 1: trained 4000 steps, w [0.500, -1.000, " \
                                       "2.000] b 0.250"
        out, err = chief.communicate(timeout=240)
        assert chief.returncode == 0, err[-3000:]
    finally:
        stop_all(procs)


def test_a_ps_killed_is_unavailable_then_rejoined_by_the_monitored_session():
    ps_address, worker_address = f"localhost:{free_port()}", f"localhost:{free_port()}"
    task = ["-c", MONITORED_TASK, ps_address, worker_address]
    ps = start([*task, "ps", "0"])
    worker = start([*task, "worker", "1000000"])
    procs = [ps, worker]
    try:
        read_until(worker, "at step 200")
        ps.send_signal(signal.SIGKILL)
        ps.wait()
        time.sleep(1.0)  # the worker's steps fail meanwhile; its session keeps trying
        ps = start([*task, "ps", "0"])
        procs.append(ps)
        # The new session initializes the variables anew (no checkpoint): from step 0.
        lines = read_until(worker, "at step 100", timeout=180)
        assert lines[-1] == "at step 100\n"
        worker.send_signal(signal.SIGKILL)
        _, err = worker.communicate(timeout=60)
        preempted = [line for line in err.splitlines() if "An error was raised. This may be "
                     "due to a preemption" in line]
        assert preempted and "Task /job:ps/task:0 is unavailable" in preempted[0], err[-3000:]
    finally:
        stop_all(procs)
