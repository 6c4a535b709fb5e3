"""tf.train.MonitoredTrainingSession / MonitoredSession / Scaffold: a session run under hooks.

As TensorFlow 1.x: the Scaffold finalizes the graph's init ops (global and local variable
initializers, merge_all summaries); the session runs them once, then every run() asks each
hook's before_run for extra fetches and feeds, runs them together with the caller's, and gives
each hook its share in after_run; should_stop() is true once a hook requested it. Leaving the
`with` block calls every hook's end(), and an OutOfRangeError ending the loop is not an error.
With checkpoint_dir, the session restores the newest checkpoint there (else initializes) and a
CheckpointSaverHook saves new ones (engine/training/checkpoint_hooks.py).
"""

import time

from engine.framework import errors
from engine.framework.api_namespace import NotSupportedError
from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.ops import variables
from engine.ops.control_flow import ops as control_flow_ops
from engine.platform import tf_logging as logging
from engine.runtime.session import RunOptions, Session
from engine.summary.ops import merge_all
from engine.training.basic_hooks import StepCounterHook, SummarySaverHook
from engine.training.checkpoint_hooks import CheckpointSaverHook, default_saver, restore_latest
from engine.training.session_run_hook import SessionRunContext, SessionRunValues


READY_CHECK_SECS = 0.2  # how often a non-chief worker looks whether the chief is done


