"""A TensorFlow task on its Dask worker: its variables, its partitions, its rendezvous.

A worker plugin gives every Dask worker a TaskState: one ResourceMgr, so variables live on
their task between runs and across the sessions of every client (as in a tf.train.Server);
the partitions clients registered there, bound to executors; and a rendezvous per step.
Clients run a step by calling a handler this plugin adds on every task's worker at once
(or, for the task of their own process, TaskState.start_step directly). A step's partitions
run on the worker's event loop where none of them can block (engine/cluster/loop_run.py),
else each on a thread. A _Send whose _Recv sits on another task pushes the tensor to that
task's worker over Dask's own worker-to-worker comms (another handler), never through the
client or the scheduler; what a step's messages carry is packed into one msgpack body
(engine/cluster/wire.py). A debugged step's partitions wait for the client's debugger, whose
answers come through a third handler (engine/cluster/relay.py).
"""

import asyncio
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from distributed.diagnostics.plugin import WorkerPlugin

from engine.runtime import deadline, observers as observers_lib, placer as placer_lib
from engine.framework import errors
from engine.runtime import plan as plan_lib
from engine.cluster import loop_run, relay as relay_lib, trace as trace_lib, wire
from engine.cluster.cluster_spec import task_name
from engine.runtime.executor import Executor
from engine.proto import graph_pb2
from engine.runtime.random_philox import node_generator
from engine.runtime.rendezvous import RENDEZVOUS_KEY, Rendezvous, set_running_step
from engine.runtime.resources import ResourceMgr

SEND_HANDLER = "graph_inspector_send"
ABORT_HANDLER = "graph_inspector_abort"
RUN_HANDLER = "graph_inspector_run"
PLUGIN_NAME = "graph-inspector-task"
# Partitions block in queue and accumulator ops until another client's step feeds them (a
# SyncReplicasOptimizer's workers wait for the chief's tokens): a task's threads are not
# bounded by its cores, as TensorFlow's blocking ops hold no thread there.
MAX_THREADS = 256

# The TaskStates of the Dask workers in this process, by worker address: a session's own
# task runs here, not through a socket (engine/cluster/step_call.py).
_IN_PROCESS = weakref.WeakValueDictionary()


def in_process(address):
    """The TaskState of the worker at `address` if it runs in this process, else None."""
    state = _IN_PROCESS.get(address)
    if state is None or state.worker.address != address or \
            not state.worker.status.name == "running":
        return None
    return state


class TaskRendezvous(Rendezvous):
    """One step's rendezvous on a task: sends to another task's device go to its worker.
    A watcher (a step running on the worker's loop, engine/cluster/loop_run.py) hears of
    every tensor that arrives and of the step's abort."""

    def __init__(self, state, step):
        super().__init__()
        self._state, self._step = state, step
        self._watcher = None
        # task name -> worker address, as the step's client knows them (each client its own:
        # two sessions' steps may run here at once, with different device filters).
        self.peers = {}

    def watch(self, watcher):
        self._watcher = watcher

    def send(self, key, value, is_dead=False):
        receiver = task_name(key.split(";", 3)[2])
        if receiver != self._state.task:
            self._state.push(self.peers.get(receiver), receiver, self._step, key, value,
                             is_dead)
            return
        self.deliver(key, value, is_dead)

    def deliver(self, key, value, is_dead=False):
        """A tensor for a partition of this task (sent here, or pushed by a peer)."""
        super().send(key, value, is_dead)
        if self._watcher is not None:
            self._watcher()

    def start_abort(self, error):
        super().start_abort(error)
        if self._watcher is not None:
            self._watcher()


class TaskRendezvousMgr:
    """The task's rendezvous, one per running step (a client's session id and step id)."""

    def __init__(self, state):
        self._state, self._lock, self._steps = state, threading.Lock(), {}

    def find(self, step):
        with self._lock:
            rendezvous = self._steps.get(step)
            if rendezvous is None:
                rendezvous = self._steps[step] = TaskRendezvous(self._state, step)
            return rendezvous

    def abort_running(self, step, error):
        """Aborts `step` where it still runs here (a late failed send finds it finished)."""
        with self._lock:
            rendezvous = self._steps.get(step)
        if rendezvous is not None:
            rendezvous.start_abort(error)

    def cleanup(self, step):
        with self._lock:
            self._steps.pop(step, None)


