"""A cluster of TensorFlow tasks on this machine: a Dask SpecCluster whose workers are named
by their tasks (`/job:ps/task:0`, ...), in threads of this process or in processes of their
own (each worker then in a Nanny, as Dask's LocalCluster starts them)."""

import logging
import re

from engine.cluster.cluster_spec import of_client

_JOB_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

# Every task is a Dask worker in this process: its own port, comms and heartbeats on this
# process's one event loop, and threads_per_task threads once it runs. Measured on 2 cores:
# 64 are up in 0.3 s, 256 in 2.5 s, 1024 never (their heartbeats time out after minutes).
# TF1 clusters on one machine are a few ps and workers; a fixed bound, well inside what
# starts, keeps the error the same on every machine.
MAX_LOCAL_TASKS = 64


def parse_jobs(text):
    """{"ps": 1, "worker": 2} from "ps=1,worker=2" (graph-inspector run --local-cluster).

    >>> parse_jobs("ps=1,worker=2")
    {'ps': 1, 'worker': 2}
    >>> parse_jobs("ps=1,ps=2")
    Traceback (most recent call last):
    ...
    ValueError: job 'ps' given twice in 'ps=1,ps=2'
    >>> parse_jobs("a/b=1")
    Traceback (most recent call last):
    ...
    ValueError: job name 'a/b' is not a letter then letters, digits or '_' (as in /job:NAME)
    >>> parse_jobs("ps=1,worker=99999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 100000 tasks in 'ps=1,worker=99999': a local cluster runs at most 64 (...)
    """
    jobs = {}
    for item in text.split(","):
        job, sep, count = item.strip().partition("=")
        # ASCII digits only: str.isdigit() also takes '²', which int() refuses.
        if not sep or not job or not re.fullmatch(r"[0-9]+", count) or int(count) < 1:
            raise ValueError(f"expected JOB=N[,JOB=N...] (as ps=1,worker=2), got {text!r}")
        # A job name becomes part of each task's device name (/job:NAME/task:N); TensorFlow's
        # DeviceNameUtils takes only these.
        if not _JOB_NAME.fullmatch(job):
            raise ValueError(f"job name {job!r} is not a letter then letters, digits or '_' "
                             f"(as in /job:NAME)")
        if job in jobs:
            raise ValueError(f"job {job!r} given twice in {text!r}")
        jobs[job] = int(count)
    tasks = sum(jobs.values())
    if tasks > MAX_LOCAL_TASKS:
        raise ValueError(f"{tasks} tasks in {text!r}: a local cluster runs at most "
                         f"{MAX_LOCAL_TASKS} (each task is a Dask worker of this process)")
    return jobs


def local_cluster(jobs, processes=False, threads_per_task=2):
    """A running Dask SpecCluster with one worker per task of `jobs` ({job: task count})."""
    from distributed import Nanny, Scheduler, SpecCluster, Worker
    workers = {f"/job:{job}/task:{i}": {"cls": Nanny if processes else Worker,
                                         "options": {"nthreads": threads_per_task,
                                                     "host": "127.0.0.1",
                                                     "dashboard_address": "127.0.0.1:0",
                                                     "silence_logs": logging.ERROR}}
               for job, count in jobs.items() for i in range(count)}
    # Dask's HTTP servers on this host only, at ports of the system's choosing (the
    # scheduler's default is 8787).
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard": False,
                                               "dashboard_address": "127.0.0.1:0"}}
    cluster = SpecCluster(workers=workers, scheduler=scheduler, asynchronous=False,
                          name="graph-inspector", silence_logs=logging.ERROR)
    address = cluster.scheduler_address
    closing = cluster.close

    def close(*args, **kwargs):
        # The sessions' shared client first: left connected, it reports the closing
        # scheduler's comms with tracebacks.
        from engine.cluster import connection
        connection.close_client(address)
        return closing(*args, **kwargs)
    cluster.close = close
    return cluster


cluster_spec = of_client  # the ClusterSpec of a client's scheduler (tests, bench)
