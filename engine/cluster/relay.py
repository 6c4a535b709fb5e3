"""Run observers across a cluster: a task's executor tells the client's observer each callback
and waits for its answer (how the stepping debugger steps a cluster run, node by node).

The client makes its observers as for a run in this process: one per partition, from the
partition's plan rebuilt here as its task builds it (task.partition_plan), every one before
any task runs. On its task, each relayed partition's executor gets a RelayObserver: a
callback becomes a message on the step's events queue, and the executor waits for the
answer. Here a pump thread takes the messages and hands each to its partition's lane thread,
which calls the client's observer (it may block there: the debugger pauses, partitions wait
for their turn) and sends back what it returned or that it raised.

Questions go on a distributed.Queue (held by the scheduler: a client cannot be called, and
nothing is lost while it is not listening yet, as Pub/Sub loses what is published before
its subscribers are known). Answers go straight to the task's worker through a handler of
the task plugin, as the step's call and abort do: a task waiting on a scheduler's queue with
a timeout would have the scheduler log a traceback each time it expired. A round trip costs
about 2 ms on one machine. Values cross bounded: an output over the factory's
`max_value_bytes` stays on its task and a Withheld stands for it here.
"""

import itertools
import queue
import threading
import uuid

import numpy as np

from engine.framework import errors
from engine.cluster.cluster_spec import task_name

WAIT_S = 1.0   # how often a task waiting for the client looks whether its step was aborted
ANSWER_HANDLER = "graph_inspector_answer"   # the task plugin's handler the answers go to


class Withheld:
    """Stands for an output left on its task: bigger than the client takes, or not a tensor
    value that travels (a resource handle)."""

    __slots__ = ("dtype", "shape", "nbytes", "device", "limit")

    def __init__(self, dtype, shape, nbytes, device, limit):
        self.dtype, self.shape, self.nbytes = dtype, shape, nbytes
        self.device, self.limit = device, limit

    @property
    def description(self):
        """'float32[1000,1000] (4000000 bytes, left on /job:ps/task:0)'."""
        where = f"left on {task_name(self.device)}"
        shape = f"[{','.join(str(d) for d in self.shape)}]" if self.shape else ""
        if self.nbytes is None:
            return f"{self.dtype}{shape} ({where})"
        return f"{self.dtype}{shape or '[]'} ({self.nbytes} bytes, {where})"

    def __repr__(self):
        return f"<Withheld {self.description}>"


class FromTasks:
    """A run observer factory whose observers also see a cluster step's partitions on their
    tasks (engine/runtime/observers.py); other factories see only runs in this process."""

    relays_from_tasks = True

    def __init__(self, factory, max_value_bytes):
        self.factory, self.max_value_bytes = factory, max_value_bytes

    def __call__(self, device, step_id, plan):
        return self.factory(device, step_id, plan)


# The task's end ---------------------------------------------------------------------------

def portable(value, device, limit):
    """`value` as it crosses to the client: a Ref's buffer now, a GPU array on the host,
    a Withheld past `limit` bytes or for a value that is no tensor of numbers or strings.

    >>> ps = "/job:ps/replica:0/task:0/device:CPU:0"
    >>> portable(np.zeros(2, np.float32), ps, 8)
    array([0., 0.], dtype=float32)
    >>> portable(np.zeros(4, np.float32), ps, 8)
    <Withheld float32[4] (16 bytes, left on /job:ps/task:0)>
    >>> portable(np.array([object()]), ps, 8)
    <Withheld object[1] (left on /job:ps/task:0)>
    """
    from engine.kernels.cuda.backend import to_host
    from engine.runtime.resources import Ref
    if isinstance(value, Ref):
        value = None if value.value is None else value.value.copy()
    if value is None:
        return None
    value = to_host(value)
    if isinstance(value, (bytes, str, int, float, bool)):
        return value
    if not isinstance(value, (np.ndarray, np.generic)):
        return Withheld(type(value).__name__, (), None, device, limit)
    if value.dtype.kind == "O" and not all(isinstance(x, (bytes, str))
                                           for x in np.ravel(value)):
        return Withheld("object", value.shape, None, device, limit)
    if value.nbytes > limit:
        return Withheld(value.dtype.name, value.shape, int(value.nbytes), device, limit)
    return value