class BoundPartition:
    """A registered partition: its device, its executor, whether it holds the client's
    feeds and fetches."""

    __slots__ = ("device", "executor", "is_client", "remote_recvs", "on_loop", "recv_keys")

    def __init__(self, device, executor, is_client, remote_recvs):
        self.device, self.executor, self.is_client = device, executor, is_client
        self.remote_recvs = remote_recvs
        self.on_loop = loop_run.can_run_on_loop(executor.plan)
        self.recv_keys = loop_run.recv_keys(executor)


class StepFailed:
    """A task's answer to a step that failed there: the error, named by its task."""

    def __init__(self, error):
        self.error = error


class TaskState:
    """What a TensorFlow task keeps on its Dask worker."""

    def __init__(self, worker):
        self.worker = worker
        self.task = str(worker.name)
        self.resources = ResourceMgr()
        self.rendezvous = TaskRendezvousMgr(self)
        self.session_state = {RENDEZVOUS_KEY: self.rendezvous}
        self.graphs = {}  # handle -> [BoundPartition]
        self.relay_inboxes = {}  # (relay, device) -> a relayed partition's answers
        self.lock = threading.Lock()
        self._outbox, self._outbox_lock, self._flush_scheduled = [], threading.Lock(), False
        self.pool = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix=f"partition{self.task}")
        # A step's call waits on its partitions (on `pool`): its own threads, so a step
        # never waits for a thread that one of its partitions holds.
        self.steps = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix=f"step{self.task}")

    def close(self):
        self.pool.shutdown(wait=False)
        self.steps.shutdown(wait=False)

    # Comms -------------------------------------------------------------------------------

    def push(self, address, receiver, step, key, value, is_dead):
        """Sends one tensor to `receiver`'s worker (from a partition thread) without waiting
        for it to arrive, as TensorFlow's _Send does not wait for its _Recv: a chain of
        sends across tasks would otherwise wait a round trip each. A send that fails aborts
        this task's step. The value goes by reference until the comm writes it, as a
        TensorFlow tensor waits in its rendezvous until the receiver asks: a variable updated
        in place meanwhile, by a node that does not wait for the receiver, races as there.
        Tensors pushed before the worker's loop gets to them leave together, one message per
        receiver (waking the loop costs more than a send). `address`: the receiver's worker
        as the step's client knows it.

        A small array is copied here: it waits in the outbox until the loop packs it, and a
        variable's read is the variable's own buffer, so an update by another worker's step
        meanwhile could reach the receiver as part of this step's value. Measured with
        tests/programs/distributed_monitored.py under load (other clusters' tests beside
        it): 3 of 52 launches ended with a gradient applied long after convergence (its
        Adagrad accumulator jumped by 0.17), none of 60 with the copy. A large array still
        goes without a copy (wire.INLINE_MAX_BYTES: the small ones are copied into the
        message anyway), racing as TensorFlow's does."""
        if isinstance(value, np.ndarray) and value.nbytes <= wire.INLINE_MAX_BYTES:
            value = value.copy()
        if address is None:
            raise errors.UnavailableError(None, None, f"No worker for task {receiver} (is its "
                                          f"Dask worker running?)")
        with self._outbox_lock:
            self._outbox.append((address, receiver, step, key, value, is_dead))
            if self._flush_scheduled:
                return
            self._flush_scheduled = True
        self.worker.loop.add_callback(self._flush)

    def _flush(self):
        """On the worker's loop: every pushed tensor goes, one message per receiver."""
        with self._outbox_lock:
            pushed, self._outbox, self._flush_scheduled = self._outbox, [], False
        by_address = {}
        for address, receiver, step, key, value, is_dead in pushed:
            by_address.setdefault((address, receiver), []).append((step, key, value, is_dead))
        for (address, receiver), tensors in by_address.items():
            asyncio.ensure_future(self._deliver(address, receiver, tensors))

    def take_pushed(self, step, addresses):
        """{worker address: [(key, value, is_dead)]}: the tensors of `step` pushed to the
        workers at `addresses` and not sent yet, taken out of the outbox (a step's call to
        those tasks carries them, engine/cluster/step_call.py)."""
        taken = {}
        with self._outbox_lock:
            kept = []
            for entry in self._outbox:
                address, _, entry_step, key, value, is_dead = entry
                if entry_step == step and address in addresses:
                    taken.setdefault(address, []).append((key, value, is_dead))
                else:
                    kept.append(entry)
            self._outbox = kept
        return taken

    async def _deliver(self, address, receiver, tensors):
        try:
            # One way (reply=False): an answer would cost the receiver a message and both
            # loops a wake-up; a comm that breaks fails the write itself.
            await getattr(self.worker.rpc(address), SEND_HANDLER)(
                **wire.message(tensors), reply=False)
        except Exception as error:  # noqa: BLE001  (the comm's errors, whatever they are)
            for step in {t[0] for t in tensors}:
                self.rendezvous.abort_running(step, errors.UnavailableError(
                    None, None, f"Task {receiver} is unavailable ({address}): "
                                f"{type(error).__name__}: {error}"))

    def receive(self, body=None, extra=None):
        """The handler a peer's push calls: the tensors join their steps' rendezvous."""
        for step, key, value, is_dead in wire.opened(body, extra):
            self.rendezvous.find(step).deliver(key, value, is_dead)

    async def run_handler(self, body=None, extra=None):
        """A client's call for one step (see engine/cluster/step_call.py), answered as a
        wire message."""
        from distributed.protocol import to_serialize
        try:
            answer = await self.start_step(*wire.opened(body, extra))
        except errors.OpError as error:
            # Answered, not raised: Dask logs a raising handler's traceback on the task's
            # stderr (over the debugger's screen, for a run quit part-way).
            return to_serialize(StepFailed(error))
        return wire.message(answer)

    def start_step(self, handle, specs, peers, step, step_id, feeds, timeout_ms, trace,
                   relay=None, tensors=()):
        """Starts one step of this task's partitions registered under `handle`, on the
        worker's loop (engine/cluster/loop_run.py) where they can all run there, else each
        on a thread (`run`); returns what to await for (the client partition's fetched
        values, the step stats). `tensors`: (key, value, is_dead) its caller's task pushed
        here before calling. On the worker's loop: the loop's partitions have run as far as
        their tensors allow when it returns."""
        rendezvous = self.rendezvous.find(step)
        rendezvous.peers = peers
        for key, value, is_dead in tensors:
            rendezvous.deliver(key, value, is_dead)
        try:
            parts = self.bind(handle, specs)
        except BaseException:
            self.rendezvous.cleanup(step)
            raise
        if trace or relay is not None or not all(part.on_loop for part in parts):
            return asyncio.get_running_loop().run_in_executor(
                self.steps, self.run, parts, step, step_id, feeds, timeout_ms, trace, relay)
        return self._on_loop(loop_run.LoopRun(self, parts, step, step_id, feeds, timeout_ms),
                             step)

    async def _on_loop(self, run, step):
        try:
            return await run.future
        except Exception as error:  # noqa: BLE001  (named by its task, as on threads)
            raise _on_task(error, self.task) from None
        finally:
            self.rendezvous.cleanup(step)

    def answer(self, relay=None, device=None, answer=None):
        """The handler a client's relayed observer answers through (engine/cluster/relay.py):
        the answer goes to the partition thread waiting for it (none: its step has ended)."""
        inbox = self.relay_inboxes.get((relay, device))
        if inbox is not None:
            inbox.put(answer)

    def abort(self, step=None, message=None):
        """The client's word that the step failed elsewhere: pending recvs fail too."""
        self.rendezvous.find(step).start_abort(errors.CancelledError(None, None, message))

    # Partitions --------------------------------------------------------------------------

    def bind(self, handle, specs):
        """The partitions registered under `handle` (registering `specs` first)."""
        with self.lock:
            parts = self.graphs.get(handle)
            if parts is None:
                if specs is None:  # TensorFlow's worker says the same of a lost graph handle
                    raise _on_task(errors.AbortedError(
                        None, None, f"Graph handle is not found: {handle}. Possibly, this "
                                    f"worker just restarted."), self.task)
                parts = self.graphs[handle] = [self._bind(*spec) for spec in specs]
            return parts

    def _bind(self, device, graph_bytes, feeds, fetches, targets, is_client):
        graph_def = graph_pb2.GraphDef.FromString(graph_bytes)
        plan = partition_plan(device, graph_def, feeds, fetches, targets)
        executor = Executor(plan, self.resources, node_generator, self.session_state,
                            device_type=placer_lib.device_type(device))
        return BoundPartition(device, executor, is_client,
                              trace_lib.remote_recvs(graph_def, device))

    def run(self, parts, step, step_id, feeds, timeout_ms, trace=False, relay=None):
        """Every partition of this task for one step, each on its own thread: (the client
        partition's fetched values, each partition's serialized DeviceStepStats if `trace`).
        `relay`: the client's observers see these partitions (engine/cluster/relay.py)."""
        rendezvous = self.rendezvous.find(step)
        run_deadline = deadline.after_ms(timeout_ms)
        collectors = [trace_lib.TaskCollector(part.device, part.remote_recvs) if trace else None
                      for part in parts]
        relayed = {} if relay is None else relay_lib.task_observers(
            self.worker._get_client(), self.worker.address, relay, parts,
            lambda: rendezvous.error)
        for device, observer in relayed.items():
            self.relay_inboxes[relay[0], device] = observer.inbox

        def run_one(part, collector):
            set_running_step(step)
            # The relay first: an injected value it returns is what the collector records.
            observer = observers_lib.tee(relayed.get(part.device), collector)
            try:
                with deadline.running_until(run_deadline):
                    return observers_lib.run(part.executor, feeds if part.is_client else [],
                                             observer, step_id)
            except BaseException as error:
                rendezvous.start_abort(error)
                raise
            finally:
                if part.device in relayed:
                    relayed[part.device].close()
                    self.relay_inboxes.pop((relay[0], part.device), None)

        # The last partition runs on this thread: a task of one partition (most are) wakes
        # no other.
        futures = [self.pool.submit(run_one, part, collector)
                   for part, collector in zip(parts[:-1], collectors[:-1])]
        results, failures = None, []
        for part, collector, future in zip(parts, collectors, futures + [None]):
            try:
                values = run_one(part, collector) if future is None else future.result()
            except Exception as error:  # noqa: BLE001  (the first cause wins, below)
                failures.append(error)
                continue
            if part.is_client:
                results = values
        self.rendezvous.cleanup(step)
        if failures:
            raise _on_task(next((e for e in failures
                                 if not isinstance(e, errors.CancelledError)), failures[0]),
                           self.task)
        return results, [c.dev_stats.SerializeToString() for c in collectors if c is not None]


