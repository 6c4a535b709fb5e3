"""A client's connection to a cluster: the Dask client, its tasks, and running one step.

`tf.Session(target)` names the cluster by its Dask scheduler (`tcp://host:8786`) or, as in
TensorFlow, by a task (`grpc://host:port`, the address of that task in the ClusterSpec, where
its Dask worker listens): the worker there tells the scheduler's address, and that task is the
session's master (its CPU:0 holds feeds, fetches and unconstrained nodes). With a scheduler
target the master is /job:worker/task:0 where there is one, else the first task.
A step calls every task's worker at once, straight over Dask's comms (a handler the task
plugin adds, engine/cluster/task.py), not as scheduler tasks: a scheduled task costs several
scheduler round trips a step. A failure anywhere aborts the step on the other tasks.
"""

import itertools
import socket
import threading
import time
import uuid

from engine.framework import errors
from engine.cluster import task as task_lib, trace as trace_lib
from engine.cluster.cluster_spec import of_client, task_device, task_name

_clients, _clients_lock = {}, threading.Lock()
LIVENESS_CHECK_S = 1.0  # how often a waiting step looks whether its tasks' workers are alive


def _dask():
    try:
        import distributed
    except ImportError:
        raise ImportError("Running on a cluster needs Dask distributed: "
                          "pip install 'graph-inspector[cluster]'") from None
    return distributed


def client_for(scheduler):
    """One Dask client per scheduler address, shared by this process's sessions."""
    distributed = _dask()
    with _clients_lock:
        client = _clients.get(scheduler)
        if client is None or client.status not in ("running", "connecting", "newly-created"):
            client = _clients[scheduler] = distributed.Client(
                scheduler, set_as_default=False, timeout=30)
            client.register_plugin(task_lib.TaskPlugin(), name=task_lib.PLUGIN_NAME)
        return client


def close_client(scheduler):
    """Closes this process's client of `scheduler`, if it has one."""
    with _clients_lock:
        client = _clients.pop(scheduler, None)
    if client is not None:
        client.close()


def scheduler_of(target):
    """(scheduler address, master task address or None) for a session target."""
    if target.startswith("grpc://"):
        address = "tcp://" + target[len("grpc://"):]
        if not listening(target[len("grpc://"):]):
            raise errors.UnavailableError(None, None, f"No task listens at {target}")
        distributed = _dask()
        from distributed.utils import sync

        async def identity():
            rpc = distributed.rpc(address, timeout=10)
            try:
                return await rpc.identity()
            finally:
                await rpc.close_rpc()
        loop_runner = distributed.utils.LoopRunner(asynchronous=False)
        loop_runner.start()
        try:
            info = sync(loop_runner.loop, identity)
        except OSError as error:
            raise errors.UnavailableError(None, None, f"No task listens at {target}: "
                                          f"{error}") from None
        finally:
            loop_runner.stop()
        return info["scheduler"], address
    if target.startswith("tcp://") and not listening(target[len("tcp://"):]):
        raise errors.UnavailableError(None, None, f"No Dask scheduler listens at {target}")
    return target, None


def listening(address):
    """Whether anything accepts connections at host:port (Dask's own connect retries a
    refused address until its timeout)."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=2):
            return True
    except (OSError, ValueError):
        return False


class Connection:
    """A session's view of the cluster (see the module docstring)."""

    def __init__(self, target):
        scheduler, master_address = scheduler_of(target)
        self.client = client_for(scheduler)
        self.cluster = of_client(self.client)
        tasks = self.cluster.task_names()
        if not tasks:
            raise errors.UnavailableError(None, None, f"No TensorFlow task among the Dask "
                                          f"workers of {scheduler} (a task's worker is named "
                                          f"by its task, as /job:worker/task:0)")
        master = None
        if master_address is not None:
            master = self.cluster.find_task(master_address.split("://", 1)[-1])
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

    def new_handle(self):
        return f"{self._session}/graph{next(self._handles)}"

    def workers(self):
        """task name -> worker address, as the scheduler knows them now."""
        out = {}
        for address, worker in self.client.scheduler_info(n_workers=-1)["workers"].items():
            out[str(worker.get("name", ""))] = address
        return out

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
        workers = self.workers()
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
        failed = relay.task_failed if relay is not None else None
        answers, failures = self.client.sync(self._call_tasks, workers, calls, step, failed)
        if failures:
            raise self._failure(failures, workers)
        stats = []
        if trace:
            stats = [trace_lib.shifted(dev_stats, self.clock_offset(task, workers[task]))
                     for task, (_, recorded) in answers.items() for dev_stats in recorded]
        return (answers[self.master][0] if self.master in answers else []), stats

    async def _call_tasks(self, workers, calls, step, failed=None):
        """Calls every task's worker at once (engine/cluster/task.py's run handler), until
        all answer, one fails or a task's worker leaves the scheduler; then the others'
        pending recvs are aborted, and `failed(task)` hears of each failed task (a relayed
        observer may be waiting on it). ({task: answer}, {task: error})."""
        import asyncio
        from distributed.protocol import to_serialize

        async def call(task):
            rpc = self.client.rpc(workers[task])
            answer = await getattr(rpc, task_lib.RUN_HANDLER)(payload=to_serialize(calls[task]))
            if isinstance(answer, task_lib.StepFailed):
                raise answer.error
            return answer
        pending = {asyncio.ensure_future(call(task)): task for task in calls}
        answers, failures = {}, {}
        while pending and not failures:
            done, _ = await asyncio.wait(pending, timeout=LIVENESS_CHECK_S,
                                         return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                try:
                    answers[task] = future.result()
                except Exception as error:  # noqa: BLE001  (sorted out by _failure)
                    failures[task] = error
            if not done:
                identity = await self.client.scheduler.identity(n_workers=-1)
                now = {str(w.get("name", "")): a for a, w in identity["workers"].items()}
                for task in [t for t in pending.values() if now.get(t) != workers[t]]:
                    failures[task] = errors.UnavailableError(
                        None, None, f"Task {task} is unavailable: its Dask worker left "
                                    f"during the step")
        for task in failures if failed is not None else ():
            failed(task)
        if pending:
            cause = next(iter(failures))
            await asyncio.gather(*(getattr(self.client.rpc(workers[t]), task_lib.ABORT_HANDLER)(
                step=step, message=f"Step aborted: {cause} failed")
                for t in pending.values() if t not in failures), return_exceptions=True)
            done, still = await asyncio.wait(pending, timeout=30)
            for future in still:  # a task that does not answer the abort: report the cause
                future.cancel()
            for future in done:
                if future.exception() is not None and pending[future] not in failures:
                    failures[pending[future]] = future.exception()
        return answers, failures

    def _failure(self, failures, workers):
        """The first cause among the failed tasks (a cancelled recv is a consequence); a task
        that failed otherwise than with an OpError (its worker died, the comm broke) is
        UnavailableError naming it, and its partitions are registered again next time."""
        causes = []
        for task, error in failures.items():
            if not isinstance(error, errors.OpError) or isinstance(error,
                                                                    errors.UnavailableError):
                self._registered = {r for r in self._registered if r[1] != workers.get(task)}
            if not isinstance(error, errors.OpError):
                error = errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: {type(error).__name__}: {error}")
            if getattr(error, "task", None) is None:
                error.task = task
            causes.append(error)
        return next((e for e in causes if not isinstance(e, errors.CancelledError)), causes[0])


def group_by_task(devices):
    """task name -> the devices of it, for a run's partition devices."""
    out = {}
    for device in devices:
        out.setdefault(task_name(device), []).append(device)
    return out
