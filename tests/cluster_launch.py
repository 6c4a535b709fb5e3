"""Launching a distributed program as TF 1.x users launched it: one process per task of a
1-ps 2-worker cluster on this machine, each given the same --ps_hosts/--worker_hosts (free
localhost ports picked now) and its own --job_name/--task_index, and nothing else.

The workers run to their end; the ps serves until it is told to stop (SIGTERM), as a
TensorFlow ps that server.join()s does. Used by tests/engine/test_distributed_programs.py
(the engine) and tools/make_distributed_fixtures.py (TensorFlow, through tools/tf_shim).
"""

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass

WORKERS = 2


@dataclass
class Task:
    name: str            # "ps0", "worker0", ...
    returncode: int
    stdout: str
    stderr: str


def free_port():
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def launch(python, program, pythonpath, extra_args=(), timeout=240, cwd=None):
    """Runs every task of `program` with `python`; {task name: Task}. The workers are
    started first, the ps last, so that the workers wait for it as they wait for TensorFlow's.
    A task still running at `timeout` seconds is killed (SIGKILL) and reported with
    returncode None."""
    ps_hosts = f"localhost:{free_port()}"
    worker_hosts = ",".join(f"localhost:{free_port()}" for _ in range(WORKERS))
    env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONHASHSEED="0",
               TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("DASK_SCHEDULER_ADDRESS", None)  # the tasks find their scheduler themselves
    common = [python, str(program), f"--ps_hosts={ps_hosts}", f"--worker_hosts={worker_hosts}",
              *extra_args]
    order = [(f"worker{i}", "worker", i) for i in range(WORKERS)] + [("ps0", "ps", 0)]
    procs = {}
    for name, job, index in order:
        procs[name] = subprocess.Popen(common + [f"--job_name={job}", f"--task_index={index}"],
                                       env=env, cwd=cwd, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
    give_up = time.monotonic() + timeout
    tasks = {}
    try:
        for name in [n for n in procs if n != "ps0"]:
            tasks[name] = _finish(name, procs[name], give_up)
    finally:
        ps = procs["ps0"]
        if ps.poll() is None:
            ps.send_signal(signal.SIGTERM)
        tasks["ps0"] = _finish("ps0", ps, time.monotonic() + 30)
        for name, proc in procs.items():
            if name not in tasks:
                tasks[name] = _finish(name, proc, time.monotonic())
    return tasks


def _finish(name, proc, give_up):
    try:
        stdout, stderr = proc.communicate(timeout=max(0.1, give_up - time.monotonic()))
        return Task(name, proc.returncode, stdout, stderr)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        return Task(name, None, stdout, stderr)