def partition_plan(device, graph_def, feeds, fetches, targets):
    """The plan of a partition as its task runs it (the client rebuilds it for its relayed
    observers, engine/cluster/relay.py: the same nodes, by the same names)."""
    nodes, order = plan_lib.nodes_from_graph_def(graph_def)
    plan = plan_lib.build(nodes, order, list(feeds), list(fetches), list(targets),
                          device=device)
    for node in plan.nodes:
        node.device = device
    return plan


def _on_task(error, task):
    """`error`, its message naming the task it happened on, as a picklable OpError."""
    if isinstance(error, errors.OpError):
        out = type(error)(error.node_def, None, f"{error.message}\n\t [[on task {task}]]")
        out.node_name, out.op_type = error.node_name, error.op_type
        out.kernel_message = error.kernel_message
    else:
        out = errors.InternalError(None, None, f"{type(error).__name__}: {error}\n\t "
                                               f"[[on task {task}]]")
    out.task = task
    return out


class TaskPlugin(WorkerPlugin):
    """The Dask worker plugin that makes a worker a TensorFlow task (see the module)."""

    name = PLUGIN_NAME

    def setup(self, worker):
        # Every client registers the plugin, and Dask replaces a plugin of the same name
        # (teardown, then setup): the task's variables must outlive that.
        state = getattr(worker, "graph_inspector_task", None)
        if state is None:
            state = worker.graph_inspector_task = TaskState(worker)
        state.worker = worker  # a kept state rejoins on its task's new worker
        _IN_PROCESS[worker.address] = state
        worker.handlers[SEND_HANDLER] = state.receive
        worker.handlers[ABORT_HANDLER] = state.abort
        worker.handlers[relay_lib.ANSWER_HANDLER] = state.answer
        worker.handlers[RUN_HANDLER] = state.run_handler

    def teardown(self, worker):
        state = getattr(worker, "graph_inspector_task", None)
        if state is not None and worker.status.name.startswith("clos") and \
                not getattr(state, "kept", False):
            state.close()

