"""The Dask worker behind a tf.train.Server: started in this process, or joined where it runs.

`start(task, address, cluster)` gives the Server its task's worker. Where a Dask worker already
listens at the task's address (a LocalCluster's, or a `dask worker --name /job:ps/task:0`
started by hand) and the scheduler knows it by that task's name, the Server joins it: `join()`
waits for it to stop. Otherwise it starts one here, on a thread with its own event loop,
named by the task and listening on the task's address.

Which scheduler it joins comes from the ClusterSpec alone, so a cluster is launched as
TensorFlow's is, one command per task: the chief (else the first ps, else the first task)
runs the cluster's Dask scheduler in its own process, on its host and a port the system
picks; every other task asks the Dask worker at that task's address which scheduler it
belongs to (its identity), waiting until it answers, as TensorFlow's tasks wait for each
other. A scheduler named in Dask's configuration (`DASK_SCHEDULER_ADDRESS`, or
`scheduler-address` in its config files) is joined instead: a real Dask cluster.

A started worker is kept: when it stops without being asked (its scheduler went away, with
the process that ran it), it finds the scheduler again and rejoins, with the task's
variables and partitions (its TaskState) as they were, as a TensorFlow server outlives a
restarted ps.
"""

import asyncio
import logging
import socket
import threading
import time

from engine.framework import errors
from engine.platform import tf_logging
from engine.cluster.cluster_spec import task_of
from engine.cluster.probe import identity, listening

START_TIMEOUT_S = 30
RETRY_S = 0.25            # between tries to reach the scheduler's task, or to register
WAIT_LOG_S = 10           # how often a waiting task says so (TensorFlow's CreateSession: 10 s)
# Dask's own housekeeping in a task's process, made rare: its statistical profiler samples
# every thread's stack every 10 ms and its event-loop monitor ticks every 20 ms; on a busy
# machine each such wake-up delays a step's threads (a TensorFlow task has neither).
QUIET_DASK = {"distributed.worker.profile.enabled": False,
              "distributed.admin.tick.interval": "1s",
              "distributed.admin.system-monitor.interval": "5s"}

# The workers this process started, by their task's address (engine/cluster/connection.py
# runs a session's own task here instead of calling it over the network).
LOCAL = {}
_LOCAL_LOCK = threading.Lock()


def free_port():
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def configured_scheduler():
    import dask
    return dask.config.get("scheduler-address", None)


def scheduler_task(cluster):
    """The task whose process runs the cluster's Dask scheduler: /job:chief/task:0 where
    there is a chief, else the first ps, else the first task.

    >>> from engine.cluster.cluster_spec import ClusterSpec
    >>> scheduler_task(ClusterSpec({"worker": ["a:1", "b:1"], "ps": ["c:1"]}))
    '/job:ps/task:0'
    >>> scheduler_task(ClusterSpec({"worker": ["a:1"], "chief": ["c:1"], "ps": ["d:1"]}))
    '/job:chief/task:0'
    """
    for job in ("chief", "ps"):
        if job in cluster.jobs and cluster.task_indices(job):
            return f"/job:{job}/task:{cluster.task_indices(job)[0]}"
    return cluster.task_names()[0]


class _LoopThread:
    """An asyncio loop on a daemon thread: the worker's (and the scheduler's, if here)."""

    def __init__(self, name):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()

    def call(self, coroutine, timeout=None):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        if not self.thread.is_alive():
            self.loop.close()


async def _task_at(address):
    """(scheduler address, name the scheduler knows the worker at `address` by), or None."""
    found = await identity(address)
    if found is None:
        return None
    if found.get("type") not in ("Worker", "Nanny"):
        raise errors.UnavailableError(None, None, f"{address} is a Dask {found.get('type')}"
                                      f", not a worker")
    scheduler = found["scheduler"]
    workers = ((await identity(scheduler, n_workers=-1)) or {}).get("workers", {})
    return scheduler, str(workers.get(address, {}).get("name", ""))


