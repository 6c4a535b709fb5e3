"""One step's call to its tasks: each task's worker called at once, the session's own task
run in this process when its worker lives here.

Remote tasks are called straight over Dask's comms (a handler the task plugin adds, engine/
cluster/task.py), not as scheduler tasks: a scheduled task costs several scheduler round
trips a step. The task of a tf.train.Server started in this process (the worker running its
own training loop, as between-graph programs do) is run by its TaskState directly, and the
whole step is driven from that worker's event loop with its connections: the feeds and
fetches never cross a socket, and the calling thread is woken once, when the step is done
(each wake-up of a thread costs a turn of the GIL, engine/cluster/loop_run.py). That local
task starts first: what its first part sends to the other tasks rides with their calls,
one message each instead of a call and a push. Calls and answers are packed by
engine/cluster/wire.py (one msgpack body; large tensors as Dask frames). A failure anywhere
aborts the step on the other tasks; while remote tasks are pending, the scheduler is asked
every LIVENESS_CHECK_S whether their workers are still there (with a deadline: a scheduler
that does not answer is a failure too).
"""

import asyncio

from engine.framework import errors
from engine.cluster import task as task_lib, wire

LIVENESS_CHECK_S = 1.0  # how often a waiting step looks whether its tasks' workers are alive
ABORT_WAIT_S = 30       # how long aborted tasks get to answer before the cause is reported
SCHEDULER_TIMEOUT_S = 10.0


class StepCall:
    """Calls `calls` ({task: the run handler's arguments}) on the tasks' `workers`
    ({task: address}); `failed(task)` hears of each task that failed (a relayed observer
    may be waiting on it)."""

    def __init__(self, client, workers, calls, step, failed=None):
        self.client, self.workers, self.calls = client, workers, calls
        self.step, self.failed = step, failed
        self.local_task, self.local_state = None, None
        for task in calls:
            state = task_lib.in_process(workers[task])
            if state is not None:
                self.local_task, self.local_state = task, state
                break
        if self.local_state is not None:  # its worker's loop and connection pool
            self._loop, self._rpc = self.local_state.worker.loop, self.local_state.worker.rpc
        else:
            self._loop, self._rpc = client.loop, client.rpc

    def run(self):
        """({task: answer}, {task: error})."""
        if self.local_state is None:
            return self.client.sync(self._call_tasks)
        return asyncio.run_coroutine_threadsafe(self._call_tasks(),
                                                self._loop.asyncio_loop).result()

    def _start_local(self):
        """The local task's step, started: its partitions on this loop have run up to
        their first wait (or it failed at once)."""
        try:
            return asyncio.ensure_future(
                self.local_state.start_step(*self.calls[self.local_task]))
        except Exception as error:  # noqa: BLE001  (sorted out by the connection)
            failed = asyncio.get_running_loop().create_future()
            failed.set_exception(error)
            return failed

    async def _call(self, task, tensors):
        """A remote task's answer, through its worker; `tensors` go with the call."""
        payload = self.calls[task]
        if tensors:
            payload = payload + (tensors,)
        answer = await getattr(self._rpc(self.workers[task]), task_lib.RUN_HANDLER)(
            **wire.message(payload))
        if isinstance(answer, task_lib.StepFailed):
            raise answer.error
        return wire.opened(**answer)

    async def _call_tasks(self):
        """Calls every task at once until all answer, one fails or a task's worker leaves
        the scheduler; then the others' pending recvs are aborted."""
        pending, pushed = {}, {}
        if self.local_task is not None:
            # The local task first: what its first part sends to the others goes with their
            # calls, not as messages of its own a moment after.
            pending[self._start_local()] = self.local_task
            pushed = self.local_state.take_pushed(
                self.step, {self.workers[t] for t in self.calls if t != self.local_task})
        for task in self.calls:
            if task != self.local_task:
                future = asyncio.ensure_future(self._call(task, pushed.get(self.workers[task])))
                pending[future] = task
        answers, failures = {}, {}
        while pending and not failures:
            done, _ = await asyncio.wait(pending, timeout=LIVENESS_CHECK_S,
                                         return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                try:
                    answers[task] = future.result()
                except Exception as error:  # noqa: BLE001  (sorted out by the connection)
                    failures[task] = error
            if not done:
                remote = [t for t in pending.values() if t != self.local_task]
                failures.update(await self._departed(remote))
        for task in failures if self.failed is not None else ():
            self.failed(task)
        if failures:
            await self._abort(pending, failures, f"Step aborted: {next(iter(failures))} "
                                                 f"failed")
        return answers, failures

    async def _departed(self, tasks):
        """{task: UnavailableError} for the pending tasks whose workers left the scheduler
        (all of them when the scheduler does not answer)."""
        tasks = list(tasks)
        try:
            identity = await asyncio.wait_for(
                self._rpc(self.client.scheduler.address).identity(n_workers=-1),
                SCHEDULER_TIMEOUT_S)
        except (OSError, asyncio.TimeoutError) as error:
            return {task: errors.UnavailableError(
                None, None, f"Task {task} is unavailable: the cluster's Dask scheduler does "
                            f"not answer ({type(error).__name__}: {error})") for task in tasks}
        now = {str(w.get("name", "")): a for a, w in identity["workers"].items()}
        return {task: errors.UnavailableError(
                    None, None, f"Task {task} is unavailable: its Dask worker left during "
                                f"the step")
                for task in tasks if now.get(task) != self.workers[task]}

    async def _abort(self, pending, failures, message):
        """Tells the still pending tasks to abort the step, and waits for their answers
        (a task that does not answer the abort: the cause is reported)."""
        if not pending:
            return
        if self.local_task in pending.values():
            self.local_state.abort(step=self.step, message=message)
        await asyncio.gather(*(getattr(self._rpc(self.workers[t]), task_lib.ABORT_HANDLER)(
                                   step=self.step, message=message)
                               for t in pending.values()
                               if t not in failures and t != self.local_task),
                             return_exceptions=True)
        done, still = await asyncio.wait(pending, timeout=ABORT_WAIT_S)
        for future in still:
            future.cancel()
        for future in done:
            if future.exception() is not None and pending[future] not in failures:
                failures[pending[future]] = future.exception()