def _info_tuple(info):
    if info is None:
        return None
    return info.frame, info.iteration, info.dead, info.frame_id


class RelayObserver:
    """A partition's executor observer on its task: each callback asks the client's observer
    (see the module docstring). Answers arrive in `inbox` (the task plugin's answer handler
    puts them there); `stopped()` gives the step's abort error or None."""

    def __init__(self, events, inbox, device, address, limit, stopped):
        self._events, self.inbox, self._device = events, inbox, device
        self._address, self._limit, self._stopped = address, limit, stopped
        self._numbers = itertools.count(1)

    def _ask(self, callback, *args):
        number = next(self._numbers)
        self._events.put((self._device, self._address, number, callback, args))
        while True:
            try:
                answered, raised, answer = self.inbox.get(timeout=WAIT_S)
            except queue.Empty:
                error = self._stopped()
                if error is not None:
                    raise error from None
                continue
            if answered == number:  # an older answer: its question was given up (aborted)
                break
        if raised:
            raise errors.CancelledError(None, None, f"Stopped from the client: {answer}")
        return answer

    def source(self, now_ns):
        self._ask("source", now_ns)

    def node_scheduled(self, node, now_ns, info=None):
        self._ask("node_scheduled", node.name, now_ns, _info_tuple(info))

    def node_started(self, node, info=None):
        self._ask("node_started", node.name, _info_tuple(info))

    def op_started(self, node, inputs, info=None):
        from engine.kernels.cuda.backend import placed
        replaced = self._ask("op_started", node.name, len(inputs), _info_tuple(info))
        for index, value in replaced.items():
            inputs[index] = placed(value, node.device)

    def op_finished(self, node, info=None):
        self._ask("op_finished", node.name, _info_tuple(info))

    def node_finished(self, node, outputs, info=None):
        from engine.runtime.frames import NO_VALUE
        from engine.kernels.cuda.backend import placed
        sent = [portable(value, self._device, self._limit) for value in outputs]
        replaced = self._ask("node_finished", node.name, sent, _info_tuple(info))
        if not replaced:
            return None
        return tuple(placed(replaced[i], node.device) if i in replaced else
                     NO_VALUE if value is None else value for i, value in enumerate(outputs))

    def executor_done(self, error=None):
        # Told, not asked: the executor has ended whatever the client answers.
        text = None if error is None else f"{type(error).__name__}: {error}"
        self._events.put((self._device, self._address, None, "executor_done", (text,)))

    def close(self):
        self._events.close()


def task_observers(client, address, relay, parts, stopped):
    """{device: RelayObserver} for the partitions of `parts` that the client relays (close
    each when its executor is done). `relay`: what ClientRelay.spec gave; `address`: this
    task's worker, where the answers come."""
    from distributed import Queue
    events_name, devices, limit = relay
    return {part.device: RelayObserver(Queue(events_name, client=client), queue.SimpleQueue(),
                                       part.device, address, limit, stopped)
            for part in parts if part.device in devices}


# The client's end ---------------------------------------------------------------------------

class _Remote:
    """An input slot of a kernel on a task, in the list an op_started observer may change."""


