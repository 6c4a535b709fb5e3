"""tf.train.MonitoredTrainingSession / MonitoredSession / Scaffold: a session run under hooks.

As TensorFlow 1.x: the Scaffold finalizes the graph's init ops (global and local variable
initializers, ready ops, merge_all summaries); the chief's session is prepared by a
SessionManager (restored from checkpoint_dir's newest checkpoint, else initialized), another
worker's waits until the chief made the model ready (engine/training/session_manager.py).
The graph's queue runners start under a Coordinator the hooks are given. Then every run()
asks each hook's before_run for extra fetches and feeds, runs them together with the
caller's, and gives each hook its share in after_run; should_stop() is true once a hook (or
the coordinator) requested it. A run failing with AbortedError or UnavailableError (a task
of the cluster lost) closes the session and makes a new one, as TensorFlow's recoverable
session does. Leaving the `with` block calls every hook's end(), and an OutOfRangeError
ending the loop is not an error. With checkpoint_dir, a CheckpointSaverHook saves new
checkpoints (engine/training/checkpoint_hooks.py).
"""

from engine.framework import errors
from engine.framework.api_namespace import NotSupportedError
from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.platform import tf_logging as logging
from engine.runtime.session import RunMetadata, RunOptions
from engine.training.basic_hooks import StepCounterHook, SummarySaverHook
from engine.training.checkpoint_hooks import CheckpointSaverHook
from engine.training.coordinator import Coordinator
from engine.training.queue_runner import start_queue_runners
from engine.training.scaffold import Scaffold
from engine.training.session_creators import ChiefSessionCreator, WorkerSessionCreator
from engine.training.session_run_hook import SessionRunContext, SessionRunValues


# The errors of a cluster that lost a task (TensorFlow's _PREEMPTION_ERRORS): a monitored
# session recovers from them with a new session.
PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)


