"""A task's partitions run on its Dask worker's event loop, no thread of their own.

A step of a between-graph program crosses tasks a few times (the ps sends the variables,
the worker sends back its gradients), and each crossing on threads wakes one: the loop
that got the tensor wakes the partition waiting for it, the partition wakes the loop to
send the next. On a busy machine every wake-up is a wait for the GIL and the CPU. Here a
partition runs on the loop itself, as a generator (Executor.run_stepwise) that yields where
a _Recv's tensor has not arrived; the tensor's arrival (a peer's push, handled on this
loop, or a send of another partition) resumes it. Its sends leave when it yields or ends.

Only partitions that cannot block their thread run so (`can_run_on_loop`): no control
flow, no function call, no op that waits for another step (queues, accumulators, readers)
or runs arbitrary Python; the others keep their threads (engine/cluster/task.py). A traced
or debugged step also takes the threads (its observers may wait for the client).
"""

import asyncio

from engine.framework import errors, op_families
from engine.kernels.cpu.sendrecv import rendezvous_key
from engine.runtime import deadline
from engine.runtime.rendezvous import set_running_step

# Kernels that may wait for another step or thread (engine/kernels/cpu/queues.py,
# accumulators.py, the readers that dequeue file names, tf.data iterators) or run a
# program's Python (py_func): never on the event loop.
MAY_BLOCK = frozenset({
    "QueueDequeueV2", "QueueDequeueManyV2", "QueueDequeueUpToV2", "QueueEnqueueV2",
    "QueueEnqueueManyV2", "ResourceAccumulatorTakeGradient", "ReaderReadV2",
    "ReaderReadUpToV2", "IteratorGetNext", "PyFunc", "PyFuncStateless", "EagerPyFunc",
}) | op_families.FUNCTIONAL


def can_run_on_loop(plan):
    """Whether a partition's plan may run on its worker's event loop (see the module)."""
    return not plan.has_control_flow and not any(
        node.op_type in MAY_BLOCK for node in plan.kernel_nodes)


class LoopRun:
    """One step's partitions of a task (BoundPartitions), on the running event loop;
    `future` gets (the client partition's fetched values, []) or the first error."""

    def __init__(self, state, parts, step, step_id, feeds, timeout_ms):
        self.state, self.step = state, step
        self.rendezvous = state.rendezvous.find(step)
        self.loop = asyncio.get_running_loop()
        self.future = self.loop.create_future()
        self._keys = {}
        for part in parts:
            self._keys.update(part.recv_keys)
        self._results = None
        self._live = [(part, part.executor.run_stepwise(feeds if part.is_client else [],
                                                        step_id, self._waiting))
                      for part in parts]
        self._deadline = deadline.after_ms(timeout_ms)
        self._timer = None
        if timeout_ms and timeout_ms > 0:
            self._timer = self.loop.call_later(timeout_ms / 1000, self._timed_out)
        self.rendezvous.watch(self._wake)
        self._scheduled = False
        self.advance()

    def _waiting(self, node):
        return self.rendezvous.error is None and not self.rendezvous.has(self._keys[node.name])

    def _wake(self):
        """A tensor arrived or the step was aborted (on any thread): advance on the loop."""
        if not self._scheduled and not self.future.done():
            self._scheduled = True
            self.loop.call_soon_threadsafe(self.advance)

    def _timed_out(self):
        self.rendezvous.start_abort(errors.DeadlineExceededError(
            None, None, "Timed out waiting for notification"))

    def advance(self):
        """Runs every partition as far as its tensors allow; finishes the step when all
        are done or one failed."""
        self._scheduled = False
        if self.future.done():
            return
        set_running_step(self.step)
        previous = deadline.swap(self._deadline)
        try:
            still = []
            for part, generator in self._live:
                try:
                    generator.send(None)
                    still.append((part, generator))
                except StopIteration as stop:
                    if part.is_client:
                        self._results = stop.value
                except Exception as error:  # noqa: BLE001  (the step's failure, below)
                    self.rendezvous.start_abort(error)
                    self._finish(error)
                    return
            self._live = still
        finally:
            deadline.swap(previous)
        if not self._live:
            self._finish(None)

    def _finish(self, error):
        if self._timer is not None:
            self._timer.cancel()
        self.rendezvous.watch(None)
        for _, generator in self._live:
            generator.close()
        self._live = []
        if not self.future.done():
            if error is None:
                self.future.set_result((self._results, []))
            else:
                self.future.set_exception(error)


def recv_keys(executor):
    """{_Recv node name: its tensor's rendezvous key} of a bound partition."""
    return {node.name: rendezvous_key(executor.contexts[node.name])
            for node in executor.plan.kernel_nodes if node.op_type in ("_Recv", "_HostRecv")}
