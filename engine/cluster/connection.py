"""A client's connection to a cluster: the Dask client, its tasks, and running one step.

`tf.Session(target)` names the cluster by its Dask scheduler (`tcp://host:8786`) or, as in
TensorFlow, by a task (`grpc://host:port`, the address of that task in the ClusterSpec, where
its Dask worker listens): the worker there tells the scheduler's address, and that task is the
session's master (its CPU:0 holds feeds, fetches and unconstrained nodes). With a scheduler
target the master is /job:worker/task:0 where there is one, else the first task.

A session of a task whose tf.train.Server runs in this process knows the cluster's
ClusterSpec: it waits, as TensorFlow's CreateSession does, until every task of it (those
ConfigProto.device_filters name, where it names some) has joined the scheduler. The tasks'
worker addresses are asked of the scheduler then, and again only after a step failed: what
crosses per step is the step's call to each task and the tensors (engine/cluster/
step_call.py). Every wait on the network has a deadline: connecting to a target, the
handshake with it, the scheduler's answers.
"""

import contextlib
import itertools
import threading
import time
import uuid

from engine.framework import errors
from engine.platform import tf_logging
from engine.cluster import step_call, task as task_lib, task_worker, trace as trace_lib
from engine.cluster.probe import identity, listening
from engine.cluster.cluster_spec import ClusterSpec, task_device, task_name, task_of

_clients, _clients_lock = {}, threading.Lock()
CONNECT_TIMEOUT_S = 20.0  # connect and handshake with a target or its scheduler
SCHEDULER_TIMEOUT_S = 10.0  # an answer from a connected scheduler
WAIT_LOG_S = 10  # how often a session waiting for its tasks says so, as TensorFlow's
_connect_timeout = threading.local()


@contextlib.contextmanager
def connect_timeout(seconds):
    """Connections made in this thread inside the block give up after `seconds`
    (graph-inspector run --connect-timeout)."""
    previous = getattr(_connect_timeout, "seconds", None)
    _connect_timeout.seconds = seconds
    try:
        yield
    finally:
        _connect_timeout.seconds = previous


def current_connect_timeout():
    return getattr(_connect_timeout, "seconds", None) or CONNECT_TIMEOUT_S


def _dask():
    try:
        import distributed
    except ImportError:
        raise ImportError("Running on a cluster needs Dask distributed: "
                          "pip install 'graph-inspector[cluster]'") from None
    return distributed


def client_for(scheduler, timeout=None):
    """One Dask client per scheduler address, shared by this process's sessions;
    UnavailableError when the scheduler does not answer within `timeout` seconds."""
    distributed = _dask()
    timeout = timeout or current_connect_timeout()
    with _clients_lock:
        client = _clients.get(scheduler)
        if client is None or client.status not in ("running", "connecting", "newly-created"):
            if client is not None:
                client.close()
            try:
                client = distributed.Client(scheduler, set_as_default=False, timeout=timeout)
                client.register_plugin(task_lib.TaskPlugin(), name=task_lib.PLUGIN_NAME)
            except (OSError, TimeoutError) as error:
                raise errors.UnavailableError(
                    None, None, f"The Dask scheduler at {scheduler} did not answer within "
                                f"{timeout:g} s: {error}") from None
            _clients[scheduler] = client
        return client


def close_client(scheduler):
    """Closes this process's client of `scheduler`, if it has one."""
    with _clients_lock:
        client = _clients.pop(scheduler, None)
    if client is not None:
        client.close()


def scheduler_of(target, timeout=None):
    """(scheduler address, master task address or None) for a session target; the Dask
    server there must answer its identity within `timeout` seconds."""
    timeout = timeout or current_connect_timeout()
    grpc = target.startswith("grpc://")
    address = target.split("://", 1)[-1]
    if not listening(address, timeout):
        what = "task" if grpc else "Dask scheduler"
        raise errors.UnavailableError(None, None, f"No {what} listens at {target}")
    loop_runner = _dask().utils.LoopRunner(asynchronous=False)
    loop_runner.start()
    try:
        from distributed.utils import sync
        found = sync(loop_runner.loop, identity, "tcp://" + address, timeout)
    finally:
        loop_runner.stop()
    if found is None:
        raise errors.UnavailableError(None, None, f"{target} accepted the connection but did "
                                      f"not answer Dask's handshake within {timeout:g} s")
    if grpc:
        if "scheduler" not in found:
            raise errors.UnavailableError(None, None, f"{target} is a Dask "
                                          f"{found.get('type')}, not a task's worker")
        return found["scheduler"], "tcp://" + address
    if found.get("type") != "Scheduler":
        raise errors.UnavailableError(None, None, f"{target} is a Dask {found.get('type')}, "
                                      f"not a scheduler")
    return target, None