class MonitoredSession:
    """A Session that initializes itself and runs its hooks around every run().

    As TensorFlow's, its layers are: a recoverable session (a run failing with AbortedError
    or UnavailableError, a ps or worker of the cluster gone, closes the session and makes
    a new one, as the first was made, then runs again), a coordinated one (a Coordinator
    for the graph's queue runners, joined on close for stop_grace_period_secs), the hooks.
    """

    _recovers = True  # a preempted run is run again on a new session

    def __init__(self, session_creator=None, hooks=None, config=None, scaffold=None,
                 checkpoint_dir=None, master="", is_chief=True, max_wait_secs=7200,
                 stop_grace_period_secs=120):
        self._hooks = list(hooks or [])
        if session_creator is None:
            scaffold = scaffold or Scaffold()
            session_creator = (
                ChiefSessionCreator(scaffold, master, config, checkpoint_dir) if is_chief
                else WorkerSessionCreator(scaffold, master, config, max_wait_secs))
        self._session_creator = session_creator
        self._graph = get_default_graph()
        # A graph the session finalized is unfinalized again on close (TensorFlow's rule).
        self._graph_was_finalized = self._graph.finalized
        for hook in self._hooks:
            hook.begin()
        creator_scaffold = getattr(session_creator, "scaffold", None)
        if creator_scaffold is not None:
            creator_scaffold.finalize()
            logging.info("Graph was finalized.")
        self._stop_grace_period_secs = stop_grace_period_secs
        self._sess = self._coord = None
        self._stop_requested = False
        self._closed = False
        self._create_session()

    def _create_session(self):
        """A new ready session, its queue runners started, the hooks told; a session the
        cluster preempted while it was made is made again."""
        while True:
            try:
                self._sess = self._session_creator.create_session()
                # No exception of a thread is a clean stop here (TensorFlow's choice).
                self._coord = Coordinator(clean_stop_exception_types=[])
                if self._graph.get_collection(GraphKeys.QUEUE_RUNNERS):
                    start_queue_runners(self._sess, self._coord)
                for hook in self._hooks:
                    hook.after_create_session(self._sess, self._coord)
                return
            except PREEMPTION_ERRORS as error:
                if not self._recovers:
                    raise
                logging.info("An error was raised while a session was being created. This may "
                             "be due to a preemption of a connected worker or parameter "
                             "server. A new session will be created. This error may also "
                             "occur due to a gRPC failure caused by high memory or network "
                             "bandwidth usage in the parameter servers. If this error occurs "
                             "repeatedly, try increasing the number of parameter servers "
                             "assigned to the job. Error: %s", error)
                self._close_internal()

    @property
    def graph(self):
        return self._graph

    def should_stop(self):
        if self._closed or self._stop_requested:
            return True
        if self._coord is not None:
            # An error a queue runner reported stops training here, raised as TensorFlow's.
            self._coord.raise_requested_exception()
            return self._coord.should_stop()
        return False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs fetches with every hook's additions; returns the caller's fetches only.
        A run the cluster preempted is run again on a new session."""
        while True:
            if self._sess is None:
                self._create_session()
            try:
                return self._run_hooked(fetches, feed_dict, options, run_metadata)
            except PREEMPTION_ERRORS as error:
                if not self._recovers:
                    raise
                logging.info("An error was raised. This may be due to a preemption in a "
                             "connected worker or parameter server. The current session will "
                             "be closed and a new session will be created. This error may "
                             "also occur due to a gRPC failure caused by high memory or "
                             "network bandwidth usage in the parameter servers. If this error "
                             "occurs repeatedly, try increasing the number of parameter "
                             "servers assigned to the job. Error: %s", error)
                self._close_internal()

    def _run_hooked(self, fetches, feed_dict, options, run_metadata):
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
        run_metadata = run_metadata or RunMetadata()  # hooks read it (ProfilerHook)
        try:
            outputs = self._sess.run(requests, feed_dict=feeds or None,
                                     options=merged_options or options,
                                     run_metadata=run_metadata)
        except PREEMPTION_ERRORS:
            raise
        except Exception:
            # A queue runner's error may be why this run failed: that one is raised.
            if self._coord is not None:
                self._coord.raise_requested_exception()
            raise
        for hook in self._hooks:
            hook.after_run(context, SessionRunValues(outputs.get(id(hook)), options,
                                                     run_metadata))
        self._stop_requested = self._stop_requested or context.stop_requested
        return outputs["caller"]

    def run_step_fn(self, step_fn):
        raise NotSupportedError("tf.train.MonitoredSession.run_step_fn is not supported by "
                                "the engine yet")

    def _close_internal(self):
        """Stops the queue runners (waiting stop_grace_period_secs for them) and closes the
        session; the next run makes a new one."""
        coord, sess, self._coord, self._sess = self._coord, self._sess, None, None
        if coord is not None:
            coord.request_stop()
            try:
                coord.join(stop_grace_period_secs=self._stop_grace_period_secs,
                           ignore_live_threads=True)
            except PREEMPTION_ERRORS:
                pass  # a thread's preemption: a new session follows
            finally:
                if sess is not None:
                    sess.close()
        elif sess is not None:
            sess.close()

    def close(self):
        if not self._closed:
            self._closed = True
            try:
                self._close_internal()
            finally:
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


class SingularMonitoredSession(MonitoredSession):
    """TensorFlow's SingularMonitoredSession: a chief's MonitoredSession that does not recover
    from a preempted run, and whose raw_session() is the tf.Session underneath."""

    _recovers = False

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(
            scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        """The underlying tf.Session."""
        return self._sess

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
                                master=master, is_chief=False, max_wait_secs=max_wait_secs,
                                stop_grace_period_secs=stop_grace_period_secs)
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
                            checkpoint_dir=checkpoint_dir, master=master,
                            stop_grace_period_secs=stop_grace_period_secs)


def _defaults(steps, secs, default):
    """(steps, secs) with USE_DEFAULT resolved as TensorFlow resolves it."""
    if steps is USE_DEFAULT and secs is USE_DEFAULT:
        return default
    return (None if steps is USE_DEFAULT else steps), (None if secs is USE_DEFAULT else secs)