class JoinedWorker:
    """A task's worker that runs elsewhere (another process started it): this Server only
    waits on it."""

    def __init__(self, task, address, loop_thread):
        self.task, self.address, self._loop = task, address, loop_thread
        self._stopped = threading.Event()

    def join(self):
        while not self._stopped.wait(1.0):
            if self._loop.call(identity(self.address), timeout=30) is None:
                return

    def stop(self):
        self._stopped.set()
        self._loop.close()


class StartedWorker:
    """A task's Dask worker started by this process, kept running (see the module
    docstring); the cluster's scheduler too where this task runs it."""

    def __init__(self, task, address, cluster, nthreads):
        self.task, self.spec_address, self.cluster = task, address, cluster
        self._host, _, port = address.rpartition(":")
        self._port, self._nthreads = int(port), nthreads
        self._explicit = configured_scheduler()
        self._scheduler_task = scheduler_task(cluster)
        self._loop = _LoopThread(f"dask-worker {task}")
        self._stopping = False
        self.scheduler = None   # the Dask Scheduler, where this task runs it
        self.worker = None      # the running Dask Worker
        self.state = None       # the task's TaskState, kept across restarts
        self.ready = threading.Event()
        self.failure = None     # why the worker could not start (an error for the session)
        self.keeper = asyncio.run_coroutine_threadsafe(self._keep(), self._loop.loop)

    @property
    def address(self):
        return "tcp://" + self.spec_address

    def scheduler_address(self):
        return self.worker.scheduler.address if self.worker is not None else None

    async def _keep(self):
        while not self._stopping:
            try:
                scheduler = await self._find_scheduler()
                if scheduler is None:
                    return
                self.worker = await self._start_worker(scheduler)
            except Exception as error:  # noqa: BLE001  (the session reports it)
                self.failure = errors.UnavailableError(
                    None, None, f"Task {self.task} could not start its Dask worker at "
                                f"{self.spec_address}: {type(error).__name__}: {error}")
                self.ready.set()
                return
            self.ready.set()
            await self.worker.finished()
            self.ready.clear()
            self.worker = None

    async def _find_scheduler(self):
        """The scheduler's address: configured, started here, or asked of its task."""
        import dask
        from distributed import Scheduler
        if self._explicit:
            return self._explicit
        if self.task == self._scheduler_task:
            if self.scheduler is None or self.scheduler.status.name not in ("running",):
                # Its HTTP server too on the task's host only, at a port of the system's
                # choosing (Dask's default is 8787, on every interface where none is given).
                with dask.config.set(QUIET_DASK):
                    self.scheduler = await Scheduler(host=self._host, port=0, dashboard=False,
                                                     dashboard_address=f"{self._host}:0")
            return self.scheduler.address
        job, index = task_of(self._scheduler_task)
        where = "tcp://" + self.cluster.task_address(job, index)
        said = time.monotonic()
        while not self._stopping:
            found = await identity(where)
            if found is not None and found.get("scheduler"):
                return found["scheduler"]
            if time.monotonic() - said >= WAIT_LOG_S:
                said = time.monotonic()
                tf_logging.info("%s: waiting for %s at %s, whose process runs the cluster's "
                                "Dask scheduler", self.task, self._scheduler_task, where[6:])
            await asyncio.sleep(RETRY_S)
        return None

    async def _start_worker(self, scheduler):
        """A Worker named by the task at its address; retried while the scheduler still
        holds the name (the worker it replaces has not been missed yet)."""
        import dask
        from distributed import Worker
        from engine.cluster.task import TaskPlugin
        give_up = time.monotonic() + START_TIMEOUT_S
        while True:
            with dask.config.set(QUIET_DASK):
                worker = Worker(scheduler, name=self.task, host=self._host, port=self._port,
                                nthreads=self._nthreads, dashboard=False,
                                dashboard_address=f"{self._host}:0", plugins=(TaskPlugin(),),
                                silence_logs=logging.ERROR, memory_limit=0)
            if self.state is not None:  # the plugin binds the kept state to the new worker
                worker.graph_inspector_task = self.state
            try:
                await worker
            except ValueError as error:
                if "name taken" not in str(error) or time.monotonic() > give_up:
                    raise
                await asyncio.sleep(RETRY_S)
                continue
            self.state = worker.graph_inspector_task
            self.state.kept = True  # the plugin's teardown leaves it to stop()
            return worker

    def wait_ready(self, deadline=None):
        """Blocks until the worker runs (logging every WAIT_LOG_S, as TensorFlow's session
        waits for its tasks); DeadlineExceededError past `deadline` (time.monotonic())."""
        while not self.ready.wait(WAIT_LOG_S if deadline is None else
                                  max(0.0, min(WAIT_LOG_S, deadline - time.monotonic()))):
            if deadline is not None and time.monotonic() >= deadline:
                raise errors.DeadlineExceededError(
                    None, None, f"Task {self.task} is not running yet: its Dask worker has "
                                f"not joined a scheduler")
            tf_logging.info("%s: waiting to join the cluster's Dask scheduler", self.task)
        if self.failure is not None:
            raise self.failure

    def join(self):
        """Blocks until stop() (a lost scheduler is rejoined, not an end)."""
        self.keeper.result()

    def stop(self):
        self._stopping = True

        async def close():
            if self.worker is not None:
                await self.worker.close(timeout=10)
            if self.scheduler is not None:
                await self.scheduler.close()
        try:
            self._loop.call(close(), timeout=30)
            self.keeper.result(timeout=30)
        finally:
            with _LOCAL_LOCK:
                if LOCAL.get(self.spec_address) is self:
                    del LOCAL[self.spec_address]
            if self.state is not None:
                self.state.close()
            self._loop.close()


