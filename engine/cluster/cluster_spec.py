"""tf.train.ClusterSpec: the jobs of a cluster and the address of each of their tasks.

As TensorFlow's (python/training/server_lib.py): built from a dict (job -> list of
addresses, or job -> {task index: address}), a ClusterDef or another ClusterSpec; jobs keep
the order they were given in, a job's tasks are sorted by index.
"""

import socket

from engine.proto import cluster_pb2


class ClusterSpec:
    """tf.train.ClusterSpec(cluster)."""

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            self._cluster_spec = {}
            for job, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    self._cluster_spec[job] = dict(enumerate(tasks))
                elif isinstance(tasks, dict):
                    self._cluster_spec[job] = {int(i): address for i, address in tasks.items()}
                else:
                    raise TypeError("The tasks for job %r must be a list or a dictionary "
                                    "from integers to strings." % job)
        elif isinstance(cluster, cluster_pb2.ClusterDef):
            self._cluster_spec = {job.name: {i: job.tasks[i] for i in job.tasks}
                                  for job in cluster.job}
        elif isinstance(cluster, ClusterSpec):
            self._cluster_spec = {job: dict(tasks) for job, tasks in cluster._cluster_spec.items()}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")
        for job, tasks in self._cluster_spec.items():
            for address in tasks.values():
                if not isinstance(address, str):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")

    def __bool__(self):
        return bool(self._cluster_spec)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self._cluster_spec == other._cluster_spec

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __str__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    __repr__ = __str__

    def as_dict(self):
        """job -> list of addresses, or {index: address} where some indices are missing."""
        out = {}
        for job, tasks in self._cluster_spec.items():
            indices = sorted(tasks)
            if indices == list(range(len(indices))):
                out[job] = [tasks[i] for i in indices]
            else:
                out[job] = {i: tasks[i] for i in indices}
        return out

    def as_cluster_def(self):
        cluster_def = cluster_pb2.ClusterDef()
        for job in sorted(self._cluster_spec):
            job_def = cluster_def.job.add(name=job)
            for index, address in sorted(self._cluster_spec[job].items()):
                job_def.tasks[index] = address
        return cluster_def

    @property
    def jobs(self):
        return list(self._cluster_spec)

    def num_tasks(self, job_name):
        return len(self._tasks(job_name))

    def task_indices(self, job_name):
        return sorted(self._tasks(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name):
        """Addresses by index, None where an index has no task."""
        tasks = self._tasks(job_name)
        if not tasks:
            return []
        out = [None] * (max(tasks) + 1)
        for index, address in tasks.items():
            out[index] = address
        return out

    def _tasks(self, job_name):
        if job_name not in self._cluster_spec:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._cluster_spec[job_name]

    # Devices -----------------------------------------------------------------------------

    def task_names(self):
        """`/job:J/task:T` of every task, jobs in order, tasks by index."""
        return [f"/job:{job}/task:{i}" for job in self._cluster_spec
                for i in sorted(self._cluster_spec[job])]

    def devices(self):
        """Every task's CPU:0, as the placer names it."""
        return [task_device(name) for name in self.task_names()]

    def find_task(self, address):
        """The `/job:J/task:T` whose address is `address` (host:port), or None."""
        for job, tasks in self._cluster_spec.items():
            for index, candidate in tasks.items():
                if candidate == address:
                    return f"/job:{job}/task:{index}"
        # A worker listens where its host name resolves (localhost:2222 is 127.0.0.1:2222).
        wanted = _resolved(address)
        for job, tasks in self._cluster_spec.items():
            for index, candidate in tasks.items():
                if _resolved(candidate) == wanted:
                    return f"/job:{job}/task:{index}"
        return None


def _resolved(address):
    """(IP address, port) of host:port, or the text itself where the host does not resolve."""
    host, _, port = address.rpartition(":")
    try:
        return socket.gethostbyname(host.strip("[]")), port
    except OSError:
        return address


def of_client(client):
    """The ClusterSpec of the tasks a Dask client's scheduler knows: each task's address is
    its worker's (host:port). Asked of the scheduler itself: the client's own copy of its
    workers may lag behind (it was once empty)."""
    jobs = {}
    identity = client.sync(client.scheduler.identity, n_workers=-1)
    for address, worker in identity["workers"].items():
        job, index = task_of(str(worker.get("name", "")))
        if job is not None:
            jobs.setdefault(job, {})[index] = address.split("://", 1)[-1]
    return ClusterSpec({job: dict(sorted(tasks.items())) for job, tasks in sorted(jobs.items())})


def task_device(task, device_type="CPU", index=0):
    """The full device name of a task's device.

    >>> task_device("/job:ps/task:1")
    '/job:ps/replica:0/task:1/device:CPU:0'
    """
    job, task_index = task_of(task)
    return f"/job:{job}/replica:0/task:{task_index}/device:{device_type}:{index}"


def task_of(device):
    """(job, task index) of a device or task name.

    >>> task_of("/job:worker/replica:0/task:1/device:CPU:0")
    ('worker', 1)
    """
    job, task = None, 0
    for part in device.split("/"):
        if part.startswith("job:"):
            job = part[4:]
        elif part.startswith("task:"):
            task = int(part[5:])
    return job, task


def task_name(device):
    """`/job:J/task:T` of a full device name."""
    job, task = task_of(device)
    return f"/job:{job}/task:{task}"


def device_label(device, compact=False):
    """A device as the debugger shows it: the device alone in this process, with its task
    on a cluster (a node event names where it ran); `compact` for a table's column: the
    task, and the device only when it is not the task's CPU:0.

    >>> device_label("/job:localhost/replica:0/task:0/device:CPU:1")
    'CPU:1'
    >>> device_label("/job:ps/replica:0/task:0/device:CPU:0")
    '/job:ps/task:0/CPU:0'
    >>> device_label("/job:worker/replica:0/task:1/device:CPU:0", compact=True)
    'worker:1'
    >>> device_label("/job:worker/replica:0/task:1/device:GPU:0", compact=True)
    'worker:1/GPU:0'
    """
    short = device.rpartition("device:")[2] or device or "?"
    job, task = task_of(device or "")
    if job in (None, "localhost"):
        return short
    if compact:
        return f"{job}:{task}" if short == "CPU:0" else f"{job}:{task}/{short}"
    return f"{task_name(device)}/{short}"