def _matches(task, device_filters):
    """Whether `task` is among the tasks ConfigProto.device_filters name (all without any).

    >>> _matches("/job:worker/task:1", ["/job:ps", "/job:worker/task:0"])
    False
    >>> _matches("/job:ps/task:3", ["/job:ps", "/job:worker/task:0"])
    True
    """
    if not device_filters:
        return True
    job, index = task_of(task)
    for text in device_filters:
        wanted_job, wanted_index = task_of(text)
        if wanted_job in (None, job) and ("/task:" not in text or wanted_index == index):
            return True
    return False


class Connection:
    """A session's view of the cluster (see the module docstring)."""

    def __init__(self, target, config=None):
        timeout_ms = getattr(config, "operation_timeout_in_ms", 0) or 0
        deadline = time.monotonic() + timeout_ms / 1000 if timeout_ms > 0 else None
        local = task_worker.LOCAL.get(target[len("grpc://"):]) \
            if target.startswith("grpc://") else None
        if isinstance(local, task_worker.StartedWorker):
            local.wait_ready(deadline)
            scheduler, master_address = local.scheduler_address(), local.address
        else:
            scheduler, master_address = scheduler_of(target)
        self.client = client_for(scheduler)
        self.scheduler = scheduler
        filters = list(getattr(config, "device_filters", []) or [])
        if isinstance(local, task_worker.StartedWorker):
            self._wait_for_tasks([t for t in local.cluster.task_names() if _matches(t, filters)],
                                 deadline)
        self._workers = self._scheduler_workers()
        named = {task: address for task, address in self._workers.items()
                 if task.startswith("/job:") and _matches(task, filters)}
        self.cluster = _cluster_spec(named)
        tasks = self.cluster.task_names()
        if not tasks:
            raise errors.UnavailableError(None, None, f"No TensorFlow task among the Dask "
                                          f"workers of {scheduler} (a task's worker is named "
                                          f"by its task, as /job:worker/task:0)")
        master = None
        if master_address is not None:
            master = next((t for t, a in named.items() if a == master_address), None) or \
                self.cluster.find_task(master_address.split("://", 1)[-1])
        if master is None:
            master = "/job:worker/task:0" if "/job:worker/task:0" in tasks else tasks[0]
        self.master = master
        self.client_device = task_device(master)
        self.devices = [self.client_device] + [d for d in self.cluster.devices()
                                               if d != self.client_device]
        self._session = uuid.uuid4().hex
        self._handles = itertools.count()
        self._registered = set()  # (handle, worker address)
        self._offsets = {}  # (task, worker address) -> its clock minus ours, ns

    def _scheduler_workers(self):
        """task name -> worker address, asked of the scheduler itself (the client's own
        copy of its workers may lag behind)."""
        try:
            found = self.client.sync(self.client.scheduler.identity, n_workers=-1,
                                     callback_timeout=SCHEDULER_TIMEOUT_S)
        except (OSError, TimeoutError) as error:
            raise errors.UnavailableError(
                None, None, f"The cluster's Dask scheduler at {self.scheduler} is unavailable:"
                            f" {type(error).__name__}: {error}") from None
        return {str(worker.get("name", "")): address
                for address, worker in found["workers"].items()}

    def _wait_for_tasks(self, tasks, deadline):
        """Until every one of `tasks` has joined the scheduler, saying which it waits for
        every WAIT_LOG_S as TensorFlow's master does; DeadlineExceededError past `deadline`."""
        said = time.monotonic()
        while True:
            missing = [t for t in tasks if t not in self._scheduler_workers()]
            if not missing:
                return
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise errors.DeadlineExceededError(
                    None, None, "Timed out waiting for " + ", ".join(missing) + " to join the "
                                "cluster")
            if now - said >= WAIT_LOG_S:
                said = now
                for task in missing:
                    tf_logging.info("CreateSession still waiting for response from worker: %s",
                                    task_device(task).rpartition("/device:")[0])
            time.sleep(0.05)

    def new_handle(self):
        return f"{self._session}/graph{next(self._handles)}"

    def workers(self):
        """task name -> worker address, as the scheduler said when last asked."""
        return dict(self._workers)

    def clock_offset(self, task, address):
        """The task's clock minus this process's, in ns (measured once per worker)."""
        key = (task, address)
        if key not in self._offsets:
            samples = []
            for _ in range(3):
                sent = time.time_ns()
                task_ns = self.client.run(time.time_ns, workers=[address])[address]
                samples.append((sent, task_ns, time.time_ns()))
            self._offsets[key] = trace_lib.clock_offset(samples)
        return self._offsets[key]

    def run_step(self, handle, specs_by_task, step_id, feeds, timeout_ms, trace=False,
                 relay=None):
        """One step: every task's partitions on its worker. (The master's fetched values,
        every task's DeviceStepStats on this process's clock when `trace`.) `relay`: a
        relay.ClientRelay whose observers see the tasks' partitions."""
        workers = self._workers
        if any(task not in workers for task in specs_by_task):
            # A task that was missing when last asked (it restarted): ask again.
            workers = self._workers = self._scheduler_workers()
        step = f"{self._session}/{step_id}"
        calls = {}
        for task, specs in specs_by_task.items():
            address = workers.get(task)
            if address is None:
                raise errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: no Dask worker named {task} "
                                f"is connected to the scheduler")
            first = (handle, address) not in self._registered
            calls[task] = (handle, specs if first else None, workers, step, step_id,
                           feeds if task == self.master else [], timeout_ms, trace,
                           None if relay is None else relay.spec())
            self._registered.add((handle, address))
        call = step_call.StepCall(self.client, workers, calls, step,
                                  None if relay is None else relay.task_failed)
        answers, failures = call.run()
        if failures:
            raise self._failure(failures, workers)
        stats = []
        if trace:
            stats = [trace_lib.shifted(dev_stats, self.clock_offset(task, workers[task]))
                     for task, (_, recorded) in answers.items() for dev_stats in recorded]
        return (answers[self.master][0] if self.master in answers else []), stats

    def _failure(self, failures, workers):
        """The first cause among the failed tasks (a cancelled recv is a consequence); a task
        that failed otherwise than with an OpError (its worker died, the comm broke) is
        UnavailableError naming it, and its partitions are registered again next time,
        with the tasks' addresses asked of the scheduler again."""
        causes = []
        for task, error in failures.items():
            if not isinstance(error, errors.OpError) or isinstance(
                    error, (errors.UnavailableError, errors.AbortedError)):
                self._registered = {r for r in self._registered if r[1] != workers.get(task)}
            if not isinstance(error, errors.OpError):
                error = errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: {type(error).__name__}: {error}")
            if getattr(error, "task", None) is None:
                error.task = task
            causes.append(error)
        cause = next((e for e in causes if not isinstance(e, errors.CancelledError)), causes[0])
        if isinstance(cause, (errors.UnavailableError, errors.AbortedError)):
            try:
                self._workers = self._scheduler_workers()
            except errors.UnavailableError:
                pass  # the scheduler is gone too: the task's error says what failed first
        return cause


def _cluster_spec(named):
    """The ClusterSpec of {task name: worker address} (addresses as host:port)."""
    jobs = {}
    for task, address in named.items():
        job, index = task_of(task)
        jobs.setdefault(job, {})[index] = address.split("://", 1)[-1]
    return ClusterSpec({job: dict(sorted(tasks.items())) for job, tasks in sorted(jobs.items())})


def group_by_task(devices):
    """task name -> the devices of it, for a run's partition devices."""
    out = {}
    for device in devices:
        out.setdefault(task_name(device), []).append(device)
    return out