class _Lane:
    """The client's thread for one relayed partition: calls its observer, one message at a
    time in the order the task sent them, and sends the answers back to the task."""

    def __init__(self, relay, device, observer, plan):
        self.relay, self.device, self.observer = relay, device, observer
        self.nodes = {node.name: node for node in plan.nodes}
        self.done = False
        self.inbox = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, daemon=True,
                                       name=f"relay {device}")

    def _serve(self):
        while (message := self.inbox.get()) is not None:
            address, number, callback, args = message
            try:
                answer, raised = self._call(callback, args), False
            except BaseException as error:  # noqa: BLE001  (the task raises in its place)
                self.relay.note_error(error)
                answer, raised = f"{type(error).__name__}: {error}", True
            if number is not None:
                self.relay.answer(address, self.device, (number, raised, answer))

    def _call(self, callback, args):
        """The observer's `callback` for a message's args (node names resolved in the plan);
        what goes back: None, or the inputs and outputs it replaced, by position."""
        from engine.runtime.frames import ExecInfo, NO_VALUE
        method = getattr(self.observer, callback, None)
        if callback == "executor_done":
            self.done = True
            if method is not None:
                text = args[0]
                method(None if text is None else errors.UnavailableError(None, None, text))
            return None
        if callback == "source":
            return method(*args) if method is not None else None
        name, *rest, info = args
        node, info = self.nodes[name], (None if info is None else ExecInfo(*info))
        if callback == "op_started":
            inputs = [_Remote] * rest[0]
            if method is not None:
                method(node, inputs, info)
            return {i: v for i, v in enumerate(inputs) if v is not _Remote}
        if callback == "node_finished":
            outputs = rest[0]
            replaced = method(node, outputs, info) if method is not None else None
            if replaced is None:
                return {}
            # Only what the observer changed goes back: the task keeps its own outputs (a
            # variable's Ref, a value too large to have come here).
            return {i: v for i, (v, sent) in enumerate(zip(replaced, outputs))
                    if v is not sent and not (sent is None and v is NO_VALUE)}
        if method is not None:
            method(node, *rest, info)
        return None


class ClientRelay:
    """The client's end of one relayed step (see the module docstring): a context manager
    around the step's call to its tasks. `observers`: {device: (observer, plan)}."""

    def __init__(self, client, observers, limit):
        from distributed import Queue
        self.client, self.limit = client, limit
        self.name = f"graph-inspector-relay/{uuid.uuid4().hex}"
        self.error = None   # the first error a client observer raised (DebugAborted, say)
        self._events = Queue(self.name, client=client)
        self._lanes = {device: _Lane(self, device, observer, plan)
                       for device, (observer, plan) in observers.items()}
        self._pump = threading.Thread(target=self._take_events, daemon=True,
                                      name=f"relay {self.name}")
        self._lock = threading.Lock()

    def spec(self):
        """What each task is told: (events queue, relayed devices, value limit)."""
        return self.name, sorted(self._lanes), self.limit

    def note_error(self, error):
        with self._lock:
            if self.error is None:
                self.error = error

    def answer(self, address, device, reply):
        """Sends `reply` to the partition on `device`, whose task's worker is at `address`
        (a task that has gone fails the step on its own: its answer is dropped)."""
        from distributed.protocol import to_serialize

        async def send():  # not `reply=`: that key of a Dask message says whether to answer
            await getattr(self.client.rpc(address), ANSWER_HANDLER)(
                relay=self.name, device=device, answer=to_serialize(reply))
        try:
            self.client.sync(send)
        except Exception:  # noqa: BLE001  (a comm error: the step's liveness check reports it)
            pass

    def task_failed(self, task):
        """`task` failed or left: its partitions that have not said so are done (a lane of
        a dead task would keep its turn from the others)."""
        for lane in self._lanes.values():
            if task_name(lane.device) == task and not lane.done:
                lane.inbox.put((None, None, "executor_done", (f"task {task} failed",)))

    def _take_events(self):
        while True:
            try:
                message = self._events.get()
            except Exception:  # noqa: BLE001  (the scheduler went away: the step fails too)
                return
            if message is None:
                return
            device, address, number, callback, args = message
            self._lanes[device].inbox.put((address, number, callback, args))

    def __enter__(self):
        for lane in self._lanes.values():
            lane.thread.start()
        self._pump.start()
        return self

    def __exit__(self, *exc):
        self._events.put(None)
        self._pump.join(10)
        for lane in self._lanes.values():
            lane.inbox.put(None)
        self._events.close()
        return False