def start(task, address, cluster, nthreads=2):
    """The worker of `task` (`/job:J/task:T`) at `address` (host:port) of `cluster`: joined
    where one of that name listens there, else started here (see the module docstring)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ImportError("tf.train.Server runs its task on Dask distributed: "
                          "pip install 'graph-inspector[cluster]'") from None
    if listening(address):
        probe = _LoopThread(f"probe {task}")
        try:
            found = probe.call(_task_at("tcp://" + address), timeout=START_TIMEOUT_S)
        except BaseException:
            probe.close()
            raise
        if found is not None:
            scheduler, name = found
            if name != task:
                probe.close()
                raise errors.UnavailableError(
                    None, None, f"Task {task}: the Dask worker at {address} is "
                                f"{name or 'unnamed'} (scheduler {scheduler}), not {task}")
            return JoinedWorker(task, "tcp://" + address, probe)
        probe.close()
        raise errors.UnknownError(None, None, f"Could not start the server of {task}: "
                                  f"{address} is taken by something that is no Dask worker")
    _check_bindable(task, address)
    # The task's program prints its own output; Dask's INFO lines (connections, workers
    # joining) would go between, as TensorFlow's servers log only what goes wrong.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    worker = StartedWorker(task, address, cluster, nthreads)
    with _LOCAL_LOCK:
        LOCAL[address] = worker
    if worker.task == worker._scheduler_task or worker._explicit:
        # Nothing to wait for: a bad address or scheduler shows at once, as TensorFlow's
        # Server() fails at once on a port it cannot bind.
        worker.wait_ready(time.monotonic() + START_TIMEOUT_S)
    return worker


def _check_bindable(task, address):
    """UnknownError (TensorFlow's "Could not start gRPC server") unless this process can
    listen at `address` now."""
    host, _, port = address.rpartition(":")
    try:
        with socket.socket() as sock:
            # As the worker's listener will: a port a stopped server left in TIME_WAIT is free.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host.strip("[]"), int(port)))
    except (OSError, ValueError) as error:
        raise errors.UnknownError(None, None, f"Could not start the server of {task} at "
                                  f"{address}: {error}") from None
