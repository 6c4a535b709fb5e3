"""The Dask worker behind a tf.train.Server: started in this process, or joined where it runs.

`start(task, address)` gives the Server its task's worker. Where a Dask worker already
listens at the task's address (a LocalCluster's, or a `dask worker --name /job:ps/task:0`
started by hand) and the scheduler knows it by that task's name, the Server joins it: `join()`
waits for it to stop. Otherwise it starts one here, on a thread with its own event loop,
named by the task and listening on the task's address, and it joins the scheduler that Dask's
configuration names (`DASK_SCHEDULER_ADDRESS` or `scheduler-address`); a one-task cluster
(Server.create_local_server) with none configured gets a scheduler of its own here.
"""

import asyncio
import logging
import socket
import threading

from engine.framework import errors
from engine.cluster.connection import listening

START_TIMEOUT_S = 30


def free_port():
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def configured_scheduler():
    import dask
    return dask.config.get("scheduler-address", None)


class _LoopThread:
    """An asyncio loop on a daemon thread: the worker's (and a private scheduler's)."""

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


async def _identity(address, **kwargs):
    """The Dask server at `address` says what it is, or None when nothing listens there."""
    from distributed import rpc
    remote = rpc(address, timeout=2)
    try:
        return await remote.identity(**kwargs)
    except OSError:
        return None
    finally:
        await remote.close_rpc()


async def _task_at(address):
    """(scheduler address, name the scheduler knows the worker at `address` by), or None."""
    identity = await _identity(address)
    if identity is None:
        return None
    if identity.get("type") not in ("Worker", "Nanny"):
        raise errors.UnavailableError(None, None, f"{address} is a Dask {identity.get('type')}"
                                      f", not a worker")
    scheduler = identity["scheduler"]
    workers = ((await _identity(scheduler, n_workers=-1)) or {}).get("workers", {})
    return scheduler, str(workers.get(address, {}).get("name", ""))


class JoinedWorker:
    """A task's worker that runs elsewhere (another process started it): this Server only
    waits on it."""

    def __init__(self, task, address, loop_thread):
        self.task, self.address, self._loop = task, address, loop_thread
        self._stopped = threading.Event()

    def join(self):
        while not self._stopped.wait(1.0):
            if self._loop.call(_identity(self.address), timeout=10) is None:
                return

    def stop(self):
        self._stopped.set()
        self._loop.close()


class StartedWorker:
    """A task's Dask worker started by this process (and a scheduler, for a one-task
    cluster with none configured)."""

    def __init__(self, task, address, scheduler, nthreads):
        from distributed import Scheduler, Worker
        from engine.cluster.task import TaskPlugin
        self.task = task
        self._loop = _LoopThread(f"dask-worker {task}")
        host, _, port = address.rpartition(":")
        self.scheduler = None

        async def start():
            target = scheduler
            if target is None:
                self.scheduler = await Scheduler(host="127.0.0.1", port=0, dashboard=False,
                                                 dashboard_address=None)
                target = self.scheduler.address
            return await Worker(target, name=task, host=host, port=int(port),
                                nthreads=nthreads, dashboard=False, plugins=(TaskPlugin(),),
                                silence_logs=logging.ERROR, memory_limit=0)
        try:
            self.worker = self._loop.call(start(), timeout=START_TIMEOUT_S)
        except Exception as error:
            self._loop.close()
            raise errors.UnavailableError(
                None, None, f"Task {task} could not start its Dask worker at {address} "
                            f"(scheduler {scheduler or 'of its own'}): "
                            f"{type(error).__name__}: {error}") from None
        self.address = self.worker.address

    def join(self):
        self._loop.call(self.worker.finished())

    def stop(self):
        async def close():
            await self.worker.close(timeout=10)
            if self.scheduler is not None:
                await self.scheduler.close()
        try:
            self._loop.call(close(), timeout=30)
        finally:
            self._loop.close()


def start(task, address, single_task=False, nthreads=2):
    """The worker of `task` (`/job:J/task:T`) at `address` (host:port): joined where one of
    that name listens there, else started here (see the module docstring)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ImportError("tf.train.Server runs its task on Dask distributed: "
                          "pip install 'graph-inspector[cluster]'") from None
    if not listening(address):
        return _start_here(task, address, single_task, nthreads)
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
    return _start_here(task, address, single_task, nthreads)


def _start_here(task, address, single_task, nthreads):
    scheduler = configured_scheduler()
    if scheduler is None and not single_task:
        raise errors.UnavailableError(
            None, None, f"Task {task} has no Dask scheduler to join: start one "
                        f"(`dask scheduler`) and name it in DASK_SCHEDULER_ADDRESS "
                        f"(or Dask's `scheduler-address` setting)")
    return StartedWorker(task, address, scheduler, nthreads)