class Scaffold:
    """The ops that make a session ready: init_op, local_init_op, summary_op (and init_fn)."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None):
        self._init_op, self._init_feed_dict, self._init_fn = init_op, init_feed_dict, init_fn
        self._local_init_op, self._summary_op, self._saver = local_init_op, summary_op, saver
        self._ready_op = ready_op

    def finalize(self):
        """Builds what was not given (or reuses the graph's, from its collections), then
        freezes the graph, as TensorFlow's Scaffold does."""
        graph = get_default_graph()

        def get_or_default(given, key, make):
            if given is not None:
                return given
            elements = graph.get_collection(key)
            if len(elements) > 1:
                raise RuntimeError(f"More than one item in the collection {key}. "
                                   "Please indicate which one to use by passing it to the "
                                   "tf.Scaffold constructor as:  tf.Scaffold(init_op=...)")
            if elements:
                return elements[0]
            made = make()
            if made is not None:
                graph.add_to_collection(key, made)
            return made

        self._init_op = get_or_default(self._init_op, GraphKeys.INIT_OP,
                                       variables.global_variables_initializer)
        self._ready_op = get_or_default(self._ready_op, GraphKeys.READY_OP,
                                        variables.report_uninitialized_variables)
        self._local_init_op = get_or_default(
            self._local_init_op, GraphKeys.LOCAL_INIT_OP,
            lambda: control_flow_ops.group(variables.local_variables_initializer()))
        self._summary_op = get_or_default(self._summary_op, GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            try:
                self._saver = default_saver()
            except NotSupportedError:
                pass  # no tf.train.Saver in this engine: no checkpoints
        graph.finalize()
        return self

    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    init_fn = property(lambda self: self._init_fn)
    local_init_op = property(lambda self: self._local_init_op)
    ready_op = property(lambda self: self._ready_op)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)


class MonitoredSession:
    """A Session that initializes itself and runs its hooks around every run()."""

    def __init__(self, session_creator=None, hooks=None, config=None, scaffold=None,
                 checkpoint_dir=None, master="", is_chief=True, max_wait_secs=7200):
        self._hooks = list(hooks or [])
        self._scaffold = scaffold or Scaffold()
        self._graph = get_default_graph()
        # A graph the session finalized is unfinalized again on close (TensorFlow's rule).
        self._graph_was_finalized = self._graph.finalized
        for hook in self._hooks:
            hook.begin()
        self._scaffold.finalize()
        logging.info("Graph was finalized.")
        self._sess = Session(master, config=config)
        if not is_chief:
            self._wait_until_ready(max_wait_secs)
        elif not (checkpoint_dir and self._restored(checkpoint_dir)):
            self._sess.run(self._scaffold.init_op, feed_dict=self._scaffold.init_feed_dict)
            if self._scaffold.init_fn is not None:
                self._scaffold.init_fn(self._scaffold, self._sess)
        if self._scaffold.local_init_op is not None:
            logging.info("Running local_init_op.")
            self._sess.run(self._scaffold.local_init_op)
            logging.info("Done running local_init_op.")
        for hook in self._hooks:
            hook.after_create_session(self._sess, None)
        self._stop_requested = False
        self._closed = False

    def _wait_until_ready(self, max_wait_secs):
        """A non-chief worker waits for the chief to initialize the shared variables, as
        TensorFlow's SessionManager.wait_for_session (which checks every 30 s; the engine
        checks often, a check is one small run)."""
        ready_op = self._scaffold.ready_op
        give_up = time.monotonic() + max_wait_secs
        while ready_op is not None:
            not_ready = self._sess.run(ready_op)
            if not_ready.size == 0:
                return
            if time.monotonic() >= give_up:
                self._sess.close()
                raise errors.DeadlineExceededError(
                    None, None, f"Session was not ready after waiting {max_wait_secs} secs.")
            logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  None, "
                         "ready: Variables not initialized: %s",
                         ", ".join(v.decode() if isinstance(v, bytes) else str(v)
                                   for v in not_ready))
            time.sleep(READY_CHECK_SECS)

    def _restored(self, checkpoint_dir):
        if self._scaffold.saver is None or not restore_latest(self._sess, self._scaffold.saver,
                                                              checkpoint_dir):
            return False
        return True

    @property
    def graph(self):
        return self._sess.graph

    def should_stop(self):
        return self._stop_requested or self._closed

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs fetches with every hook's additions; returns the caller's fetches only."""
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext((fetches, feed_dict, options, run_metadata), self._sess)
        hook_fetches, feeds, merged_options = {}, dict(feed_dict or {}), None
        for hook in self._hooks:
            request = hook.before_run(context)
            if request is None:
                continue
            if request.fetches is not None:
                hook_fetches[hook] = request.fetches
            for key, value in (request.feed_dict or {}).items():
                if key in feeds:
                    raise RuntimeError(f"Same tensor is fed by a SessionRunHook and user. "
                                       f"Conflict(s): {[key]}")
                feeds[key] = value
            if request.options is not None:
                merged_options = merged_options or RunOptions()
                merged_options.MergeFrom(request.options)
        if options is not None and merged_options is not None:
            merged_options.MergeFrom(options)
        requests = {"caller": fetches, **{id(h): f for h, f in hook_fetches.items()}}
        outputs = self._sess.run(requests, feed_dict=feeds or None,
                                 options=merged_options or options, run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(context, SessionRunValues(outputs.get(id(hook)), options,
                                                     run_metadata))
        self._stop_requested = self._stop_requested or context.stop_requested
        return outputs["caller"]

    def run_step_fn(self, step_fn):
        raise NotSupportedError("tf.train.MonitoredSession.run_step_fn is not supported by "
                                "the engine yet")

    def close(self):
        if not self._closed:
            self._closed = True
            self._sess.close()
            if not self._graph_was_finalized:
                self._graph._unsafe_unfinalize()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type is None or issubclass(exception_type, errors.OutOfRangeError):
            for hook in self._hooks:
                hook.end(self._sess)
        self.close()
        # Running out of input data ends training, as in TensorFlow.
        return exception_type is not None and issubclass(
            exception_type, (errors.OutOfRangeError, StopIteration))


SingularMonitoredSession = MonitoredSession

USE_DEFAULT = object()


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None,  # noqa: N802
                             hooks=None, chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT, save_summaries_secs=USE_DEFAULT,
                             config=None, stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
    """A MonitoredSession with TensorFlow 1.x's default hooks for a chief, in its order:
    chief-only hooks, step counter, summary saver, checkpoint saver, then the caller's."""
    if not is_chief:  # TensorFlow gives a worker only the caller's hooks
        return MonitoredSession(hooks=hooks, config=config, scaffold=scaffold or Scaffold(),
                                master=master, is_chief=False, max_wait_secs=max_wait_secs)
    save_summaries_steps, save_summaries_secs = _defaults(save_summaries_steps,
                                                          save_summaries_secs, (100, None))
    save_checkpoint_steps, save_checkpoint_secs = _defaults(save_checkpoint_steps,
                                                            save_checkpoint_secs, (None, 600))
    scaffold = scaffold or Scaffold()
    all_hooks = list(chief_only_hooks or [])
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(output_dir=summary_dir,
                                             every_n_steps=log_step_count_steps))
        if (save_summaries_steps or 0) > 0 or (save_summaries_secs or 0) > 0:
            all_hooks.append(SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                              save_secs=save_summaries_secs,
                                              output_dir=summary_dir))
    if checkpoint_dir and ((save_checkpoint_secs or 0) > 0 or (save_checkpoint_steps or 0) > 0):
        all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                             save_secs=save_checkpoint_secs, scaffold=scaffold,
                                             save_graph_def=save_graph_def))
    all_hooks.extend(hooks or [])
    return MonitoredSession(hooks=all_hooks, config=config, scaffold=scaffold,
                            checkpoint_dir=checkpoint_dir, master=master)


def _defaults(steps, secs, default):
    """(steps, secs) with USE_DEFAULT resolved as TensorFlow resolves it."""
    if steps is USE_DEFAULT and secs is USE_DEFAULT:
        return default
    return (None if steps is USE_DEFAULT else steps), (None if secs is USE_DEFAULT else secs)
