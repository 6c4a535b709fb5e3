"""A client's connection to a cluster: the Dask client, its tasks, and running one step.

`tf.Session(target)` names the cluster by its Dask scheduler (`tcp://host:8786`) or, as in
TensorFlow, by a task (`grpc://host:port`, the address of that task in the ClusterSpec, where
its Dask worker listens): the worker there tells the scheduler's address, and that task is the
session's master (its CPU:0 holds feeds, fetches and unconstrained nodes). With a scheduler
target the master is /job:worker/task:0 where there is one, else the first task.
A step runs as one Dask task per TensorFlow task, pinned to that task's worker
(engine/cluster/task.py); a failure anywhere aborts the step on the other tasks.
"""

import itertools
import socket
import threading
import time
import uuid

from engine import errors
from engine.cluster import local, task as task_lib, trace as trace_lib
from engine.cluster.cluster_spec import task_device, task_name

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
        self.cluster = local.cluster_spec(self.client)
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

    def run_step(self, handle, specs_by_task, step_id, feeds, timeout_ms, trace=False):
        """One step: every task's partitions on its worker. (The master's fetched values,
        every task's DeviceStepStats on this process's clock when `trace`.)"""
        distributed = _dask()
        workers = self.workers()
        step = f"{self._session}/{step_id}"
        futures = {}
        for task, specs in specs_by_task.items():
            address = workers.get(task)
            if address is None:
                raise errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: no Dask worker named {task} "
                                f"is connected to the scheduler")
            first = (handle, address) not in self._registered
            futures[task] = self.client.submit(
                task_lib.run_step, handle, specs if first else None, workers, step, step_id,
                feeds if task == self.master else [], timeout_ms, trace,
                workers=[address], allow_other_workers=False, pure=False, retries=0,
                key=f"graph-inspector-{step}-{task}")
            self._registered.add((handle, address))
        pending = set(futures.values())
        with self.client.as_current():
            while pending:  # until all are done, one failed, or a task's worker went away
                try:
                    done, pending = distributed.wait(pending, timeout=LIVENESS_CHECK_S,
                                                     return_when="FIRST_COMPLETED")
                except distributed.TimeoutError:
                    done = ()
                    now = self.workers()
                    gone = [t for t in futures if now.get(t) != workers.get(t)]
                    if gone:
                        return self._task_gone(futures, gone, workers, step)
                if any(f.status != "finished" for f in done):
                    break
        failed = [t for t, f in futures.items() if f.status in ("error", "lost", "cancelled")]
        if failed:
            self.client.run(task_lib.abort_step, step, f"Step aborted: {failed[0]} failed",
                            workers=[workers[t] for t in futures if t not in failed
                                     and t in workers], on_error="ignore")
            try:
                with self.client.as_current():
                    distributed.wait(list(futures.values()), timeout=30)
            except distributed.TimeoutError:
                pass  # a task that does not answer the abort: report the cause anyway
            raise self._failure(futures, failed, workers)
        if not trace:
            return (futures[self.master].result()[0] if self.master in futures else []), []
        answers = dict(zip(futures, self.client.gather(list(futures.values()))))
        stats = [trace_lib.shifted(dev_stats, self.clock_offset(task, workers[task]))
                 for task, (_, recorded) in answers.items() for dev_stats in recorded]
        return (answers[self.master][0] if self.master in answers else []), stats

    def _task_gone(self, futures, gone, workers, step):
        """A task's worker left mid-step: the step fails with UnavailableError naming it;
        the others' pending recvs are cancelled, and its partitions are registered again
        when a worker of that name is back."""
        self.client.cancel(list(futures.values()), force=True)
        self.client.run(task_lib.abort_step, step, f"Step aborted: {gone[0]} is unavailable",
                        workers=[workers[t] for t in futures if t not in gone],
                        on_error="ignore")
        self._registered = {r for r in self._registered
                            if r[1] not in {workers[t] for t in gone}}
        error = errors.UnavailableError(None, None, f"Task {gone[0]} is unavailable: its "
                                                    f"Dask worker left during the step")
        error.task = gone[0]
        raise error

    def _failure(self, futures, failed, workers):
        """The first cause among the failed tasks (a cancelled recv is a consequence)."""
        causes = []
        for task in failed:
            future = futures[task]
            try:
                error = future.exception()
            except Exception as caught:  # noqa: BLE001  (a lost worker, a cancelled future)
                error = caught
            if not isinstance(error, errors.OpError):
                self._registered = {r for r in self._registered if r[1] != workers.get(task)}
                error = errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: {type(error).__name__}: {error}")
                error.task = task
            causes.append(error)
        return next((e for e in causes if not isinstance(e, errors.CancelledError)), causes[0])


def group_by_task(devices):
    """task name -> the devices of it, for a run's partition devices."""
    out = {}
    for device in devices:
        out.setdefault(task_name(device), []).append(device)
    return out
