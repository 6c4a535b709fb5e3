"""One step's call to its tasks: each task's worker called at once, the session's own task
run right here when its worker lives in this process.

Remote tasks are called straight over Dask's comms (a handler the task plugin adds, engine/
cluster/task.py), not as scheduler tasks: a scheduled task costs several scheduler round
trips a step. The task of a tf.train.Server started in this process (the worker running its
own training loop, as between-graph programs do) runs on the calling thread, with the same
TaskState its worker serves: its feeds and fetches never cross a socket, and no thread is
woken to run it. A failure anywhere aborts the step on the other tasks; while remote tasks
are pending, the scheduler is asked every LIVENESS_CHECK_S whether their workers are still
there (with a deadline: a scheduler that does not answer is a failure too).
"""

import asyncio
import concurrent.futures

from engine.framework import errors
from engine.cluster import task as task_lib

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

    def run(self):
        """({task: answer}, {task: error})."""
        remote = {t: c for t, c in self.calls.items() if t != self.local_task}
        if self.local_task is None:
            return self.client.sync(self._call_remote, remote, None)
        if not remote:
            try:
                return {self.local_task: self._run_local()}, {}
            except Exception as error:  # noqa: BLE001  (sorted out by the connection)
                return {}, {self.local_task: error}
        local_done = concurrent.futures.Future()
        pending = asyncio.run_coroutine_threadsafe(self._call_remote(remote, local_done),
                                                   self.client.loop.asyncio_loop)
        answers, failures = {}, {}
        try:
            answers[self.local_task] = self._run_local()
            local_done.set_result(None)
        except Exception as error:  # noqa: BLE001
            failures[self.local_task] = error
            local_done.set_result(self.local_task)
        remote_answers, remote_failures = pending.result()
        answers.update(remote_answers)
        failures.update(remote_failures)
        return answers, failures

    def _run_local(self):
        return self.local_state.run_step(*self.calls[self.local_task])

    def _abort_local(self, message, local_done):
        if local_done is not None and not local_done.done():
            self.local_state.abort(step=self.step, message=message)

    async def _call_remote(self, calls, local_done):
        """Calls every remote task at once (the task plugin's run handler) until all answer,
        one fails (the local task too, when `local_done` gives its name) or a task's worker
        leaves the scheduler; then the others' pending recvs are aborted."""
        from distributed.protocol import to_serialize

        async def call(task):
            rpc = self.client.rpc(self.workers[task])
            answer = await getattr(rpc, task_lib.RUN_HANDLER)(payload=to_serialize(calls[task]))
            if isinstance(answer, task_lib.StepFailed):
                raise answer.error
            return answer
        pending = {asyncio.ensure_future(call(task)): task for task in calls}
        local = None if local_done is None else asyncio.wrap_future(local_done)
        answers, failures, local_failed = {}, {}, None
        while (pending or (local is not None and not local.done())) and not (
                failures or local_failed):
            waiting = set(pending) | ({local} if local is not None and not local.done()
                                      else set())
            done, _ = await asyncio.wait(waiting, timeout=LIVENESS_CHECK_S,
                                         return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                if future is local:
                    local_failed = future.result()  # the local task's name when it failed
                    continue
                task = pending.pop(future)
                try:
                    answers[task] = future.result()
                except Exception as error:  # noqa: BLE001  (sorted out by the connection)
                    failures[task] = error
            if not done:
                failures.update(await self._departed(pending.values()))
        for task in [*failures, *([local_failed] if local_failed else [])]:
            if self.failed is not None:
                self.failed(task)
        if failures or local_failed:
            message = f"Step aborted: {next(iter(failures), local_failed)} failed"
            self._abort_local(message, local_done)
            await self._abort(pending, failures, message)
        return answers, failures

    async def _departed(self, tasks):
        """{task: UnavailableError} for the pending tasks whose workers left the scheduler
        (all of them when the scheduler does not answer)."""
        tasks = list(tasks)
        try:
            identity = await asyncio.wait_for(self.client.scheduler.identity(n_workers=-1),
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
        await asyncio.gather(*(getattr(self.client.rpc(self.workers[t]),
                                       task_lib.ABORT_HANDLER)(step=self.step, message=message)
                               for t in pending.values() if t not in failures),
                             return_exceptions=True)
        done, still = await asyncio.wait(pending, timeout=ABORT_WAIT_S)
        for future in still:
            future.cancel()
        for future in done:
            if future.exception() is not None and pending[future] not in failures:
                failures[pending[future]] = future.exception()
